"""The gantry playing the opponent's moves: planner + executor in a worker thread, the outcome posted back to the
game loop as `TransferDone` or `TransferFailed`.

Owns: the belief of where the robot's pieces are between moves (the squares and the human's stand are taken from
the game's position before each move, the robot's own stand is carried over from what the executor did, so a
captured piece is found in the slot it was really put in), the plan of the move being executed, and the one
retry (`ExecuteMove.attempt == 2`): the machine is brought back (`restart`, e.g. soft reset and homing) and the
interrupted plan continues from the transfer that stopped (on a fresh executor with the same belief, since the
restart may have reconnected), rather than being planned again.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass

from controller.game.commands import ExecuteMove
from controller.game.events import Event, TransferDone, TransferFailed
from controller.planning.errors import PlanningError
from controller.planning.executor import ExecutionReport, Executor, Interruption
from controller.planning.model import SlotLoc, Transfer
from controller.planning.planner import Capabilities, plan_move
from controller.planning.state import PhysicalState
from controller.rules.positions import board_from_sfen
from hardware.geometry import Side

MakeExecutor = Callable[[PhysicalState], Executor]
"""Builds an executor on the gantry for a belief state (`controller.compose.executor` with its wiring)."""


@dataclass(frozen=True)
class MoveRun:
    """One executed attempt of a move (for the end-of-game figures).

    Attributes:
        usi: the move.
        attempt: 1, or 2 for the retry.
        transfers: transfers run in this attempt.
        ok: every transfer completed.
        detail: what stopped it, when it did not.
    """

    usi: str
    attempt: int
    transfers: int
    ok: bool
    detail: str = ""


class GantryRobot:
    """Executes `ExecuteMove` commands one at a time in a worker thread."""

    def __init__(
        self,
        make_executor: MakeExecutor,
        caps: Capabilities,
        post: Callable[[Event], None],
        *,
        restart: Callable[[Interruption], None] | None = None,
    ) -> None:
        self._make, self._caps, self._post, self._restart = make_executor, caps, post, restart
        self._belief: PhysicalState | None = None
        self._plan: tuple[str, tuple[Transfer, ...], Executor, int] | None = None
        self._thread: threading.Thread | None = None
        self._last_interruption: Interruption | None = None
        self.runs: list[MoveRun] = []

    def execute(self, command: ExecuteMove) -> None:
        """Start executing `command` (returns at once; the result arrives as an event)."""
        self.wait()
        self._thread = threading.Thread(target=self._run, args=(command,), name="gantry", daemon=True)
        self._thread.start()

    @property
    def busy(self) -> bool:
        """True while a move is being executed (the arm may be over the board)."""
        return self._thread is not None and self._thread.is_alive()

    def wait(self, timeout_s: float | None = None) -> None:
        """Block until the running execution (if any) has finished, or for at most `timeout_s`."""
        if self._thread is not None:
            self._thread.join(timeout_s)
            if not self._thread.is_alive():
                self._thread = None

    def _run(self, command: ExecuteMove) -> None:
        try:
            report = self._attempt(command)
        except PlanningError as exc:
            self.runs.append(MoveRun(command.usi, command.attempt, 0, False, str(exc)))
            self._post(TransferFailed(f"cannot plan or run {command.usi}: {exc}"))
            return
        except Exception as exc:  # a worker thread reports every failure to the game loop
            detail = f"{type(exc).__name__}: {exc}"
            self.runs.append(MoveRun(command.usi, command.attempt, 0, False, detail))
            self._post(TransferFailed(f"the gantry failed on {command.usi}: {detail}"))
            return
        detail = report.interruption.describe() if report.interruption else ""
        self.runs.append(MoveRun(command.usi, command.attempt, report.completed, report.ok, detail))
        self._post(TransferDone() if report.ok else TransferFailed(detail))

    def _attempt(self, command: ExecuteMove) -> ExecutionReport:
        plan = self._plan
        if command.attempt > 1 and plan is not None and plan[0] == command.usi:
            _, transfers, executor, start = plan
            interruption = self._last_interruption
            if interruption is not None and self._restart is not None:
                self._restart(interruption)
                executor = self._make(executor.state)  # on the gantry as it is after the restart
        else:
            state = self._belief_for(command.sfen_before)
            planned = state.copy()
            transfers = plan_move(planned, command.sfen_before, command.usi, self._caps).transfers
            executor, start = self._make(state), 0
        self._plan = (command.usi, transfers, executor, start)
        report = executor.run(transfers, start)
        self._belief = executor.state
        self._last_interruption = report.interruption
        if report.interruption is not None:
            self._plan = (command.usi, transfers, executor, report.interruption.index)
        return report

    def _belief_for(self, sfen: str) -> PhysicalState:
        """The position's squares and the human's stand, with the robot's own stand as the executor left it."""
        fresh = PhysicalState.from_sfen(sfen)
        if self._belief is None:
            return fresh
        mover = Side.BLACK if board_from_sfen(sfen).turn == 0 else Side.WHITE
        places = {loc: piece for loc, piece in fresh.items() if not _on_stand(loc, mover)}
        places.update({loc: piece for loc, piece in self._belief.items() if _on_stand(loc, mover)})
        merged = PhysicalState(places)
        if merged.hands() != fresh.hands():
            return fresh  # the robot's stand changed behind its back (a resume, a takeback): trust the position
        return merged


def _on_stand(loc: object, side: Side) -> bool:
    return isinstance(loc, SlotLoc) and loc.side is side
