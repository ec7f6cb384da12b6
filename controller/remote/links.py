"""One remote game behind one small async interface, whichever server holds it (CSA or the lishogi Board API).

Owns: `RemoteStart` (what the game loop must know before play: start position, moves already played, the local
side, names, time control), the `RemoteLink` protocol the runner drives, and its two implementations:
`CsaLink` (a `CsaClient`: log in, Game_Summary, AGREE) and `LishogiLink` (find the game on the event stream,
after a challenge or a seek or by its id, then follow it with `LishogiGame`). Moves, resynchronisation and the end
come out as `controller.remote.events`. It knows nothing of boards, cameras or gantries.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any, Protocol

from controller.remote.csa_client import CsaClient, CsaSettings
from controller.remote.csa_protocol import CsaProtocolError, GameEnd
from controller.remote.events import ChatLine, RemoteEnd, RemoteMove, Resynced, TakenBack
from controller.remote.lishogi_api import LishogiApi, LishogiError
from controller.remote.lishogi_game import LishogiGame
from controller.rules.types import Color

RemoteEvent = RemoteMove | Resynced | TakenBack | ChatLine | RemoteEnd


@dataclass(frozen=True)
class RemoteStart:
    """The game as the server announces it.

    Attributes:
        game_id: the server's id of the game.
        start_sfen: the starting position (a handicap or a given position included).
        moves: moves already played when the local board joins (USI).
        local_side: the side the local board plays.
        black_name, white_name: the players' names.
        main_s, byoyomi_s, increment_s: the time control (seconds; 0 when absent).
    """

    game_id: str
    start_sfen: str
    moves: tuple[str, ...]
    local_side: Color
    black_name: str
    white_name: str
    main_s: float = 0.0
    byoyomi_s: float = 0.0
    increment_s: float = 0.0

    @property
    def remote_side(self) -> Color:
        """The side the remote opponent plays."""
        return self.local_side.opponent


class RemoteLink(Protocol):
    """What the runner needs of a remote game (all I/O is async; one event loop drives it)."""

    async def start(self) -> RemoteStart:
        """Connect, find or accept the game, and return it once play may begin."""
        ...

    async def send(self, usi: str) -> None:
        """Send the local side's move (its confirmation comes back as a `RemoteMove`)."""
        ...

    async def resign(self) -> None:
        """Resign for the local side."""
        ...

    async def declare(self) -> None:
        """Declare an entering-king win for the local side."""
        ...

    async def next_event(self) -> RemoteEvent:
        """The next thing that happened on the server."""
        ...

    def server_moves(self) -> tuple[str, ...]:
        """The moves the server has confirmed so far."""
        ...

    def clocks_s(self) -> tuple[float, float] | None:
        """Main time left for (black, white) by the server's count, None when it does not say."""
        ...

    async def offer_draw(self) -> None:
        """Offer (or accept) a draw; an error naming the server when it has no draw offers."""
        ...

    async def chat(self, text: str) -> None:
        """Write a line to the opponent; an error naming the server when it has no chat."""
        ...

    async def close(self) -> None:
        """Leave the server (best effort)."""
        ...


class CsaLink:
    """A game on a CSA server (shogi-server, Floodgate)."""

    def __init__(self, settings: CsaSettings) -> None:
        self.client = CsaClient(settings)
        self._side = Color.BLACK

    async def start(self) -> RemoteStart:
        """Log in, read the Game_Summary, AGREE, wait for START."""
        s = await self.client.start()
        self._side = s.my_side
        return RemoteStart(
            s.game_id, s.start_sfen, tuple(s.moves), s.my_side, s.black, s.white,
            main_s=float(s.times.total_s), byoyomi_s=float(s.times.byoyomi_s), increment_s=float(s.times.increment_s),
        )  # fmt: skip

    async def send(self, usi: str) -> None:
        """`+7776FU` and so on."""
        await self.client.play(usi)

    async def resign(self) -> None:
        """`%TORYO`."""
        await self.client.resign()

    async def declare(self) -> None:
        """`%KACHI`."""
        await self.client.declare()

    async def next_event(self) -> RemoteEvent:
        """A move echo, `Resynced` after a reconnection, or the end (`#RESIGN` + `#WIN` ... as a `RemoteEnd`)."""
        event = await self.client.next_event()
        if isinstance(event, GameEnd):
            return RemoteEnd(event.result(self._side))
        return event

    def server_moves(self) -> tuple[str, ...]:
        """The echoed moves."""
        return tuple(self.client.moves)

    def clocks_s(self) -> tuple[float, float] | None:
        """Total time minus the seconds the server charged each side."""
        if self.client.summary is None:
            return None
        return self.client.remaining_s(Color.BLACK), self.client.remaining_s(Color.WHITE)

    async def offer_draw(self) -> None:
        """The CSA protocol has no draw offers (a game is drawn only by the rules)."""
        raise CsaProtocolError("the CSA protocol has no draw offers")

    async def chat(self, text: str) -> None:
        """The CSA protocol has no chat."""
        raise CsaProtocolError("the CSA protocol has no chat")

    async def close(self) -> None:
        """LOGOUT."""
        await self.client.close()


