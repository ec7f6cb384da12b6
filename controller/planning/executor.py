"""Carry out transfers on a gantry, tracking where every piece is believed to be; stop precisely on a fault.

Owns: Executor (transfer -> head steps on a `controller.ports.Gantry`, the belief `PhysicalState` updated as
each transfer completes), what happens on a firmware fault (stop at once; release the gripper only where dropping
the piece is safe, i.e. low over its source or destination; otherwise keep holding), and the Interruption that
says which transfer stopped, in which phase, and where the piece is believed to be. Nothing is retried here;
`controller.planning.recovery` decides what may be resumed.

Faults are recognised by type (`fault_types`, injected by the composition root: the firmware bridge's base
error); the head snapshot a fault carries is read structurally (`snapshot.gripper_on`, positions).
"""

from __future__ import annotations

import enum
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from controller.planning.errors import PlanningError
from controller.planning.model import Location, Piece, Transfer, TransferKind
from controller.planning.motion import Phase, Step, StepKind, location_xy, steps_for
from controller.planning.state import PhysicalState
from controller.ports import Gantry
from hardware.geometry import BoardGeometry


class HeadRotator(Protocol):
    """Turns the held piece 180 degrees in yaw (a rotary axis or a yaw servo)."""

    def half_turn(self) -> None:
        """Turn by 180 degrees and return when done."""
        ...


AskHuman = Callable[[Transfer], None]
"""Shows a HUMAN_ACTION and returns once it is confirmed (camera or button); raises to abort."""


class PieceFate(enum.StrEnum):
    """Where the piece of an interrupted transfer is believed to be."""

    AT_SOURCE = "at its source"
    AT_DESTINATION = "at its destination"
    IN_GRIPPER = "held by the gripper"
    DROPPED = "dropped by the controller where the head was"
    UNCERTAIN = "held or dropped (gripper state unknown)"


@dataclass(frozen=True)
class Interruption:
    """A transfer stopped by a fault.

    Attributes:
        index: position of the transfer in the list that was run.
        transfer: the transfer.
        phase: the phase it stopped in.
        fault: the fault's type name and message.
        fate: where the piece is believed to be.
        piece: the piece concerned.
        head_xyz: the last head position the firmware reported, if any.
        released: True when the executor released the gripper (safely, low over source or destination).
    """

    index: int
    transfer: Transfer
    phase: Phase
    fault: str
    fate: PieceFate
    piece: Piece
    head_xyz: tuple[float, float, float] | None
    released: bool

    @property
    def piece_known(self) -> bool:
        """True when the piece is on a known square, slot or station (no one needs to look)."""
        return self.fate in (PieceFate.AT_SOURCE, PieceFate.AT_DESTINATION)

    def describe(self) -> str:
        """What happened and what to check, in one paragraph."""
        where = {
            PieceFate.AT_SOURCE: f"on {self.transfer.src}",
            PieceFate.AT_DESTINATION: f"on {self.transfer.dst}",
        }.get(
            self.fate,
            f"somewhere between {self.transfer.src} and {self.transfer.dst} "
            f"(head last reported at {_fmt(self.head_xyz)})",
        )
        text = (
            f"transfer {self.index + 1} ({self.transfer.describe()}) stopped in phase {self.phase.value} by "
            f"{self.fault}; piece {self.piece.label} is {self.fate.value}, {where}"
        )
        if self.released:
            text += " (gripper released there)"
        elif self.piece_known and self.phase in (Phase.GRIP, Phase.RELEASE, Phase.LIFT, Phase.DESCEND_DESTINATION):
            text += " (under the head; the gripper may still be on: release it before the head moves)"
        if not self.piece_known:
            text += f". CHECK piece {self.piece.label}: put it back on {self.transfer.src} before resuming"
        return text


@dataclass(frozen=True)
class ExecutionReport:
    """The outcome of `Executor.run`: how many transfers completed, and the interruption if one stopped it."""

    completed: int
    interruption: Interruption | None

    @property
    def ok(self) -> bool:
        """True when every transfer completed."""
        return self.interruption is None


