// shogi-robot page: follows the game through server-sent events; controls are POSTed as commands.
"use strict";
let token = localStorage.getItem("shogi-robot-token") || "";
let view = null;
let clockBase = null;

const $ = (id) => document.getElementById(id);
const authHeaders = () => (token ? { Authorization: "Bearer " + token } : {});
const withToken = (url) => (token ? url + (url.includes("?") ? "&" : "?") + "token=" + encodeURIComponent(token) : url);

async function send(kind, args = {}) {
  const response = await fetch("/api/command", {
    method: "POST",
    headers: { "Content-Type": "application/json", ...authHeaders() },
    body: JSON.stringify({ kind, args }),
  });
  if (response.status === 401) return askToken();
  if (!response.ok) $("status").textContent = (await response.json()).error;
}

function askToken() {
  const dialog = $("token-dialog");
  dialog.showModal();
  dialog.addEventListener("close", () => {
    token = $("token-input").value.trim();
    localStorage.setItem("shogi-robot-token", token);
    connect();
  }, { once: true });
}

function fmt(ms) {
  if (ms == null) return "--:--";
  const s = Math.max(0, Math.ceil(ms / 1000));
  return String(Math.floor(s / 60)).padStart(2, "0") + ":" + String(s % 60).padStart(2, "0");
}

function renderClocks() {
  const clocks = view && view.clocks;
  for (const side of ["b", "w"]) {
    const box = $("clock-" + side);
    let ms = clocks ? (side === "b" ? clocks.sente_ms : clocks.gote_ms) : null;
    if (clocks && clocks.running === side && clockBase) ms -= performance.now() - clockBase;
    box.querySelector(".time").textContent = fmt(ms);
    box.classList.toggle("running", !!clocks && clocks.running === side);
  }
}

function renderPrompt(prompt) {
  $("prompt").hidden = !prompt;
  if (!prompt) return;
  $("prompt-question").textContent = prompt.question;
  const options = $("prompt-options");
  options.replaceChildren(...prompt.options.map((answer) => {
    const button = document.createElement("button");
    button.textContent = answer;
    button.addEventListener("click", () => {
      send("answer", { prompt_id: prompt.id, answer });
      if (prompt.typed && answer === "another move") $("prompt-move").focus();
    });
    return button;
  }));
  // a move question's way out: the move(s) played, typed (the game's referee checks them)
  const typed = $("prompt-typed");
  typed.hidden = !prompt.typed;
  typed.onsubmit = (event) => {
    event.preventDefault();
    const answer = $("prompt-move").value.trim();
    if (answer) send("answer", { prompt_id: prompt.id, answer });
    $("prompt-move").value = "";
  };
}

function renderCamera(camera) {
  if (!camera) return;
  $("camera").src = withToken("/api/camera.jpg?v=" + camera.version);
  const overlay = $("overlay");
  overlay.setAttribute("viewBox", `0 0 ${camera.width} ${camera.height}`);
  const poly = (points, colour) =>
    `<polygon points="${points.map((p) => p.join(",")).join(" ")}" fill="none" stroke="${colour}" stroke-width="3"/>`;
  overlay.innerHTML = (camera.grid.length ? poly(camera.grid, "#38a169") : "") +
    camera.doubtful.map((p) => poly(p, "#e53e3e")).join("");
}

function render(next) {
  view = next;
  clockBase = performance.now();
  $("board").innerHTML = view.svg;
  $("status").textContent = view.notice ? `${view.status} — ${view.notice}` : view.status;
  $("evaluation").textContent = view.evaluation || "";
  $("result").textContent = view.result || "";
  $("name-b").textContent = view.names.b || "sente";
  $("name-w").textContent = view.names.w || "gote";
  $("moves").replaceChildren(...view.moves.map((m) => {
    const li = document.createElement("li");
    li.dataset.usi = m.usi;
    li.innerHTML = `<span class="ply"></span><span class="ja"></span><span class="usi"></span>`;
    li.querySelector(".ply").textContent = m.ply + ".";
    li.querySelector(".ja").textContent = m.ja;
    li.querySelector(".usi").textContent = m.usi;
    return li;
  }));
  $("moves").scrollTop = $("moves").scrollHeight;
  renderPrompt(view.prompt);
  renderCamera(view.camera);
  renderClocks();
  document.body.dataset.version = view.version;
}

let source = null;
function connect() {
  if (source) source.close();
  source = new EventSource(withToken("/api/events"));
  source.addEventListener("view", (event) => render(JSON.parse(event.data)));
  source.onopen = () => { $("connection").textContent = "live"; $("connection").classList.add("live"); };
  source.onerror = async () => {
    $("connection").textContent = "reconnecting…";
    $("connection").classList.remove("live");
    const probe = await fetch(withToken("/api/state")).catch(() => null);
    if (probe && probe.status === 401) { source.close(); askToken(); }
  };
}

document.querySelectorAll("button[data-kind]").forEach((button) =>
  button.addEventListener("click", () => send(button.dataset.kind)));
document.querySelectorAll("button[data-jog]").forEach((button) =>
  button.addEventListener("click", () => {
    const [dx, dy] = button.dataset.jog.split(",").map(Number);
    send("jog", { dx_mm: dx, dy_mm: dy });
  }));
document.querySelectorAll("a[data-record]").forEach((link) =>
  link.addEventListener("click", (event) => {
    event.preventDefault();
    window.location = withToken("/api/record." + link.dataset.record);
  }));
$("chat").addEventListener("submit", (event) => {
  event.preventDefault();
  const input = event.target.elements.text;
  if (input.value.trim()) send("chat", { text: input.value.trim() });
  input.value = "";
});
$("new-game").addEventListener("submit", (event) => {
  event.preventDefault();
  send("new_game", Object.fromEntries(new FormData(event.target)));
});
setInterval(renderClocks, 250);
connect();
