"""The web server without a browser: state, events, commands, tokens, downloads and the SVG diagram."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator

import pytest

from controller.rules.positions import STARTPOS_SFEN
from controller.web.hub import CommandError, CommandKind, ViewHub, parse_command
from controller.web.server import WebServer
from controller.web.svg import board_svg
from controller.web.view import GameView, PromptView, japanese_moves


@pytest.fixture
def served() -> Iterator[tuple[WebServer, ViewHub]]:
    hub = ViewHub()
    server = WebServer(hub, port=0)
    server.start()
    yield server, hub
    server.stop()


def _get(url: str, token: str | None = None) -> tuple[int, bytes]:
    request = urllib.request.Request(url, headers={"Authorization": f"Bearer {token}"} if token else {})
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


def _post(url: str, body: object, token: str | None = None) -> tuple[int, dict[str, object]]:
    headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})}
    request = urllib.request.Request(url, data=json.dumps(body).encode(), headers=headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def test_state_shows_moves_in_japanese(served: tuple[WebServer, ViewHub]) -> None:
    """It should serve the view with Japanese and USI notation and the current SFEN."""
    server, hub = served
    hub.publish(GameView(mode="record", moves=("7g7f", "3c3d", "8h2b+", "3a2b")))
    status, body = _get(server.url + "api/state")
    state = json.loads(body)
    assert status == 200
    assert [m["ja"] for m in state["moves"]] == ["▲７六歩", "△３四歩", "▲２二角成", "△同　銀"]
    assert state["turn"] == "b" and "<svg" in state["svg"]


def test_events_stream_pushes_a_view(served: tuple[WebServer, ViewHub]) -> None:
    """It should push the view as a server-sent event."""
    server, hub = served
    hub.publish(GameView(status="engine thinking"))
    with urllib.request.urlopen(server.url + "api/events", timeout=5) as response:
        assert response.headers["Content-Type"] == "text/event-stream"
        assert response.readline() == b"event: view\n"
        data = json.loads(response.readline().removeprefix(b"data: "))
    assert data["status"] == "engine thinking"


def test_commands_reach_the_hub(served: tuple[WebServer, ViewHub]) -> None:
    """It should queue a valid command and refuse a malformed one with a reason."""
    server, hub = served
    assert _post(server.url + "api/command", {"kind": "answer", "args": {"prompt_id": "p1", "answer": "yes"}})[0] == 202
    command = hub.take_command()
    assert command is not None and command.kind is CommandKind.ANSWER and command.args["answer"] == "yes"
    status, body = _post(server.url + "api/command", {"kind": "fly"})
    assert status == 400 and "unknown command" in str(body["error"])
    assert _post(server.url + "api/command", {"kind": "jog", "args": {"dx_mm": "far"}})[0] == 400


def test_token_is_required_off_loopback() -> None:
    """It should refuse to listen beyond loopback without a token."""
    with pytest.raises(ValueError, match="needs a token"):
        WebServer(ViewHub(), host="0.0.0.0", port=0)


def test_token_is_checked() -> None:
    """It should answer 401 without the token and serve with it (header or query)."""
    hub = ViewHub()
    server = WebServer(hub, port=0, token="s3cret")
    server.start()
    try:
        assert _get(server.url + "api/state")[0] == 401
        assert _get(server.url + "api/state", "wrong")[0] == 401
        assert _get(server.url + "api/state", "s3cret")[0] == 200
        assert _get(server.url + "api/state?token=s3cret")[0] == 200
        assert _get(server.url)[0] == 200
    finally:
        server.stop()


def test_record_download(served: tuple[WebServer, ViewHub]) -> None:
    """It should offer the record for download once the game provides it."""
    server, hub = served
    assert _get(server.url + "api/record.kifu")[0] == 404
    hub.set_record_source(lambda fmt: f"record as {fmt}".encode())
    assert _get(server.url + "api/record.csa") == (200, b"record as csa")


def test_svg_marks_last_move_and_doubt() -> None:
    """It should highlight the last move's squares and outline squares in doubt."""
    svg = board_svg(STARTPOS_SFEN, "7g7f", frozenset({"5e"}))
    assert svg.count('class="last"') == 2
    assert 'data-square="5e"' in svg
    assert svg.count('class="piece"') == 40


def test_prompt_in_view(served: tuple[WebServer, ViewHub]) -> None:
    """It should include the prompt with its options."""
    server, hub = served
    hub.publish(GameView(prompt=PromptView("p7", "Promote?", ("yes", "no"))))
    state = json.loads(_get(server.url + "api/state")[1])
    assert state["prompt"] == {"id": "p7", "question": "Promote?", "options": ["yes", "no"], "typed": False}


def test_japanese_drop_and_promotion_choice() -> None:
    """It should write drops with 打 only when needed, and 不成 for a declined promotion."""
    moves = ("7g7f", "3c3d", "8h2b+", "3a2b", "B*4e")
    assert japanese_moves(STARTPOS_SFEN, moves)[-1] == "▲４五角"


def test_a_chat_line_must_be_short_text() -> None:
    """A chat command needs 1 to 140 characters of text; otherwise a clear error (400 on the wire)."""
    assert parse_command({"kind": "chat", "args": {"text": "hi"}}).args["text"] == "hi"
    for bad in ({}, {"text": ""}, {"text": "x" * 141}, {"text": 5}):
        with pytest.raises(CommandError, match="1 to 140"):
            parse_command({"kind": "chat", "args": bad})
