"""A simulated person making moves on the virtual board the way people do, as a timed sequence of world states.

Owns: `HumanSettings` (timing and sloppiness, validated), `Step` (one timed change of the world), `Timeline`
(applies the steps that are due as simulated time passes) and `SimulatedHuman`, which plans a move as steps: an
arm reaching in over the board from the mover's side, the piece lifted and carried, a capture taken to the
mover's stand (turned to the mover and face down), a drop taken off the stand, a promotion turned face over (in
the hand, or where it lies once set down), the piece set down a little off centre and turned a few degrees, the
arm leaving. It does what it is told physically, legal or not (an illegal move is planned like any other), and
can knock a piece over.
Everything random comes from the seed.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from controller.reconcile.labels import square_index
from controller.sim.errors import SimError
from controller.sim.places import OnSquare
from controller.sim.world import VirtualBoard
from hardware.geometry import Side
from vision.render import GRID_H_MM, GRID_W_MM, STAND_REGIONS_MM, Arm

Point = tuple[float, float]


@dataclass(frozen=True)
class HumanSettings:
    """How the simulated person moves.

    Attributes:
        step_s: time between two hand positions (about one camera frame).
        reach_steps: hand positions on the way in, between two places, and on the way out.
        pause_s: (low, high) still time after a move before the next one starts (uniform).
        pair_rate: chance that the next move follows at once, with no still moment between (two quick moves).
        capture_first: chance that a capture takes the captured piece off before moving the capturing one.
        spread: standard deviation of the set-down offset, in fractions of a square.
        promote_after: chance that a promotion is made by setting the piece down face up first and then turning
            it over where it lies (the player decides once the piece has arrived).
        height_mm: (low, high) height of the hand over the board.
    """

    step_s: float = 0.1
    reach_steps: int = 2
    pause_s: tuple[float, float] = (0.8, 1.6)
    pair_rate: float = 0.05
    capture_first: float = 0.5
    spread: float = 0.05
    promote_after: float = 0.3
    height_mm: tuple[float, float] = (50.0, 110.0)

    def __post_init__(self) -> None:
        if self.step_s <= 0 or self.reach_steps < 1:
            raise SimError("human: step_s must be positive and reach_steps at least 1")
        if not 0 <= self.pause_s[0] <= self.pause_s[1] or not 0 <= self.height_mm[0] <= self.height_mm[1]:
            raise SimError("human: pause_s and height_mm must be (low, high) ranges with 0 <= low <= high")
        rates = (self.pair_rate, self.capture_first, self.promote_after)
        if not (all(0.0 <= rate <= 1.0 for rate in rates) and 0.0 <= self.spread <= 0.2):
            raise SimError("human: pair_rate, capture_first and promote_after in 0..1, spread in 0..0.2")


@dataclass(frozen=True)
class Step:
    """A change of the world at `at_s` seconds of simulated time."""

    at_s: float
    action: Callable[[VirtualBoard], object]
    note: str = ""


@dataclass
class Timeline:
    """Steps waiting to happen, in time order."""

    steps: list[Step] = field(default_factory=list)

    def extend(self, steps: list[Step]) -> None:
        """Add planned steps (kept in time order)."""
        self.steps = sorted([*self.steps, *steps], key=lambda s: s.at_s)

    def advance(self, board: VirtualBoard, now: float) -> int:
        """Apply every step due by `now`; returns how many were applied."""
        due = [s for s in self.steps if s.at_s <= now]
        self.steps = self.steps[len(due) :]
        for step in due:
            step.action(board)
        return len(due)

    @property
    def end_s(self) -> float | None:
        """Time of the last pending step (None when nothing is pending)."""
        return self.steps[-1].at_s if self.steps else None


class SimulatedHuman:
    """Plans a person's physical moves on a VirtualBoard (seeded)."""

    def __init__(self, board: VirtualBoard, settings: HumanSettings | None = None, seed: int = 0) -> None:
        self.board = board
        self.settings = settings or HumanSettings()
        self._rng = np.random.default_rng([abs(int(seed)), 0x4E4D])

    def pause(self) -> float:
        """Still time before the next move: 0 for a quick follow-up (two moves between stable frames)."""
        s = self.settings
        if self._rng.random() < s.pair_rate:
            return 0.0
        return float(self._rng.uniform(*s.pause_s))

    def plan_move(self, usi: str, mover: Side, start_s: float) -> list[Step]:
        """The steps of a move in USI (`7g7f`, `8h2b+`, `P*5e`), whatever the rules say of it.

        Raises:
            SimError: the move is physically impossible (no piece to move or drop, own piece on the target).
        """
        path = _Path(self, mover, start_s)
        if usi[1] == "*":
            self._plan_drop(path, usi[0], square_index(usi[2:4]))
        else:
            self._plan_board_move(path, square_index(usi[0:2]), square_index(usi[2:4]), usi.endswith("+"))
        path.leave()
        return path.steps

    def _plan_board_move(self, path: _Path, src: int, dst: int, promote: bool) -> None:
        board = self.board
        pid = board.piece_at(src)
        if pid is None:
            raise SimError(f"no piece on square index {src} to move")
        captured = board.piece_at(dst)
        if captured is not None and captured == pid:
            raise SimError("a move must go somewhere else")
        first = captured is not None and self._rng.random() < self.settings.capture_first
        if captured is not None and first:
            path.go(_centre(board, dst))
            path.act(lambda b, at: b.lift(captured, at), "lift the captured piece")
            path.go(_stand_centre(path.mover))
            path.act(lambda b, _: b.to_stand(captured, path.mover), "captured piece to the stand")
        path.go(_centre(board, src))
        path.act(lambda b, at: b.lift(pid, at), "lift")
        path.go(_centre(board, dst))
        if captured is not None and not first:
            path.act(lambda b, at: b.lift(captured, at), "lift the captured piece")
        spread = self.settings.spread
        later = promote and self._rng.random() < self.settings.promote_after
        path.act(lambda b, _: b.set_down(pid, dst, flip=promote and not later, spread=spread), "set down")
        if later:
            path.go(_centre(board, dst))
            path.act(lambda b, _: b.turn_over(dst), "turn it over: promoted")
        if captured is not None and not first:
            path.go(_stand_centre(path.mover))
            path.act(lambda b, _: b.to_stand(captured, path.mover), "captured piece to the stand")

    def _plan_drop(self, path: _Path, kind: str, dst: int) -> None:
        pid = self.board.from_stand(path.mover, kind.upper())
        if self.board.piece_at(dst) is not None:
            raise SimError(f"cannot drop on occupied square index {dst}")
        path.go(_stand_centre(path.mover))
        path.act(lambda b, at: b.lift(pid, at), "take from the stand")
        path.go(_centre(self.board, dst))
        spread = self.settings.spread
        path.act(lambda b, _: b.set_down(pid, dst, spread=spread), "set down")

    def plan_knock(self, square: int, mover: Side, start_s: float) -> list[Step]:
        """The steps of a clumsy hand knocking the piece on `square` half off it."""
        path = _Path(self, mover, start_s)
        path.go(_centre(self.board, square))
        path.act(lambda b, _: b.knock(square), "knock over")
        path.leave()
        return path.steps


