"""The state of a game between two events: phase, moves played, clock, and what the phase is waiting for.

Owns: `Phase` (the states of the machine), `GameState` (immutable) and the positions derived from it. The board is
never stored: it is replayed from the start position and the moves when needed, so a state is a plain value.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

import cshogi

from controller.game.clock import GameClock
from controller.game.commands import ExpectPosition
from controller.game.entries import ClockSnapshot
from controller.game.settings import GameSettings, MoveSource
from controller.rules.game import replay
from controller.rules.positions import board_from_sfen
from controller.rules.types import Color, GameRecord, GameResult, RecordedMove


class Phase(enum.StrEnum):
    """The states of the game."""

    SETUP_CHECK = "setup_check"
    """The board must match the starting (or resumed) position before play starts."""
    WAIT_HUMAN = "wait_human"
    """A human's move: the reconciler's results arrive as events."""
    ENGINE_THINKING = "engine_thinking"
    """The opponent (engine or remote) is choosing its move."""
    ROBOT_MOVING = "robot_moving"
    """The gantry plays the opponent's move; then the camera must confirm the new position."""
    ASSIST_WAIT = "assist_wait"
    """No gantry (or it failed twice): the human plays the opponent's move; the camera checks it."""
    PROMPT = "prompt"
    """Waiting for an answer (ambiguous read, promotion, takeback in play mode)."""
    MISMATCH = "mismatch"
    """The board is wrong: waiting until it is set right."""
    GAME_OVER = "game_over"
    """The game has ended."""
    RESET = "reset"
    """A new game: waiting for the board to show the starting position."""


class PromptKind(enum.StrEnum):
    """What an open prompt decides."""

    MOVE = "move"
    """Which of several candidate readings was played."""
    PROMOTION = "promotion"
    """Whether a move promoted."""
    TAKEBACK = "takeback"
    """Whether to accept a takeback (play mode)."""


@dataclass(frozen=True)
class PromptContext:
    """An open question.

    Attributes:
        kind: what it decides.
        options: the answers offered, in order (YES picks the first, NO the second).
        moves: for MOVE and PROMOTION, the move sequence each option stands for.
        plies: for TAKEBACK, how many moves go back.
        seen_at: when the board showed what prompted the question (the mover's time stops there).
        back_to: the phase the game was in (None: start the side to move's turn again).
    """

    kind: PromptKind
    options: tuple[str, ...]
    moves: tuple[tuple[str, ...], ...] = ()
    plies: int = 0
    seen_at: float = 0.0
    back_to: Phase | None = Phase.WAIT_HUMAN


@dataclass(frozen=True)
class PlayedMove:
    """A committed move with its time and who made it."""

    usi: str
    spent_s: float | None
    source: MoveSource


@dataclass(frozen=True)
class GameState:
    """Everything the step function knows.

    Attributes:
        settings: the game's settings.
        clock: both sides' time.
        phase: the current state.
        moves: the committed moves.
        fresh: play has not started yet in this game (the journal is created when it does).
        pending: the opponent's move being executed or awaited on the board.
        retried: the pending transfer has been retried once already.
        transfer_done: the gantry reported the pending transfer finished.
        prompt: the open question (PROMPT).
        resume: where MISMATCH returns when the board is right again; None: start the side to move's turn.
        messages: the last mismatch messages announced (not repeated while unchanged).
        move_time_at: when the mover's move was known to be made (clock press, ambiguous read): its time stops.
        result: how the game ended (GAME_OVER).
    """

    settings: GameSettings
    clock: GameClock
    phase: Phase = Phase.SETUP_CHECK
    moves: tuple[PlayedMove, ...] = ()
    fresh: bool = True
    pending: str | None = None
    retried: bool = False
    transfer_done: bool = False
    prompt: PromptContext | None = None
    resume: Phase | None = None
    messages: tuple[str, ...] = ()
    move_time_at: float | None = None
    result: GameResult | None = None

    @property
    def usi_moves(self) -> tuple[str, ...]:
        """The committed moves as USI."""
        return tuple(m.usi for m in self.moves)

    def board(self, plies: int | None = None) -> cshogi.Board:
        """A fresh board after the first `plies` moves (all when None)."""
        moves = self.usi_moves if plies is None else self.usi_moves[:plies]
        return replay(board_from_sfen(self.settings.start_sfen), moves)

    def sfen(self, plies: int | None = None) -> str:
        """The position after the first `plies` moves (all when None)."""
        text: str = self.board(plies).sfen()
        return text

    @property
    def side_to_move(self) -> Color:
        """Whose turn it is in the game (the pending opponent move counted as played)."""
        first = Color(self.settings.start_sfen.split()[1])
        return first if len(self.moves) % 2 == 0 else first.opponent

    def mover(self, index: int) -> Color:
        """Who played the move at `index` (0-based) of this game."""
        first = Color(self.settings.start_sfen.split()[1])
        return first if index % 2 == 0 else first.opponent

    def expect_position(self, plies: int | None = None) -> ExpectPosition:
        """The command syncing the reconciler to the game after the first `plies` moves (all when None)."""
        moves = self.usi_moves if plies is None else self.usi_moves[:plies]
        return ExpectPosition(self.settings.start_sfen, moves)

    def snapshot(self) -> ClockSnapshot:
        """Both sides' time between moves, for the journal."""
        return ClockSnapshot(self.clock.black, self.clock.white)

    def record(self) -> GameRecord:
        """The game as a record (no headers; see `controller.game.headers`)."""
        moves = [RecordedMove(m.usi, m.spent_s) for m in self.moves]
        return GameRecord(self.settings.start_sfen, moves, {}, self.result)
