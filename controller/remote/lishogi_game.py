"""One game through the lishogi Board API, as the local board's remote opponent.

Owns: following the game stream (moves, clocks, status), turning it into `controller.remote.events`, and
reconnecting with backoff when the stream breaks (the server's move list is authoritative: it resynchronises).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import cshogi

from controller.remote.events import ChatLine, RemoteEnd, RemoteMove, Resynced, TakenBack
from controller.remote.lishogi_api import LishogiApi, LishogiError, StreamBrokenError
from controller.rules.game import push_checked
from controller.rules.positions import resolve_start
from controller.rules.types import Color, GameResult, Termination

log = logging.getLogger(__name__)

STATUS_TERMINATION = {
    "mate": Termination.CHECKMATE,
    "resign": Termination.RESIGN,
    "outoftime": Termination.TIMEOUT,
    "timeout": Termination.TIMEOUT,
    "impasse27": Termination.IMPASSE_WIN,
    "perpetualcheck": Termination.PERPETUAL_CHECK,
    "repetition": Termination.REPETITION,
    "illegalmove": Termination.ILLEGAL_MOVE,
    "stalemate": Termination.NO_LEGAL_MOVES,
    "draw": Termination.DRAW,
    "aborted": Termination.ABORT,
    "nostart": Termination.ABORT,
    "cheat": Termination.ABORT,
}
PLAYING = frozenset({"created", "started"})

Event = RemoteMove | Resynced | TakenBack | ChatLine | RemoteEnd


@dataclass(frozen=True)
class Clocks:
    """The server's clocks, in milliseconds."""

    sente_ms: int
    gote_ms: int
    byoyomi_ms: int


class LishogiGame:
    """Follows one game; `start()` first, then `next_event()` until a RemoteEnd."""

    def __init__(self, api: LishogiApi, game_id: str, *, reconnect_attempts: int = 6, backoff_s: float = 1.0) -> None:
        self.api = api
        self.game_id = game_id
        self.start_sfen = ""
        self.moves: list[str] = []
        self.clocks = Clocks(0, 0, 0)
        self.names: dict[Color, str] = {}
        self.clock: dict[str, int] = {}
        """The time control of gameFull's `clock` (`initial`, `increment`, `byoyomi` in ms; `periods`)."""
        self._stream: AsyncIterator[dict[str, Any]] | None = None
        self._pending: list[Event] = []
        self._attempts = reconnect_attempts
        self._backoff_s = backoff_s

    async def start(self) -> None:
        """Open the game stream and read gameFull."""
        await self._open()

    async def play(self, usi: str) -> None:
        """Send a move of the local side (checked against the rules first)."""
        board = self.board()
        push_checked(board, usi)
        await self.api.move(self.game_id, usi)

    async def resign(self) -> None:
        """Resign on the server."""
        await self.api.resign(self.game_id)

    async def offer_draw(self, accept: bool = True) -> None:
        """Offer (or accept) a draw; False declines the opponent's offer."""
        await self.api.draw(self.game_id, accept)

    async def say(self, text: str) -> None:
        """Write a chat line in the player room."""
        await self.api.chat(self.game_id, text)

    def board(self) -> cshogi.Board:
        """The position as the server last confirmed it."""
        board = cshogi.Board(self.start_sfen)
        for usi in self.moves:
            board.push_usi(usi)
        return board

    async def next_event(self) -> Event:
        """The next thing that happened on the server."""
        while not self._pending:
            try:
                message = await self._next_message()
            except (StreamBrokenError, StopAsyncIteration) as exc:
                log.warning("lishogi game stream ended (%s); reconnecting", exc or "closed")
                await self._reconnect()
                return Resynced(tuple(self.moves))
            self._pending.extend(self._interpret(message))
        return self._pending.pop(0)

    async def _next_message(self) -> dict[str, Any]:
        if self._stream is None:
            raise StreamBrokenError("no stream open")
        return await anext(self._stream)

    def _interpret(self, message: dict[str, Any]) -> list[Event]:
        kind = message.get("type")
        if kind == "gameState":
            return self._state(message)
        if kind == "chatLine":
            return [ChatLine(str(message.get("username", "")), str(message.get("text", "")))]
        if kind == "gameFull":
            self._full(message)
            return [Resynced(tuple(self.moves))]
        return []

    def _full(self, message: dict[str, Any]) -> None:
        initial = str(message.get("initialSfen") or "startpos")
        self.start_sfen = resolve_start(initial)
        clock = message.get("clock") or {}
        self.clock = {str(k): int(v) for k, v in clock.items() if isinstance(v, int | float)}
        for side, key in ((Color.BLACK, "sente"), (Color.WHITE, "gote")):
            player = message.get(key) or {}
            self.names[side] = str(player.get("name") or player.get("id") or "?")
        self.moves = []
        self._state(dict(message.get("state") or {}), quiet=True)

    def _state(self, state: dict[str, Any], quiet: bool = False) -> list[Event]:
        moves = str(state.get("moves", "")).split()
        events: list[Event] = []
        if moves[: len(self.moves)] != self.moves:
            self.moves = []
            events.append(TakenBack(tuple(moves)))
        board = self.board()
        for usi in moves[len(self.moves) :]:
            side = Color.from_cshogi(board.turn)
            push_checked(board, usi, len(self.moves) + 1)
            self.moves.append(usi)
            events.append(RemoteMove(side, usi))
        self.clocks = _clocks(state)
        status = str(state.get("status", "started")).lower()
        if status not in PLAYING:
            events.append(RemoteEnd(_result(status, state.get("winner"))))
        return [] if quiet else events

    async def _open(self) -> None:
        self._stream = self.api.game(self.game_id)
        first = await self._next_message()
        if first.get("type") != "gameFull":
            raise LishogiError(f"game stream began with {first.get('type')!r}, not gameFull")
        self._full(first)

    async def _reconnect(self) -> None:
        delay = self._backoff_s
        known = list(self.moves)
        for attempt in range(1, self._attempts + 1):
            await asyncio.sleep(delay)
            try:
                await self._open()
            except LishogiError as exc:
                log.warning("reconnect %d/%d failed: %s", attempt, self._attempts, exc)
                delay = min(delay * 2, 30.0)
                continue
            if self.moves[: len(known)] != known:
                log.warning("after reconnecting, the server's moves differ from ours; following the server")
            return
        raise LishogiError(f"lost the game stream and could not reconnect after {self._attempts} attempts")


def _clocks(state: dict[str, Any]) -> Clocks:
    gote = state.get("wtime", state.get("gtime", state.get("qtime", 0)))
    return Clocks(int(state.get("btime", 0) or 0), int(gote or 0), int(state.get("byo", 0) or 0))


def _result(status: str, winner: Any) -> GameResult:
    termination = STATUS_TERMINATION.get(status, Termination.ABORT)
    side = {"sente": Color.BLACK, "gote": Color.WHITE}.get(str(winner)) if winner else None
    return GameResult(termination, side, status)
