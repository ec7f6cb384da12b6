"""Run transfers and recover from firmware faults where the state is known; stop and name the piece otherwise.

Owns: `run_with_recovery`. After an interruption whose piece is on a known place (its source or destination),
the gantry is brought back by the injected `restart` (the composition root's: soft reset or reconnect, then
home) and the plan resumes from the known state (the interrupted transfer again when its piece is still at its
source, the next one when it reached its destination). A piece still held by a live firmware is carried on from
the head's reported position. A piece the controller dropped, or whose gripper state is unknown, is never
guessed at: the run stops and names it. At most `max_recoveries` recoveries per run.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from controller.planning.executor import ExecutionReport, Executor, Interruption, PieceFate
from controller.planning.model import Transfer
from controller.ports import Gantry

Restart = Callable[[Interruption], Gantry]
"""Bring the machine back to a known state (reset or reconnect, gripper released before the head moves, homed);
returns the gantry to use from now on."""


@dataclass(frozen=True)
class RecoveryOutcome:
    """How a run ended.

    Attributes:
        report: the last execution report (ok when every transfer finished).
        faults: every interruption met, in order.
        recoveries: how many times the run was resumed.
    """

    report: ExecutionReport
    faults: tuple[Interruption, ...]
    recoveries: int
    recovery_error: str | None = None
    """Why bringing the machine back failed, when it did (the run stopped on `report.interruption`)."""

    @property
    def completed(self) -> bool:
        """True when every transfer was carried out."""
        return self.report.ok

    @property
    def stopped_on(self) -> Interruption | None:
        """The interruption the run stopped on (None when it completed)."""
        return self.report.interruption


def run_with_recovery(
    executor: Executor,
    transfers: Sequence[Transfer],
    restart: Restart,
    *,
    max_recoveries: int = 3,
    fault_types: tuple[type[BaseException], ...] = (),
) -> RecoveryOutcome:
    """Run `transfers`, resuming after each recoverable fault (see the module docstring)."""
    faults: list[Interruption] = []
    report = executor.run(transfers)
    recoveries = 0
    while report.interruption is not None and recoveries < max_recoveries:
        stop = report.interruption
        faults.append(stop)
        try:
            resumed = _resume(executor, stop, restart)
        except fault_types as exc:
            error = f"{type(exc).__name__}: {exc}"
            return RecoveryOutcome(report, tuple(faults), recoveries, recovery_error=error)
        if isinstance(resumed, Interruption):
            faults.append(resumed)
            return RecoveryOutcome(ExecutionReport(report.completed, resumed), tuple(faults), recoveries)
        if resumed is None:
            return RecoveryOutcome(report, tuple(faults), recoveries)
        recoveries += 1
        report = executor.run(transfers, resumed)
    if report.interruption is not None:
        faults.append(report.interruption)
    return RecoveryOutcome(report, tuple(faults), recoveries)


def _resume(executor: Executor, stop: Interruption, restart: Restart) -> int | Interruption | None:
    """Where to resume from after bringing the machine back; None to stop; a new interruption if that failed."""
    if stop.fate is PieceFate.IN_GRIPPER and stop.head_xyz is not None:
        follow_up = executor.finish_held(stop)
        if follow_up is stop:
            return None
        return follow_up if follow_up is not None else stop.index + 1
    if not stop.piece_known:
        return None
    executor.gantry = restart(stop)
    return stop.index if stop.fate is PieceFate.AT_SOURCE else stop.index + 1