@dataclass(frozen=True)
class LishogiFind:
    """How to get a lishogi game: exactly one of a game id, a user to challenge, or a seek (minutes, increment s).

    Attributes:
        game: join this ongoing game.
        challenge: challenge this user (`main_s`, `increment_s`, `byoyomi_s` give the clock).
        seek: post a real-time seek with that clock.
    """

    game: str | None = None
    challenge: str | None = None
    seek: bool = False
    main_s: int = 600
    increment_s: int = 0
    byoyomi_s: int = 0


class LishogiLink:
    """A game through the lishogi Board API."""

    def __init__(self, api: LishogiApi, find: LishogiFind, *, backoff_s: float = 1.0) -> None:
        self.api, self.find, self._backoff_s = api, find, backoff_s
        self.game: LishogiGame | None = None
        self._seek: asyncio.Task[None] | None = None

    async def start(self) -> RemoteStart:
        """Open the event stream, then challenge or seek when asked, and follow the game that starts."""
        events = self.api.events()
        wanted = self.find.game
        if self.find.challenge is not None:
            clock = {"clock.limit": self.find.main_s, "clock.increment": self.find.increment_s}
            if self.find.byoyomi_s:
                clock["clock.byoyomi"] = self.find.byoyomi_s
            answer = await self.api.challenge(self.find.challenge, clock)
            wanted = str((answer.get("challenge") or answer).get("id") or "") or None
        elif self.find.seek:
            stream = self.api.seek(self.find.main_s / 60, self.find.increment_s, self.find.byoyomi_s)
            self._seek = asyncio.create_task(_drain(stream))
        game_id, side = await _game_start(events, wanted)
        await _close_stream(events)
        game = LishogiGame(self.api, game_id, backoff_s=self._backoff_s)
        await game.start()
        self.game = game
        return _lishogi_start(game, side)

    async def send(self, usi: str) -> None:
        """POST the move."""
        await self._game().play(usi)

    async def resign(self) -> None:
        """POST resign."""
        await self._game().resign()

    async def declare(self) -> None:
        """The Board API has no declaration endpoint: lishogi judges impasse itself."""
        raise LishogiError("lishogi's Board API has no entering-king declaration; the server rules on impasse")

    async def offer_draw(self) -> None:
        """POST draw/yes (an offer, or the answer to the opponent's)."""
        await self._game().offer_draw(True)

    async def chat(self, text: str) -> None:
        """A line in the player chat."""
        await self._game().say(text)

    async def next_event(self) -> RemoteEvent:
        """The game stream's next event."""
        return await self._game().next_event()

    def server_moves(self) -> tuple[str, ...]:
        """The moves of the last game state."""
        return tuple(self._game().moves)

    def clocks_s(self) -> tuple[float, float] | None:
        """btime and wtime of the last game state."""
        clocks = self._game().clocks
        if clocks.sente_ms == 0 and clocks.gote_ms == 0:
            return None
        return clocks.sente_ms / 1000, clocks.gote_ms / 1000

    async def close(self) -> None:
        """Stop seeking (nothing else to close: every request is its own connection)."""
        if self._seek is not None:
            self._seek.cancel()
            with contextlib.suppress(asyncio.CancelledError, LishogiError):
                await self._seek
            self._seek = None

    def _game(self) -> LishogiGame:
        if self.game is None:
            raise LishogiError("no lishogi game has started")
        return self.game


async def _game_start(events: AsyncIterator[dict[str, Any]], wanted: str | None) -> tuple[str, Color]:
    """The first `gameStart` (of `wanted` when given): its id and the local side."""
    async for event in events:
        if event.get("type") != "gameStart":
            continue
        game = event.get("game") or {}
        game_id = str(game.get("gameId") or game.get("id") or "")
        if wanted is not None and game_id != wanted:
            continue
        side = Color.WHITE if str(game.get("color", "sente")) == "gote" else Color.BLACK
        return game_id, side
    raise LishogiError("the event stream ended before the game started")


async def _drain(stream: AsyncIterator[dict[str, Any]]) -> None:
    """Keep a seek open: read its stream (it carries nothing) until the server closes it."""
    try:
        async for _ in stream:
            pass
    finally:
        await _close_stream(stream)


async def _close_stream(stream: AsyncIterator[dict[str, Any]]) -> None:
    closer = getattr(stream, "aclose", None)
    if closer is not None:
        with contextlib.suppress(LishogiError, RuntimeError, asyncio.CancelledError):
            await closer()


def _lishogi_start(game: LishogiGame, side: Color) -> RemoteStart:
    clock = game.clock
    return RemoteStart(
        game.game_id, game.start_sfen, tuple(game.moves), side,
        game.names.get(Color.BLACK, "?"), game.names.get(Color.WHITE, "?"),
        main_s=clock.get("initial", 0) / 1000, byoyomi_s=clock.get("byoyomi", 0) / 1000,
        increment_s=clock.get("increment", 0) / 1000,
    )  # fmt: skip