class _Path:
    """Builds the steps of one visit of the hand: where the fingertips are, step by step."""

    def __init__(self, human: SimulatedHuman, mover: Side, start_s: float) -> None:
        self.human, self.mover, self.t = human, mover, start_s
        rng, s = human._rng, human.settings
        self._rng = rng
        self.from_deg = (0.0 if mover is Side.BLACK else 180.0) + float(rng.normal(0.0, 15.0))
        self.height = float(rng.uniform(*s.height_mm))
        self.width = float(rng.uniform(75.0, 95.0))
        self.steps: list[Step] = []
        self.tip = self._outside(_centre(human.board, 40))

    def _outside(self, near: Point) -> Point:
        a = math.radians(self.from_deg)
        reach = max(GRID_W_MM, GRID_H_MM)
        return (near[0] + reach * math.sin(a), near[1] + reach * math.cos(a))

    def go(self, target: Point) -> None:
        """Move the hand to `target` in `reach_steps` positions (a few mm of tremor each)."""
        start, n = self.tip, self.human.settings.reach_steps
        for i in range(1, n + 1):
            f = i / n
            jitter = self._rng.normal(0.0, 2.0, 2)
            point = (
                start[0] + f * (target[0] - start[0]) + jitter[0],
                start[1] + f * (target[1] - start[1]) + jitter[1],
            )
            self._at(point)
        self.tip = target

    def act(self, action: Callable[[VirtualBoard, Point], object], note: str) -> None:
        """Do something with the fingers where they are now (seen in the next frame, as the hand moves on)."""
        tip = self.tip
        self.steps.append(Step(self.t, lambda board: action(board, tip), note))

    def leave(self) -> None:
        """Withdraw the arm out of the picture."""
        self.go(self._outside(self.tip))
        self.steps.append(Step(self.t, lambda b: setattr(b, "arm", None), "arm gone"))

    def _at(self, point: Point) -> None:
        arm = Arm(point, self.from_deg, self.height, self.width)

        def show(board: VirtualBoard) -> None:
            board.arm = arm
            board.carry(point)

        self.steps.append(Step(self.t, show, ""))
        self.tip = point
        self.t += self.human.settings.step_s


def _centre(board: VirtualBoard, square: int) -> Point:
    return board.frames.render_of_spot(OnSquare(square))


def _stand_centre(side: Side) -> Point:
    region = STAND_REGIONS_MM[side.value]
    return (float(region[:, 0].mean()), float(region[:, 1].mean()))
