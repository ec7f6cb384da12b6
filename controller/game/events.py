"""The events the game's state machine reacts to (frozen dataclasses), from the board, the opponent, the gantry,
the buttons and the web page.

Owns: the vocabulary of what can happen to a game. The reconciler's results (`controller.reconcile.types`) map
one to one: `MoveCommitted` -> `BoardMoveSeen`, `Takeback` -> `TakebackSeen` (its `then` moves are not needed:
once the game has taken back, `ExpectPosition` resets the reconciler, which then commits them itself),
`Ambiguous` -> `AmbiguousSeen` (candidates without a takeback), `Mismatch` -> `MismatchSeen`, `NoChange` ->
`BoardConfirmed`; `Waiting` is not an event. The engine's and the remote player's answers arrive as
`EngineMoved` and `RemoteMoved` (a remote server also sends `ServerClocks` and `RemoteEnded`); the executor's
as `TransferDone` and `TransferFailed`.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from controller.game.settings import GameSettings
from controller.rules.types import Color, GameResult


class Button(enum.StrEnum):
    """Physical or on-screen buttons."""

    CLOCK = "clock"
    """The chess-clock button of the side that has just moved."""
    MOVE_DONE = "move_done"
    """"I have made my move": asks the reader to commit now."""
    YES = "yes"
    """First answer of a two-way prompt."""
    NO = "no"
    """Second answer of a two-way prompt."""


@dataclass(frozen=True)
class BoardMoveSeen:
    """The reconciler committed one move, or two (a fast player or a missed frame), in order (USI).

    The reconciler's game already includes them; when the game refuses them it sends `ExpectPosition` back.
    The opponent's move, expected with `ExpectMove`, arrives this way too: that is its confirmation.
    """

    moves: tuple[str, ...]


@dataclass(frozen=True)
class TakebackSeen:
    """The board returned to the position `plies` moves ago."""

    plies: int


@dataclass(frozen=True)
class AmbiguousSeen:
    """Two or more candidate readings are too close to decide; each candidate is a sequence of USI moves."""

    candidates: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class MismatchSeen:
    """The board matches nothing legal; `messages` say what is wrong in a player's words."""

    messages: tuple[str, ...]


@dataclass(frozen=True)
class BoardConfirmed:
    """The board shows the reconciler's current game (its `NoChange`): the position of the last `ExpectPosition`
    plus the moves committed since. While an opponent's move is expected, this only says it is not made yet."""


@dataclass(frozen=True)
class EngineMoved:
    """The engine's answer: a USI move, `resign` or `win` (an entering-king declaration)."""

    usi: str


@dataclass(frozen=True)
class RemoteMoved:
    """A remote opponent's answer: a USI move, `resign` or `win`."""

    usi: str


@dataclass(frozen=True)
class RemoteEnded:
    """The remote opponent's server ended the game (its verdict is final: time-up, resignation, mate...)."""

    result: GameResult


@dataclass(frozen=True)
class ServerClocks:
    """The remote server's clocks after a move: main time left per side, in seconds (the server's are final)."""

    black_s: float
    white_s: float


@dataclass(frozen=True)
class TransferDone:
    """The gantry finished executing the move."""


@dataclass(frozen=True)
class TransferFailed:
    """The gantry could not execute the move."""

    detail: str


@dataclass(frozen=True)
class ButtonPressed:
    """A button was pressed (`side`: whose button, when buttons are per side)."""

    button: Button
    side: Color | None = None


@dataclass(frozen=True)
class PromptAnswered:
    """An answer to the open prompt: one of its options."""

    answer: str


@dataclass(frozen=True)
class Tick:
    """Time passes (drives time-outs; sent a few times a second)."""


@dataclass(frozen=True)
class Resign:
    """`side` resigns."""

    side: Color


@dataclass(frozen=True)
class Declare:
    """`side` declares an entering-king win (judged under the game's impasse rule)."""

    side: Color


@dataclass(frozen=True)
class TakebackAsked:
    """A player asked (on the web page) to take back their last move: `side` is the asking player's side."""

    side: Color


@dataclass(frozen=True)
class NewGame:
    """Leave this game and set up the next one (with these settings; None: the same as this game's)."""

    settings: GameSettings | None = None


@dataclass(frozen=True)
class Abort:
    """Stop the game without a result."""

    reason: str = ""


Event = (
    BoardMoveSeen
    | TakebackSeen
    | AmbiguousSeen
    | MismatchSeen
    | BoardConfirmed
    | EngineMoved
    | RemoteMoved
    | RemoteEnded
    | ServerClocks
    | TransferDone
    | TransferFailed
    | ButtonPressed
    | PromptAnswered
    | Tick
    | Resign
    | Declare
    | TakebackAsked
    | NewGame
    | Abort
)
