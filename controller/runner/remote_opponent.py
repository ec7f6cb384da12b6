"""A remote player as the game's opponent: the local board's moves go to the server, the server's moves come back
to the game loop as `RemoteMoved` events, its clocks as `ServerClocks` and its verdict as `RemoteEnded`.

Owns: the event loop thread that drives one `controller.remote.links.RemoteLink`, the mapping between the local
game's moves and the server's list (the server may have started from moves already played: they are the local
game's start position), resending a local move the server lost in a disconnection, stopping with the squares to
fix when the server's game and the board's disagree, ending the game on the server when it ended locally (the
mating move sent, `%TORYO` / resign, `%KACHI`), and the latency figures (local move sent → its echo).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import threading
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any

import cshogi

from controller.game.commands import AskEngine
from controller.game.events import Abort, Event, RemoteEnded, RemoteMoved, ServerClocks
from controller.game.state import GameState
from controller.reconcile.labels import EMPTY_INDEX, board_labels, describe_label, square_name
from controller.remote.csa_protocol import CsaProtocolError
from controller.remote.events import ChatLine, RemoteEnd, RemoteMove, Resynced, TakenBack
from controller.remote.links import RemoteLink, RemoteStart
from controller.remote.lishogi_api import LishogiError
from controller.rules.types import Color, GameResult, Termination

log = logging.getLogger(__name__)
Say = Callable[[str], None]


class RemoteGameError(RuntimeError):
    """The remote game cannot go on (connection lost for good, or the server's game is not the board's)."""


@dataclass
class RemoteFigures:
    """Timings of the local moves: when each was sent and when the server's echo came back (monotonic s)."""

    sent: dict[int, float] = field(default_factory=dict)
    echoed: dict[int, float] = field(default_factory=dict)
    asked: dict[int, float] = field(default_factory=dict)

    def round_trips_ms(self) -> list[float]:
        """Local move sent → the server's confirmation received, per local move."""
        return [(self.echoed[p] - self.sent[p]) * 1000 for p in sorted(self.sent) if p in self.echoed]

    def send_delays_ms(self) -> list[float]:
        """The game committed the local move → it left for the server."""
        return [(self.sent[p] - self.asked[p]) * 1000 for p in sorted(self.sent) if p in self.asked]


def desync_sentences(start_sfen: str, ours: tuple[str, ...], theirs: tuple[str, ...]) -> list[str]:
    """The squares where the board's game and the server's differ, in a player's words (the server's is right)."""
    board, server = cshogi.Board(start_sfen), cshogi.Board(start_sfen)
    for usi in ours:
        board.push_usi(usi)
    for usi in theirs:
        server.push_usi(usi)
    local, remote = board_labels(board), board_labels(server)
    lines = []
    for square in range(81):
        have, want = int(local[square]), int(remote[square])
        if have == want:
            continue
        name = square_name(square)
        if want == EMPTY_INDEX:
            lines.append(f"square {name} should be empty (the board has {describe_label(have)}).")
        else:
            lines.append(f"square {name} should hold {describe_label(want)}.")
    if board.pieces_in_hand != server.pieces_in_hand:
        lines.append("the pieces in hand differ: set the stands as the server's position has them.")
    return lines


