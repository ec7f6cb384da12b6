"""Simulated games through the whole session: virtual board, simulated human (a second fairy-stockfish), the real
engine, planner, executor and `GrblGantry` over a pty to the fake GRBL device whose head events move the virtual
pieces. These tests read the board through the synthetic reader on the virtual board's truth (`TruthEyes`), so
they check everything but the image reader; `test_runner_sim_camera.py` runs the real reader."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from runner_sim import TruthEyes

from controller.game.journal import resume
from controller.game.settings import Mode
from controller.runner.options import SessionOptions
from controller.runner.session import run_session

pytestmark = pytest.mark.slow

CHILD = Path(__file__).resolve().parent / "runner_child.py"
ROOT = Path(__file__).resolve().parents[2]


def test_simulated_game_every_robot_move_confirmed(tmp_path: Path) -> None:
    """Eight plies against fairy-stockfish: every gantry move is confirmed by the camera on the first try, the
    record holds the moves the simulated human really made, and no piece is lost."""
    options = SessionOptions(Mode.PLAY, sim=True, out=tmp_path, name="g", max_plies=8, board_every=0, stall_s=60)
    result = run_session(options, say=lambda _t: None, eyes=TruthEyes)
    state = result.report.state
    assert len(state.moves) == 8, (result.report.stopped, state.phase, state.messages, result.human_moves)
    assert result.report.robot_moves == 4 and result.report.robot_first_try == 4, result.report
    assert list(state.usi_moves[0::2]) == result.human_moves
    assert result.lost_pieces == [] and result.report.prompts == [] and result.board_matches
    assert [m.usi for m in resume(tmp_path / "g.journal").record.moves] == list(state.usi_moves)


def test_record_mode_from_a_record_file(tmp_path: Path) -> None:
    """`record --sim --sim-human FILE`: the simulated players play the record; every move is recorded."""
    record = tmp_path / "in.usi"
    moves = ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e", "B*5e"]
    record.write_text("startpos moves " + " ".join(moves) + "\n", encoding="utf-8")
    options = SessionOptions(
        Mode.RECORD, sim=True, sim_human=str(record), out=tmp_path, name="r", board_every=0, stall_s=60
    )
    result = run_session(options, say=lambda _t: None, eyes=TruthEyes)
    assert result.report.state.usi_moves == tuple(moves)
    assert "has no move" in (result.report.state.result.detail if result.report.state.result else "")


def _child(args: list[str], out: Path) -> subprocess.Popen[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.Popen(
        [sys.executable, str(CHILD), *args], cwd=out, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        text=True,
    )  # fmt: skip


def test_kill_mid_game_then_resume_continues_the_same_game(tmp_path: Path) -> None:
    """`play --sim` killed with SIGKILL after move 4; `play --sim --resume` continues from the journal: the moves
    journaled before the kill are kept and the game goes on to the cap."""
    base = ["play", "--sim", "--out", str(tmp_path), "--name", "crash", "--board-every", "0"]
    child = _child([*base, "--max-plies", "40"], tmp_path)
    assert child.stdout is not None
    seen: list[str] = []
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        line = child.stdout.readline()
        seen.append(line)
        if line.startswith("   4. "):
            break
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    child.stdout.close()
    before = [m.usi for m in resume(tmp_path / "crash.journal").record.moves]
    assert len(before) >= 4, "".join(seen)
    resumed = subprocess.run(
        [sys.executable, str(CHILD), "play", "--sim", "--resume", str(tmp_path / "crash.journal"),
         "--max-plies", str(len(before) + 4), "--board-every", "0"],
        cwd=tmp_path, env=dict(os.environ, PYTHONPATH=str(ROOT)), capture_output=True, text=True, timeout=180,
        check=False,
    )  # fmt: skip
    assert resumed.returncode == 0, resumed.stdout + resumed.stderr
    assert f"resuming {tmp_path / 'crash.journal'}: {len(before)} moves played" in resumed.stdout
    after = [m.usi for m in resume(tmp_path / "crash.journal").record.moves]
    assert after[: len(before)] == before and len(after) >= len(before) + 4
    assert "robot moves confirmed by the camera" in resumed.stdout


def test_web_page_follows_the_game(tmp_path: Path) -> None:
    """With `web`, the page's state shows the game's moves while it is played, and the record downloads."""
    import json
    import threading
    import urllib.request

    lines: list[str] = []
    options = SessionOptions(
        Mode.PLAY, sim=True, out=tmp_path, name="w", max_plies=6, board_every=0, stall_s=60, web=True, web_port=0
    )
    seen: dict[str, object] = {}

    def watch() -> None:
        while not any("web page:" in line for line in lines):
            time.sleep(0.05)
        url = next(line for line in lines if "web page:" in line).split("web page: ")[1].rstrip("/")
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and "state" not in seen:
            with urllib.request.urlopen(f"{url}/api/state", timeout=5) as reply:
                state = json.loads(reply.read())
            if len(state["moves"]) >= 2:
                seen["state"] = state
                with urllib.request.urlopen(f"{url}/api/record.csa", timeout=5) as reply:
                    seen["csa"] = reply.read().decode("utf-8")
            time.sleep(0.1)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    result = run_session(options, say=lines.append, eyes=TruthEyes)
    watcher.join(timeout=5)
    state = seen["state"]
    assert isinstance(state, dict) and state["mode"] == "play"
    assert [m["usi"] for m in state["moves"]] == list(result.report.state.usi_moves[: len(state["moves"])])
    assert "V3.0" in str(seen["csa"]) and "N+human" in str(seen["csa"])


def test_assist_mode_the_simulated_human_plays_the_engines_moves(tmp_path: Path) -> None:
    """Without a gantry, the engine's moves are announced and the simulated human makes them; the camera checks."""
    options = SessionOptions(
        Mode.PLAY, sim=True, gantry=False, out=tmp_path, name="a", max_plies=6, board_every=0, stall_s=60
    )
    result = run_session(options, say=lambda _t: None, eyes=TruthEyes)
    state = result.report.state
    assert len(state.moves) == 6, (result.report.stopped, state.phase, state.messages, result.human_moves)
    assert result.robot_runs == 0
    assert result.human_moves == list(state.usi_moves)
