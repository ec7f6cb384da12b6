"""What a remote opponent reports to the game: confirmed moves, resynchronisation, takebacks, chat and the end."""

from __future__ import annotations

from dataclasses import dataclass

from controller.rules.types import Color, GameResult


@dataclass(frozen=True)
class RemoteMove:
    """A move confirmed by the server: by whom, in USI, and the seconds the server charged (when it says)."""

    side: Color
    usi: str
    seconds: float | None = None


@dataclass(frozen=True)
class Resynced:
    """The connection was lost and re-established; the game continues from these moves (the server's list).

    A move sent just before the loss may not have reached the server: if it is this side's turn, send it again.
    """

    moves: tuple[str, ...]


@dataclass(frozen=True)
class TakenBack:
    """The server took moves back (both players agreed); the game continues from `moves`."""

    moves: tuple[str, ...]


@dataclass(frozen=True)
class ChatLine:
    """A chat message from the server."""

    user: str
    text: str


@dataclass(frozen=True)
class RemoteEnd:
    """The game is over on the server."""

    result: GameResult