class Executor:
    """Runs transfers on a gantry; `state` is the belief of where every piece is."""

    def __init__(
        self,
        gantry: Gantry,
        geometry: BoardGeometry,
        state: PhysicalState,
        *,
        ask_human: AskHuman,
        fault_types: tuple[type[BaseException], ...],
        rotator: HeadRotator | None = None,
        on_transfer: Callable[[int, Transfer], None] | None = None,
        tolerance_mm: float = 3.0,
    ) -> None:
        self.gantry, self.geometry, self.state = gantry, geometry, state
        self._ask_human, self._faults, self._rotator = ask_human, fault_types, rotator
        self._on_transfer = on_transfer or (lambda _i, _t: None)
        self._tolerance = tolerance_mm
        self._moving = False

    def run(self, transfers: Sequence[Transfer], start: int = 0) -> ExecutionReport:
        """Carry out `transfers[start:]` in order; stop at the first fault and report it."""
        plans = [steps_for(t, self.geometry) for t in transfers]  # OutOfRangeError before anything moves
        if self._rotator is None and any(t.half_turn for t in transfers):
            raise PlanningError("the plan turns pieces with a rotation axis, but no rotator is connected")
        for index in range(start, len(transfers)):
            self._on_transfer(index, transfers[index])
            interruption = self._run_one(index, transfers[index], plans[index])
            if interruption is not None:
                return ExecutionReport(index - start, interruption)
        return ExecutionReport(len(transfers) - start, None)

    def _run_one(self, index: int, transfer: Transfer, steps: list[Step]) -> Interruption | None:
        if transfer.kind is TransferKind.HUMAN_ACTION:
            self._ask_human(transfer)
            self.state.apply(transfer)
            return None
        piece = self.state.at(transfer.src)
        if piece is None:
            raise PlanningError(f"{transfer.describe()}: the executor believes {transfer.src} is empty")
        phase = Phase.APPROACH
        try:
            for i, step in enumerate(steps):
                phase = step.phase
                self._do(step, settle=i + 1 == len(steps) or steps[i + 1].kind is not StepKind.MOVE)
        except self._faults as exc:
            return self._on_fault(index, transfer, phase, piece, exc)
        self.state.apply(transfer)
        return None

    def finish_held(self, interruption: Interruption) -> Interruption | None:
        """Carry a piece still in the gripper on to its destination, from the head's last known position.

        Only for IN_GRIPPER with a known head position and a firmware that answers again (the caller checked);
        returns `interruption` itself when the firmware does not answer (nothing was sent), or a new Interruption
        when carrying on failed.
        """
        transfer, head = interruption.transfer, interruption.head_xyz
        if interruption.fate is not PieceFate.IN_GRIPPER or head is None:
            raise PlanningError("finish_held needs a piece held by the gripper at a known head position")
        steps = steps_for(transfer, self.geometry)
        rest = [s for s in steps if s.phase not in (Phase.APPROACH, Phase.DESCEND_SOURCE, Phase.GRIP)]
        rest = [s for s in rest if not (s.kind is StepKind.HALF_TURN and interruption.phase is not Phase.LIFT)]
        lift = Step(StepKind.MOVE, Phase.LIFT, (head[0], head[1], self.geometry.travel_z_mm))
        try:
            self.gantry.wait_idle()  # the link must answer again before the held piece moves on
        except self._faults:
            return interruption
        self.state.put(transfer.src, interruption.piece)
        return self._run_one(interruption.index, transfer, [lift, *rest])

    def _do(self, step: Step, settle: bool) -> None:
        if step.kind is StepKind.MOVE:
            assert step.point is not None
            self._moving = True  # a fault inside move_to: the line may have run, the head may be on its way
            self.gantry.move_to(*step.point)
            self._moving = False
            if settle:
                self.gantry.wait_idle()
        elif step.kind is StepKind.GRIP:
            self.gantry.grip()
        elif step.kind is StepKind.RELEASE:
            self.gantry.release()
        else:
            assert self._rotator is not None
            self._rotator.half_turn()

    def _on_fault(self, index: int, transfer: Transfer, phase: Phase, piece: Piece, exc: BaseException) -> Interruption:
        snapshot = getattr(exc, "snapshot", None)
        gripper_on: bool | None = getattr(snapshot, "gripper_on", None)
        head = _position(snapshot)
        settled = None if self._moving else _settled_position(snapshot, self._tolerance)
        self._moving = False
        fate, released = self._fate(transfer, phase, gripper_on, settled)
        if fate is PieceFate.AT_DESTINATION:
            self.state.apply(transfer)
        elif fate is not PieceFate.AT_SOURCE:
            self.state.take(transfer.src)
        fault = f"{type(exc).__name__}: {exc}"
        return Interruption(index, transfer, phase, fault, fate, piece, head, released)

    def _fate(
        self,
        transfer: Transfer,
        phase: Phase,
        gripper_on: bool | None,
        settled: tuple[float, float, float] | None,
    ) -> tuple[PieceFate, bool]:
        """Where the piece is, and whether the gripper was released (only ever low over source or destination).

        A piece under a head that stands at pick height over its source or destination rests on that place
        whether or not the gripper could be switched off: the restart releases before the head moves again.
        """
        if phase in (Phase.APPROACH, Phase.DESCEND_SOURCE):
            return PieceFate.AT_SOURCE, False
        if phase is Phase.RETRACT:
            return PieceFate.AT_DESTINATION, False
        if phase in (Phase.GRIP, Phase.RELEASE):
            # The wait before grip/release confirmed the head low over the source/destination.
            fate = PieceFate.AT_SOURCE if phase is Phase.GRIP else PieceFate.AT_DESTINATION
            return fate, gripper_on is not False and self._try_release()
        for loc, fate in ((transfer.src, PieceFate.AT_SOURCE), (transfer.dst, PieceFate.AT_DESTINATION)):
            if self._low_over(settled, loc):  # let go (or it was let go) resting on that place
                return fate, gripper_on is not False and self._try_release()
        if gripper_on is False:
            return PieceFate.DROPPED, False
        return (PieceFate.IN_GRIPPER if gripper_on else PieceFate.UNCERTAIN), False

    def _low_over(self, head: tuple[float, float, float] | None, loc: Location) -> bool:
        if head is None:
            return False
        x, y = location_xy(self.geometry, loc)
        return math.hypot(head[0] - x, head[1] - y) <= self._tolerance and (
            abs(head[2] - self.geometry.pick_z_mm) <= self._tolerance
        )

    def _try_release(self) -> bool:
        try:
            self.gantry.release()
        except self._faults:
            return False
        return True


def _position(snapshot: Any) -> tuple[float, float, float] | None:
    for name in ("last_reported_position", "confirmed_position"):
        pos = getattr(snapshot, name, None)
        if pos is not None:
            return (float(pos.x_mm), float(pos.y_mm), float(pos.z_mm))
    return None


def _settled_position(snapshot: Any, tolerance: float) -> tuple[float, float, float] | None:
    """The head position only when it is certain: reported at the last queued target (GRBL never moves past
    its last target, so the head stood there when the fault stopped everything). Whether coordinates are trusted
    *after* the fault does not matter for where the head was."""
    reported = getattr(snapshot, "last_reported_position", None) or getattr(snapshot, "confirmed_position", None)
    target = getattr(snapshot, "target", None)
    if reported is None or target is None:
        return None
    point = (float(reported.x_mm), float(reported.y_mm), float(reported.z_mm))
    if math.dist(point, (target.x_mm, target.y_mm, target.z_mm)) > tolerance:
        return None
    return point


def _fmt(xyz: tuple[float, float, float] | None) -> str:
    return "(position unknown)" if xyz is None else f"({xyz[0]:.1f}, {xyz[1]:.1f}, {xyz[2]:.1f})"
