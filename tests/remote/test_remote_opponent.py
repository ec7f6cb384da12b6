"""The remote opponent's relay between the game loop and a server, against a scripted link: local moves sent
once, echoes timed, the server's moves and verdict posted, a lost move resent after a reconnection, a server
move made while away passed on, a disagreement named square by square, and the end told to the server."""

from __future__ import annotations

import asyncio
import queue
import time
from collections.abc import Iterator
from dataclasses import replace

import pytest

from controller.game.commands import AskEngine
from controller.game.events import Abort, Event, RemoteEnded, RemoteMoved, ServerClocks
from controller.game.machine import initial
from controller.game.settings import GameSettings, Mode, MoveSource, OpponentKind
from controller.game.state import GameState, PlayedMove
from controller.remote.csa_protocol import CsaProtocolError
from controller.remote.events import RemoteEnd, RemoteMove, Resynced, TakenBack
from controller.remote.links import RemoteStart
from controller.rules.positions import STARTPOS_SFEN
from controller.rules.types import Color, GameResult, Termination
from controller.runner.remote_opponent import RemoteOpponent, desync_sentences

START = RemoteStart("g1", STARTPOS_SFEN, (), Color.BLACK, "board", "them", main_s=600)


class ScriptedLink:
    """A server whose events the test feeds; it records what the client sent."""

    def __init__(self, start: RemoteStart = START) -> None:
        self.start_info = start
        self.moves: list[str] = list(start.moves)
        self.sent: list[str] = []
        self.resigned = self.declared = self.closed = False
        self.events: asyncio.Queue[object] | None = None
        self.draws_allowed = True
        self.draw_offers = 0
        self.chats: list[str] = []

    async def start(self) -> RemoteStart:
        self.events = asyncio.Queue()
        return self.start_info

    async def send(self, usi: str) -> None:
        self.sent.append(usi)

    async def resign(self) -> None:
        self.resigned = True

    async def declare(self) -> None:
        self.declared = True

    async def next_event(self) -> object:
        assert self.events is not None
        event = await self.events.get()
        if isinstance(event, RemoteMove):
            self.moves.append(event.usi)
        if isinstance(event, Resynced | TakenBack):
            self.moves = list(event.moves)
        return event

    def server_moves(self) -> tuple[str, ...]:
        return tuple(self.moves)

    def clocks_s(self) -> tuple[float, float] | None:
        return (590.0, 580.0)

    async def offer_draw(self) -> None:
        if not self.draws_allowed:
            raise CsaProtocolError("the CSA protocol has no draw offers")
        self.draw_offers += 1

    async def chat(self, text: str) -> None:
        self.chats.append(text)

    async def close(self) -> None:
        self.closed = True


class Relay:
    """A connected `RemoteOpponent` and the events it posts."""

    def __init__(self, link: ScriptedLink) -> None:
        self.link = link
        self.posted: queue.Queue[Event] = queue.Queue()
        self.opponent = RemoteOpponent(link, say=lambda _t: None, end_wait_s=0.5)  # type: ignore[arg-type]
        self.opponent.connect(5)
        self.opponent.listen(self.posted.put)

    def feed(self, event: object) -> None:
        assert self.link.events is not None
        loop = self.opponent._loop
        loop.call_soon_threadsafe(self.link.events.put_nowait, event)

    def next_of(self, kind: type, timeout: float = 5.0) -> Event:
        while True:
            event = self.posted.get(timeout=timeout)
            if isinstance(event, kind):
                return event

    def wait_sent(self, count: int) -> list[str]:
        deadline = time.monotonic() + 5.0
        while len(self.link.sent) < count and time.monotonic() < deadline:
            time.sleep(0.02)
        return self.link.sent


@pytest.fixture
def relay() -> Iterator[Relay]:
    r = Relay(ScriptedLink())
    yield r
    r.opponent.close()


def _state(moves: list[str]) -> GameState:
    settings = GameSettings(Mode.PLAY, opponent_side=Color.WHITE, opponent=OpponentKind.REMOTE)
    state, _ = initial(settings)
    return replace(state, moves=tuple(PlayedMove(m, 1.0, MoveSource.HUMAN) for m in moves))


