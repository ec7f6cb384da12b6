"""The commands the game's state machine emits (frozen dataclasses), for the shell to carry out in order.

Owns: the vocabulary of what the game asks the world to do. The shell executes a step's commands in the order
given; `SaveJournal` always comes before any command that acts on the entry it saves, and the shell must not go
on until the journal has been fsynced.
"""

from __future__ import annotations

from dataclasses import dataclass

from controller.game.clock import GoArgs
from controller.game.entries import JournalEvent
from controller.game.settings import GameSettings
from controller.rules.game import replay
from controller.rules.positions import STARTPOS_SFEN, board_from_sfen
from controller.rules.types import Color, GameResult


@dataclass(frozen=True)
class AskEngine:
    """Ask the opponent (engine, or remote player) for its move in this position.

    Attributes:
        start_sfen: the game's starting position.
        moves: the moves played since (USI).
        go: the clock arguments for `go`, None when untimed (the engine's own limits apply).
    """

    start_sfen: str
    moves: tuple[str, ...]
    go: GoArgs | None

    @property
    def position(self) -> str:
        """The USI `position ...` command."""
        start = "startpos" if self.start_sfen == STARTPOS_SFEN else f"sfen {self.start_sfen}"
        return f"position {start} moves {' '.join(self.moves)}" if self.moves else f"position {start}"


@dataclass(frozen=True)
class StopEngine:
    """Abandon the opponent's search (a takeback, a resignation or the end of the game); ignore its answer."""


@dataclass(frozen=True)
class ExecuteMove:
    """Have the gantry play `usi` in the position `sfen_before`; the result comes back as `TransferDone` or
    `TransferFailed`.

    Attributes:
        usi: the move.
        sfen_before: the position it is played in (what the planner plans from).
        attempt: 1, or 2 for the one retry after a `TransferFailed` (the board may hold a half-made move: the
            shell continues the plan from the interrupted transfer rather than planning again).
    """

    usi: str
    sfen_before: str
    attempt: int = 1


@dataclass(frozen=True)
class Announce:
    """Tell the players (screen, and speech where available)."""

    text: str


@dataclass(frozen=True)
class Prompt:
    """Ask the players a question; the answer comes back as `PromptAnswered` (or YES/NO buttons)."""

    question: str
    options: tuple[str, ...]


@dataclass(frozen=True)
class StartClock:
    """`side`'s clock now runs (for the clock display and lamps)."""

    side: Color


@dataclass(frozen=True)
class StopClock:
    """No clock runs."""


@dataclass(frozen=True)
class StartJournal:
    """A new game begins: create its journal (header with these settings) before the next commands."""

    settings: GameSettings


@dataclass(frozen=True)
class SaveJournal:
    """Append `entry` to the journal and fsync it before carrying out the following commands."""

    entry: JournalEvent


@dataclass(frozen=True)
class EndGame:
    """The game is over: save the records, tell the engine `gameover`."""

    result: GameResult


@dataclass(frozen=True)
class ExpectPosition:
    """The board should show the game after `moves`: the reconciler's game must be exactly this one.

    Shell: `Reconciler.set_position(start_sfen, moves)` (sent at setup, on resume, after a takeback, after an
    answered prompt, and whenever the game refused a move the reconciler had committed).
    """

    start_sfen: str
    moves: tuple[str, ...] = ()

    @property
    def sfen(self) -> str:
        """The position the board should show."""
        text: str = replay(board_from_sfen(self.start_sfen), self.moves).sfen()
        return text


@dataclass(frozen=True)
class ExpectMove:
    """The board should come to show the opponent's move `usi` (played by the gantry or by the human).

    Shell: `Reconciler.expect(usi)`; the move then arrives as `BoardMoveSeen((usi, ...))`.
    """

    usi: str


@dataclass(frozen=True)
class ReadBoard:
    """The player says the move is made: the reconciler should decide now rather than wait for more frames."""


Command = (
    AskEngine
    | StopEngine
    | ExecuteMove
    | Announce
    | Prompt
    | StartClock
    | StopClock
    | StartJournal
    | SaveJournal
    | EndGame
    | ExpectPosition
    | ExpectMove
    | ReadBoard
)
