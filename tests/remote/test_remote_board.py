"""Remote games on the simulated board: the local side is the simulated human on the virtual board, read by the
camera's stand-in, the remote side's moves are played by the gantry over the fake GRBL device; the opponent is a
scripted player on the test CSA server, or the test lishogi server. The records are saved as the game goes."""

from __future__ import annotations

import asyncio
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from csa_server import CsaTestServer, ServerFaults
from lishogi_server import LishogiTestServer

from controller.game.settings import Mode, OpponentKind
from controller.records.io import read_record
from controller.remote.csa_client import CsaClient, CsaSettings
from controller.remote.csa_protocol import GameEnd
from controller.remote.links import CsaLink, LishogiFind, LishogiLink
from controller.remote.lishogi_api import LishogiApi, Token
from controller.rules.types import Color, Termination
from controller.runner.options import SessionOptions, SessionResult
from controller.runner.session import run_session

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "runner"))
from runner_sim import TruthEyes

pytestmark = pytest.mark.slow

SAMPLE = (Path(__file__).parents[2] / "controller/data/sample_game.usi").read_text().split()[2:]
PLIES = 13
"""The game's length: the board plays the sample game's first 13 moves (captures and a promotion among them) and
the scripted opponent resigns at its turn after them."""


class ServerThread:
    """The test CSA server and a scripted gote player, on an event loop in a thread."""

    def __init__(self, faults: ServerFaults | None = None) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.server = CsaTestServer(faults)
        self.opponent_end: GameEnd | None = None
        self.received: list[str] = []
        self.on_receive: Callable[[int], None] = lambda _ply: None
        """Called with the move number each time the scripted player receives a move (for latency figures)."""

    def __enter__(self) -> ServerThread:
        self.thread.start()
        self.port = asyncio.run_coroutine_threadsafe(self.server.start(), self.loop).result(5)
        return self

    def __exit__(self, *exc: object) -> None:
        asyncio.run_coroutine_threadsafe(self.server.stop(), self.loop).result(5)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)
        self.loop.close()

    def settings(self, user: str) -> CsaSettings:
        return CsaSettings(
            host="127.0.0.1", port=self.port, user=user, password="g-600-10,pw", backoff_s=0.05, read_timeout_s=60
        )

    def start_opponent(self, script: list[str]) -> None:
        asyncio.run_coroutine_threadsafe(self._opponent(script), self.loop)

    async def _opponent(self, script: list[str]) -> None:
        await asyncio.sleep(0.3)  # the board logs in first: it plays sente
        client = CsaClient(self.settings("scripted"))
        summary = await client.start()
        while True:
            assert client.board is not None
            ply = len(client.moves)
            if Color.from_cshogi(client.board.turn) is summary.my_side:
                if ply < len(script):
                    await client.play(script[ply])
                else:
                    await client.resign()
            event = await client.next_event()
            if isinstance(event, GameEnd):
                self.opponent_end = event
                await client.close()
                return
            self.received.append(event.usi if hasattr(event, "usi") else "")
            self.on_receive(len(client.moves))


def _record(tmp_path: Path, moves: list[str]) -> Path:
    path = tmp_path / "human.usi"
    path.write_text("startpos moves " + " ".join(moves) + "\n", encoding="utf-8")
    return path


def _options(tmp_path: Path, link: object, human: Path) -> SessionOptions:
    return SessionOptions(
        Mode.PLAY, sim=True, sim_human=str(human), out=tmp_path, name="remote", board_every=0, stall_s=90,
        remote=link, remote_server="test",
    )  # fmt: skip


@pytest.fixture
def csa_server() -> Iterator[ServerThread]:
    with ServerThread() as server:
        yield server


def test_a_csa_game_is_played_on_the_board_to_the_opponents_resignation(
    tmp_path: Path, csa_server: ServerThread
) -> None:
    """The board (sente) and a scripted CSA player play 13 plies of a real game; the robot plays the remote moves,
    the scripted player resigns, and the records hold the game with the players' names."""
    csa_server.start_opponent(SAMPLE[:PLIES])
    link = CsaLink(csa_server.settings("board"))
    result: SessionResult = run_session(
        _options(tmp_path, link, _record(tmp_path, SAMPLE[:PLIES])), say=lambda _t: None, eyes=TruthEyes
    )
    state = result.report.state
    assert state.settings.opponent is OpponentKind.REMOTE and state.settings.opponent_side is Color.WHITE
    assert state.usi_moves == tuple(SAMPLE[:PLIES])
    assert state.result is not None
    assert (state.result.termination, state.result.winner) == (Termination.RESIGN, Color.BLACK)
    assert result.report.robot_moves == PLIES // 2 and result.board_matches
    assert csa_server.opponent_end is not None and csa_server.opponent_end.outcome == "#LOSE"
    assert csa_server.received[:PLIES] == SAMPLE[:PLIES]
    record = read_record(tmp_path / "remote.kifu")
    assert record.usi_moves == SAMPLE[:PLIES]
    assert "scripted" in record.headers.values() and "board" in record.headers.values()
    assert len(result.remote_figures.round_trips_ms()) == PLIES // 2 + 1


def test_a_dropped_connection_is_resumed_and_the_game_finished(tmp_path: Path) -> None:
    """The server drops the board's connection after 6 moves: the board logs in again, resynchronises from the
    server's move list, and the game goes on to the end with every move on the board and in the record."""
    with ServerThread(ServerFaults(drop={"board": 6})) as server:
        server.start_opponent(SAMPLE[:PLIES])
        link = CsaLink(server.settings("board"))
        result = run_session(
            _options(tmp_path, link, _record(tmp_path, SAMPLE[:PLIES])), say=lambda _t: None, eyes=TruthEyes
        )
        logins = list(server.server.logins)
    state = result.report.state
    assert logins.count("board") == 2
    assert state.usi_moves == tuple(SAMPLE[:PLIES]) and result.board_matches
    assert state.result is not None and state.result.termination is Termination.RESIGN
    assert read_record(tmp_path / "remote.csa").usi_moves == SAMPLE[:PLIES]


def test_a_lishogi_game_is_played_on_the_board_to_the_end(tmp_path: Path) -> None:
    """The board challenges the test lishogi server's scripted player and plays 13 plies; the script then
    resigns and the game ends with the server's verdict."""
    token = tmp_path / "token"
    token.write_text("lip_testtoken123\n", encoding="utf-8")
    token.chmod(0o600)
    with LishogiTestServer("lip_testtoken123", SAMPLE[:PLIES]) as server:
        api = LishogiApi(Token.from_file(token), server.base_url, timeout_s=5)
        link = LishogiLink(api, LishogiFind(challenge="script"), backoff_s=0.05)
        result = run_session(
            _options(tmp_path, link, _record(tmp_path, SAMPLE[:PLIES])), say=lambda _t: None, eyes=TruthEyes
        )
    state = result.report.state
    assert state.usi_moves == tuple(SAMPLE[:PLIES])
    assert state.result is not None and state.result.winner is Color.BLACK
    assert state.result.termination is Termination.RESIGN
    assert read_record(tmp_path / "remote.csa").usi_moves == SAMPLE[:PLIES]