class RemoteOpponent:
    """Drives a `RemoteLink` in its own event-loop thread; see the module docstring."""

    def __init__(
        self,
        link: RemoteLink,
        *,
        say: Say = print,
        clock: Callable[[], float] = time.monotonic,
        end_wait_s: float = 10.0,
    ) -> None:
        self.link, self._say, self._now, self._end_wait_s = link, say, clock, end_wait_s
        self.figures = RemoteFigures()
        self.start: RemoteStart | None = None
        self._post: Callable[[Event], None] = _nowhere
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="remote-opponent", daemon=True)
        self._local: tuple[str, ...] = ()
        self._sent: set[int] = set()
        self._ended = threading.Event()
        self._listener: concurrent.futures.Future[None] | None = None

    # --- called from the game's thread ----------------------------------------------------------------------

    def connect(self, timeout_s: float | None = None) -> RemoteStart:
        """Start the event loop and join the game (blocks until the server starts it).

        Raises:
            RemoteGameError: the server refused the login or the game; ConnectionError: it cannot be reached.
        """
        self._thread.start()
        try:
            self.start = asyncio.run_coroutine_threadsafe(self.link.start(), self._loop).result(timeout_s)
        except (LishogiError, CsaProtocolError) as exc:
            raise RemoteGameError(str(exc)) from exc
        return self.start

    def listen(self, post: Callable[[Event], None]) -> None:
        """Begin relaying the server's events to `post` (the game loop's queue)."""
        self._post = post
        self._listener = asyncio.run_coroutine_threadsafe(self._listen(), self._loop)

    def ask(self, command: AskEngine) -> None:
        """The remote side is to move: send the local side's last move (if the server lacks it) and wait."""
        self._local = command.moves
        self.figures.asked.setdefault(len(self._prefix()) + len(command.moves), self._now())
        asyncio.run_coroutine_threadsafe(self._sync(), self._loop)

    def cancel(self) -> None:
        """Nothing to stop: the remote player thinks on their own."""

    def game_ended(self, result: GameResult, state: GameState) -> None:
        """Tell the server how the game ended here (unless the server ended it), then wait for its verdict."""
        if self._ended.is_set() or self.start is None:
            return
        self._local = state.usi_moves
        future = asyncio.run_coroutine_threadsafe(self._finish(result), self._loop)
        try:
            future.result(self._end_wait_s)
        except (TimeoutError, OSError, RuntimeError) as exc:
            log.warning("ending the game on the server: %s", exc)
        self._ended.wait(self._end_wait_s)

    def offer_draw(self) -> str:
        """Offer (or accept) a draw on the server; the sentence to show."""
        return self._ask_server(self.link.offer_draw(), "Draw offered to the remote player.")

    def chat(self, text: str) -> str:
        """Send a chat line; the sentence to show."""
        return self._ask_server(self.link.chat(text), f"You said: {text}")

    def _ask_server(self, request: Coroutine[Any, Any, None], done: str) -> str:
        try:
            asyncio.run_coroutine_threadsafe(request, self._loop).result(10)
        except (LishogiError, CsaProtocolError, OSError, TimeoutError) as exc:
            return f"The server did not take it: {exc}"
        return done

    def close(self) -> None:
        """Leave the server and stop and close the event loop."""
        if not self._thread.is_alive():
            if not self._loop.is_closed():
                self._loop.close()
            return
        if self._listener is not None:
            self._listener.cancel()
        try:
            asyncio.run_coroutine_threadsafe(self.link.close(), self._loop).result(10)
        except (TimeoutError, OSError, RuntimeError) as exc:
            log.warning("closing the remote link: %s", exc)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)
        if not self._thread.is_alive():
            self._loop.close()

    # --- on the event loop ----------------------------------------------------------------------------------

    def _prefix(self) -> tuple[str, ...]:
        return self.start.moves if self.start is not None else ()

    def _wanted(self) -> tuple[str, ...]:
        """The whole game as the server should hold it."""
        return self._prefix() + self._local

    async def _sync(self) -> None:
        """Send the local moves the server has not confirmed (at most one: the last local move)."""
        wanted, server = self._wanted(), self.link.server_moves()
        if wanted[: len(server)] != server[: len(wanted)]:
            self._desync(server)
            return
        for ply in range(len(server), len(wanted)):
            if self._mover(ply) is not self._local_side() or ply + 1 in self._sent:
                continue
            self._sent.add(ply + 1)
            self.figures.sent[ply + 1] = self._now()
            await self.link.send(wanted[ply])
        if len(server) > len(wanted):
            self._relay_pending(server)

    async def _listen(self) -> None:
        try:
            while True:
                event = await self.link.next_event()
                if self._handle(event):
                    return
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # the thread reports every failure to the game loop, which stops the game
            self._post(Abort(f"the remote game was lost: {exc}"))

    def _handle(self, event: RemoteMove | Resynced | TakenBack | ChatLine | RemoteEnd) -> bool:
        """React to one server event; True when the game is over on the server."""
        if isinstance(event, RemoteMove):
            self._moved(event)
        elif isinstance(event, Resynced):
            self._say(f"  remote: reconnected; the server has {len(event.moves)} moves")
            self._sent = {ply for ply in self._sent if ply <= len(event.moves)}  # what it lacks is sent again
            asyncio.get_running_loop().create_task(self._sync())
        elif isinstance(event, TakenBack):
            self._desync(event.moves)
        elif isinstance(event, ChatLine):
            self._say(f"  chat {event.user}: {event.text}")
        else:
            self._ended.set()
            self._post(RemoteEnded(event.result))
            return True
        return False

    def _moved(self, event: RemoteMove) -> None:
        ply = len(self.link.server_moves())
        clocks = self.link.clocks_s()
        if clocks is not None:
            self._post(ServerClocks(*clocks))
        if event.side is self._local_side():
            self.figures.echoed.setdefault(ply, self._now())
            return
        self._post(RemoteMoved(event.usi))

    def _relay_pending(self, server: tuple[str, ...]) -> None:
        """The server already has the remote side's next move (played while we were away): pass it on."""
        ply = len(self._wanted())
        if self._mover(ply) is not self._local_side():
            self._post(RemoteMoved(server[ply]))

    def _desync(self, server: tuple[str, ...]) -> None:
        assert self.start is not None
        lines = desync_sentences(self.start.start_sfen, self._wanted(), server)
        detail = " ".join(lines) or "the move lists differ."
        self._post(Abort(f"the board and the server disagree; the server's game is right: {detail}"))

    async def _finish(self, result: GameResult) -> None:
        await self._sync()
        local = self._local_side()
        if result.termination is Termination.RESIGN and result.winner is local.opponent:
            await self.link.resign()
        elif result.termination is Termination.IMPASSE_WIN and result.winner is local:
            await self.link.declare()

    def _local_side(self) -> Color:
        assert self.start is not None
        return self.start.local_side

    def _mover(self, ply: int) -> Color:
        """Who plays the server's move number `ply + 1` (0-based index into the server's list)."""
        assert self.start is not None
        first = Color(self.start.start_sfen.split()[1])  # the SFEN's side to move
        return first if ply % 2 == 0 else first.opponent


def _nowhere(_event: Event) -> None:
    """Events before `listen` have nowhere to go."""
