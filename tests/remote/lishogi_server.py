"""A local HTTP server that follows the lishogi Board API spec (shared/data/specs/lishogi-api.yaml) for the paths a
physical board uses: the event stream, challenges, the game stream (NDJSON), moves, resign, draw and chat.

The opponent is scripted: after each local move the server plays the next move of its script (or resigns when the
script runs out). Faults: the game stream can be cut after a number of moves, once. Loopback only.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import cshogi


@dataclass
class FakeGame:
    """One game: sente is the client, gote the script."""

    game_id: str
    script: list[str]
    moves: list[str] = field(default_factory=list)
    status: str = "started"
    winner: str | None = None
    chat: list[str] = field(default_factory=list)
    version: int = 0

    def state(self) -> dict[str, Any]:
        state: dict[str, Any] = {
            "type": "gameState",
            "moves": " ".join(self.moves),
            "btime": 600000,
            "wtime": 600000,
            "binc": 0,
            "winc": 0,
            "byo": 10000,
            "status": self.status,
        }
        if self.winner:
            state["winner"] = self.winner
        return state

    def full(self) -> dict[str, Any]:
        return {
            "type": "gameFull",
            "id": self.game_id,
            "variant": {"key": "standard", "name": "Standard"},
            "clock": {"initial": 600000, "increment": 0, "byoyomi": 10000, "periods": 1},
            "speed": "rapid",
            "perf": {"name": "Rapid"},
            "rated": False,
            "createdAt": 0,
            "sente": {"id": "board", "name": "board"},
            "gote": {"id": "script", "name": "script"},
            "initialSfen": "startpos",
            "state": self.state(),
        }


class LishogiTestServer(ThreadingHTTPServer):
    """Serve on 127.0.0.1 on a free port; `base_url` to connect."""

    daemon_threads = True

    def __init__(self, token: str, script: list[str], cut_stream_after: int | None = None) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.token = token
        self.script = script
        self.cut_stream_after = cut_stream_after
        self.games: dict[str, FakeGame] = {}
        self.lock = threading.Condition()
        self.requests: list[str] = []
        self.stream_opens = 0
        self._thread = threading.Thread(target=self.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"

    def __enter__(self) -> LishogiTestServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        with self.lock:
            for game in self.games.values():
                game.status = game.status if game.status != "started" else "aborted"
                game.version += 1
            self.lock.notify_all()
        self.shutdown()
        self.server_close()

    def create_game(self) -> FakeGame:
        with self.lock:
            game = FakeGame(f"g{len(self.games) + 1:07d}", list(self.script))
            self.games[game.game_id] = game
            self.lock.notify_all()
            return game

    def apply(self, game: FakeGame, usi: str) -> str | None:
        """Play the client's move and the script's answer; an error text when the move is refused."""
        with self.lock:
            board = cshogi.Board()
            for m in game.moves:
                board.push_usi(m)
            if game.status != "started" or board.turn != cshogi.BLACK:
                return "Not your turn, or game already over"
            move = board.move_from_usi(usi)
            if move == 0 or move not in set(board.legal_moves):
                return f"Invalid move: {usi}"
            board.push(move)
            game.moves.append(usi)
            self._answer(game, board)
            game.version += 1
            self.lock.notify_all()
            return None

    def _answer(self, game: FakeGame, board: cshogi.Board) -> None:
        ply = len(game.moves)
        if not any(True for _ in board.legal_moves):
            game.status, game.winner = "mate", "sente"
        elif ply < len(game.script):
            game.moves.append(game.script[ply])
        else:
            game.status, game.winner = "resign", "sente"

    def finish(self, game: FakeGame, status: str, winner: str | None) -> None:
        with self.lock:
            game.status, game.winner = status, winner
            game.version += 1
            self.lock.notify_all()


class _Handler(BaseHTTPRequestHandler):
    server: LishogiTestServer

    def log_message(self, format: str, *args: Any) -> None:
        return

    def _authorised(self) -> bool:
        if self.headers.get("Authorization") == f"Bearer {self.server.token}":
            return True
        self._json(401, {"error": "No such token"})
        return False

    def _json(self, status: int, body: dict[str, Any]) -> None:
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _start_stream(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "application/x-ndjson")
        self.send_header("Connection", "close")
        self.end_headers()

    def _line(self, body: dict[str, Any]) -> None:
        self.wfile.write(json.dumps(body).encode() + b"\n")
        self.wfile.flush()

    def do_GET(self) -> None:
        try:
            self._get()
        except (BrokenPipeError, ConnectionResetError):
            return

    def _get(self) -> None:
        self.server.requests.append(f"GET {self.path}")
        if not self._authorised():
            return
        parts = self.path.strip("/").split("/")
        if parts[:4] == ["api", "board", "game", "stream"] and len(parts) == 5:
            self._game_stream(parts[4])
        elif parts == ["api", "stream", "event"]:
            self._event_stream()
        else:
            self._json(404, {"error": "Not found"})

    def do_POST(self) -> None:
        self.server.requests.append(f"POST {self.path}")
        if not self._authorised():
            return
        length = int(self.headers.get("Content-Length") or 0)
        self.rfile.read(length)
        parts = self.path.split("?")[0].strip("/").split("/")
        if parts == ["api", "board", "seek"]:
            self.server.create_game()
            self._start_stream()  # the seek is accepted at once: the server closes the stream, as the spec says
            return
        if parts[:2] == ["api", "challenge"] and len(parts) == 3:
            game = self.server.create_game()
            self._json(200, {"challenge": {"id": game.game_id, "status": "created"}})
            return
        if parts[:3] != ["api", "board", "game"] or len(parts) < 5 or parts[3] not in self.server.games:
            self._json(404, {"error": "Not found"})
            return
        self._game_action(self.server.games[parts[3]], parts[4:])

    def _game_action(self, game: FakeGame, action: list[str]) -> None:
        if action[0] == "move" and len(action) == 2:
            error = self.server.apply(game, action[1])
            self._json(400 if error else 200, {"error": error} if error else {"ok": True})
        elif action == ["resign"]:
            self.server.finish(game, "resign", "gote")
            self._json(200, {"ok": True})
        elif action == ["draw", "yes"]:
            self.server.finish(game, "draw", None)
            self._json(200, {"ok": True})
        elif action == ["chat"]:
            game.chat.append("line")
            self._json(200, {"ok": True})
        else:
            self._json(404, {"error": "Not found"})

    def _game_stream(self, game_id: str) -> None:
        game = self.server.games.get(game_id)
        if game is None:
            self._json(404, {"error": "No such game"})
            return
        self._start_stream()
        self.server.stream_opens += 1
        cut = self.server.cut_stream_after
        with self.server.lock:
            self._line(game.full())
            seen = game.version
            while game.status == "started":
                self.server.lock.wait(timeout=0.2)
                if game.version != seen:
                    seen = game.version
                    if cut is not None and len(game.moves) >= cut:
                        self.server.cut_stream_after = None
                        self.connection.shutdown(socket.SHUT_RDWR)
                        return
                    self._line(game.state())
                else:
                    self.wfile.write(b"\n")
                    self.wfile.flush()
            self._line(game.state())

    def _event_stream(self) -> None:
        self._start_stream()
        sent: set[str] = set()
        deadline = time.monotonic() + 10
        with self.server.lock:
            while time.monotonic() < deadline:
                for game_id in self.server.games:
                    if game_id not in sent:
                        sent.add(game_id)
                        self._line({"type": "gameStart", "game": {"gameId": game_id, "id": game_id, "color": "sente"}})
                if sent:
                    return
                self.server.lock.wait(timeout=0.2)