def test_the_local_move_is_sent_once_and_the_reply_posted(relay: Relay) -> None:
    """Asked after the board's move, the relay sends it (once, even if asked again); the server's echo is timed
    and the remote reply arrives as `RemoteMoved` with the server's clocks."""
    relay.opponent.ask(AskEngine(STARTPOS_SFEN, ("7g7f",), None))
    relay.opponent.ask(AskEngine(STARTPOS_SFEN, ("7g7f",), None))
    assert relay.wait_sent(1) == ["7g7f"]
    relay.feed(RemoteMove(Color.BLACK, "7g7f", 1))
    relay.feed(RemoteMove(Color.WHITE, "3c3d", 2))
    assert relay.next_of(ServerClocks) == ServerClocks(590.0, 580.0)
    assert relay.next_of(RemoteMoved) == RemoteMoved("3c3d")
    assert len(relay.opponent.figures.round_trips_ms()) == 1
    assert relay.link.sent == ["7g7f"]


def test_a_move_lost_in_a_disconnection_is_sent_again(relay: Relay) -> None:
    """After a reconnection the server lacks the board's last move (the first send was lost): it is sent again."""
    relay.opponent.ask(AskEngine(STARTPOS_SFEN, ("7g7f",), None))
    relay.wait_sent(1)
    relay.feed(Resynced(()))
    assert relay.wait_sent(2) == ["7g7f", "7g7f"]


def test_a_server_move_made_while_away_is_passed_on(relay: Relay) -> None:
    """The server already has the remote reply when the relay reconnects: it is posted as the remote move."""
    relay.opponent.ask(AskEngine(STARTPOS_SFEN, ("7g7f",), None))
    relay.wait_sent(1)
    relay.feed(Resynced(("7g7f", "3c3d")))
    assert relay.next_of(RemoteMoved) == RemoteMoved("3c3d")


def test_a_disagreement_stops_the_game_naming_the_squares(relay: Relay) -> None:
    """The server's game is not the board's: the game is stopped with the squares to fix."""
    relay.opponent.ask(AskEngine(STARTPOS_SFEN, ("7g7f",), None))
    relay.wait_sent(1)
    relay.feed(TakenBack(("2g2f",)))
    abort = relay.next_of(Abort)
    assert isinstance(abort, Abort)
    assert "square 7f should be empty" in abort.reason and "square 2f should hold" in abort.reason


def test_the_servers_end_is_posted(relay: Relay) -> None:
    """`RemoteEnd` from the server becomes `RemoteEnded` for the game."""
    verdict = GameResult(Termination.TIMEOUT, Color.BLACK, "#TIME_UP")
    relay.feed(RemoteEnd(verdict))
    assert relay.next_of(RemoteEnded) == RemoteEnded(verdict)


def test_a_local_resignation_is_sent_to_the_server(relay: Relay) -> None:
    """The board's player resigned: the server is told."""
    relay.opponent.game_ended(GameResult(Termination.RESIGN, Color.WHITE), _state([]))
    assert relay.link.resigned and not relay.link.declared


def test_a_mating_move_made_on_the_board_reaches_the_server(relay: Relay) -> None:
    """The game ended on the board's move (mate): the move is still sent, so the server sees the mate."""
    relay.opponent.game_ended(GameResult(Termination.CHECKMATE, Color.BLACK), _state(["7g7f"]))
    assert relay.link.sent == ["7g7f"] and not relay.link.resigned


def test_desync_sentences_name_every_differing_square() -> None:
    """Board 7g7f against server 2g2f: four squares differ, each named with what it should hold."""
    lines = desync_sentences(STARTPOS_SFEN, ("7g7f",), ("2g2f",))
    assert len(lines) == 4
    assert "square 7g should hold sente's pawn." in lines
    assert any(line.startswith("square 7f should be empty") for line in lines)


def test_a_draw_offer_and_a_chat_line_reach_the_server(relay: Relay) -> None:
    """The page's draw offer and chat line go to the server; the player is told."""
    assert relay.opponent.offer_draw() == "Draw offered to the remote player."
    assert relay.opponent.chat("good game") == "You said: good game"
    assert relay.link.draw_offers == 1 and relay.link.chats == ["good game"]


def test_a_server_without_draw_offers_says_so(relay: Relay) -> None:
    """A CSA server has no draw offers: the player is told why nothing happened."""
    relay.link.draws_allowed = False
    assert "no draw offers" in relay.opponent.offer_draw()
