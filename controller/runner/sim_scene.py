"""The people of the simulated game: a simulated human who plays on the virtual board when it is a human's turn,
makes the engine's moves in assist mode, turns pieces over when the gantry asks, and answers prompts.

Owns: `SimScene` (a `controller.runner.shell.Scene`): the timeline of the simulated human's hand (advanced by the
injected clock as frames are taken), where the human's moves come from (`MoveSource`: a second engine, or a
record's moves), and the record of what the human really did, so a run can be checked against the truth. The
simulated human waits until the board shows the game's position and the gantry is still before starting a move.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from controller.engines.position import EnginePosition
from controller.engines.protocol import GoLimits
from controller.engines.search import SearchResult
from controller.game.commands import Prompt
from controller.game.events import Abort, Event, PromptAnswered
from controller.game.state import GameState, Phase
from controller.planning.model import HumanTask, SlotLoc, SquareLoc, Transfer
from controller.reconcile.labels import SQUARE_LABELS, board_labels, square_index
from controller.rules.positions import board_from_sfen
from controller.rules.types import Color
from controller.sim import OnSquare, OnStand, SimError, SimulatedHuman, Timeline, VirtualBoard
from hardware.geometry import Side


class MoveSource(Protocol):
    """Where the simulated human's moves come from."""

    def choose(self, start_sfen: str, moves: tuple[str, ...]) -> str | None:
        """The human's move in the game so far (None: it has nothing to play)."""
        ...


class Searcher(Protocol):
    """`controller.engines.SyncEngine`, as far as choosing a move needs it."""

    def play(self, position: EnginePosition, limits: GoLimits | None = None) -> SearchResult:
        """Search."""
        ...


@dataclass
class EngineHuman:
    """The simulated human's moves from a second engine instance (fixed time per move)."""

    engine: Searcher
    limits: GoLimits

    def choose(self, start_sfen: str, moves: tuple[str, ...]) -> str | None:
        """The engine's move; None when it resigns or declares (the simulated human then stops playing)."""
        return self.engine.play(EnginePosition(start_sfen, moves), self.limits).move


@dataclass
class RecordHuman:
    """The simulated human plays a record's moves, as long as the game follows the record."""

    moves: Sequence[str]

    def choose(self, start_sfen: str, moves: tuple[str, ...]) -> str | None:
        """The record's next move, or None when the game left the record or the record is over."""
        if tuple(self.moves[: len(moves)]) != moves or len(moves) >= len(self.moves):
            return None
        return self.moves[len(moves)]


@dataclass
class SimScene:
    """The simulated people at the virtual board.

    Attributes:
        board: the virtual board (physical truth).
        human: the simulated human's hands.
        source: where its moves come from.
        human_sides: the sides it plays (the human's in play mode, both in record mode).
        post: queues an event for the game loop (prompt answers, an abort when the source has no move).
        robot_busy: True while the gantry is moving (nobody reaches over a moving arm).
        played: every move the simulated human made, in order (its own and, in assist mode, the engine's).
    """

    board: VirtualBoard
    human: SimulatedHuman
    source: MoveSource
    human_sides: tuple[Color, ...]
    post: Callable[[Event], None]
    robot_busy: Callable[[], bool] = lambda: False
    timeline: Timeline = field(default_factory=Timeline)
    played: list[str] = field(default_factory=list)
    _planned_for: tuple[int, Phase] | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def act(self, state: GameState, now: float) -> None:
        """Advance the hand; start the next move when it is the human's turn and the board is ready."""
        with self._lock:
            self.timeline.advance(self.board, now)
            if self.timeline.steps or self.robot_busy() or self._planned_for == (len(state.moves), state.phase):
                return
            if state.phase is Phase.WAIT_HUMAN and state.side_to_move in self.human_sides:
                self._own_move(state, now)
            elif state.phase is Phase.ASSIST_WAIT and state.pending is not None:
                self._start(state.sfen(len(state.moves) - 1), state.pending, state, now)

    @property
    def moving(self) -> bool:
        """True while the simulated human's hand has steps to do."""
        return bool(self.timeline.steps)

    def _own_move(self, state: GameState, now: float) -> None:
        sfen = state.sfen()
        if not self._board_shows(sfen):
            return
        usi = self.source.choose(state.settings.start_sfen, state.usi_moves)
        if usi is None:
            self._planned_for = (len(state.moves), state.phase)
            self.post(Abort(f"the simulated human has no move to play after {len(state.moves)} moves"))
            return
        self._start(sfen, usi, state, now)

    def _start(self, sfen: str, usi: str, state: GameState, now: float) -> None:
        if not self._board_shows(sfen):
            return
        mover = Side.BLACK if board_from_sfen(sfen).turn == 0 else Side.WHITE
        self.timeline.extend(self.human.plan_move(usi, mover, now + self.human.pause()))
        self.played.append(usi)
        self._planned_for = (len(state.moves), state.phase)

    def _board_shows(self, sfen: str) -> bool:
        """True when the board's resting pieces are the position's (nothing in a hand or the gripper)."""
        labels, _hands = self.board.ground_truth()
        expected = board_labels(board_from_sfen(sfen))
        return tuple(SQUARE_LABELS[i] for i in expected) == labels

    def answer(self, prompt: Prompt, state: GameState) -> None:
        """Answer a prompt as the person who made the move would: the option of the move really played, or that
        move itself when no option is it (the move question's way out)."""
        options = prompt.options
        chosen = options[0]
        if state.prompt is not None and state.prompt.moves and self.played:
            chosen = self.played[-1]
            for option, moves in zip(state.prompt.options, state.prompt.moves, strict=False):
                if moves and moves[0] == self.played[-1]:
                    chosen = option
        self.post(PromptAnswered(chosen))

    def fix_piece(self, transfer: Transfer) -> None:
        """What the gantry asks of a person (`HUMAN_ACTION`): turn a promoted piece over on its square, or turn a
        captured piece on the robot's stand to face its new owner before it is dropped.

        Raises:
            SimError: a task the simulated person cannot do (the gantry then reports the move failed).
        """
        with self._lock:
            if isinstance(transfer.src, SquareLoc) and transfer.task is HumanTask.TURN_OVER:
                square = square_index(transfer.src.square)
                pid = self.board.piece_at(square)
                if pid is None:
                    raise SimError(f"no piece on {transfer.src} to turn over")
                self.board.lift(pid, self.board.frames.render_of_spot(OnSquare(square)))
                self.board.set_down(pid, square, flip=True)
            elif isinstance(transfer.src, SlotLoc):
                self._restand(transfer.src)
            else:
                raise SimError(f"the simulated person cannot {transfer.describe()}")

    def _restand(self, slot: SlotLoc) -> None:
        """Lift the piece off its slot and set it back facing the stand's owner, face down (`to_stand`)."""
        pid = self.board.stand_slots(slot.side, slot.kind).get(slot.index)
        if pid is None:
            raise SimError(f"no piece at {slot} to turn")
        self.board.lift(pid, self.board.frames.render_of_spot(OnStand(slot.side, slot.kind, slot.index)))
        self.board.to_stand(pid, slot.side)
        if self.board.stand_slots(slot.side, slot.kind).get(slot.index) != pid:
            raise SimError(f"the turned piece did not go back to {slot}")
