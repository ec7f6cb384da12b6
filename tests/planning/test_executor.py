"""The executor on an in-memory gantry: carrying transfers, and what it believes after a fault in each phase."""

from __future__ import annotations

import dataclasses

import pytest
from planning_fakes import FakeFaultError, FakeGantry

from controller.planning.errors import PlanningError
from controller.planning.executor import Executor, PieceFate
from controller.planning.model import Piece, SlotLoc, SquareLoc, Transfer, TransferKind
from controller.planning.motion import Phase
from controller.planning.planner import Capabilities, plan_move
from controller.planning.recovery import run_with_recovery
from controller.planning.state import PhysicalState
from controller.rules.positions import STARTPOS_SFEN
from hardware.geometry import Side
from hardware.settings import load_settings

GEOMETRY = load_settings(None).geometry
CAPS = Capabilities.of(GEOMETRY)
CAPTURE_SFEN = "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 1"


def _executor(gantry: FakeGantry, sfen: str = STARTPOS_SFEN, humans: list[Transfer] | None = None) -> Executor:
    asked = humans if humans is not None else []
    return Executor(
        gantry, GEOMETRY, PhysicalState.from_sfen(sfen), ask_human=asked.append, fault_types=(FakeFaultError,)
    )


def test_runs_a_capture_and_tracks_the_pieces() -> None:
    """A capture with promotion: the bishop goes to the stand, the capturer moves, a person turns it over."""
    gantry, humans = FakeGantry(), []
    executor = _executor(gantry, CAPTURE_SFEN, humans)
    plan = plan_move(executor.state.copy(), CAPTURE_SFEN, "8h2b+", CAPS)
    report = executor.run(plan.transfers)
    assert report.ok and report.completed == 3
    assert [t.kind for t in humans] == [TransferKind.HUMAN_ACTION]
    assert executor.state.at(SlotLoc(Side.BLACK, "B", 0)) == Piece("B", False, Side.WHITE)
    assert executor.state.at(SquareLoc("2b")) == Piece("B", True, Side.BLACK)
    assert [c[0] for c in gantry.calls].count("grip") == 2
    assert gantry.gripper is False


def test_moves_are_settled_before_grip_and_release() -> None:
    """Every grip and release comes right after a wait_idle at pick height."""
    gantry = FakeGantry()
    executor = _executor(gantry)
    executor.run(plan_move(executor.state.copy(), STARTPOS_SFEN, "7g7f", CAPS).transfers)
    names = [c[0] for c in gantry.calls]
    for i, name in enumerate(names):
        if name in ("grip", "release"):
            assert names[i - 1] == "wait_idle"
            assert gantry.calls[i - 2][1][2] == GEOMETRY.pick_z_mm


def test_fault_while_approaching_leaves_the_piece_at_its_source() -> None:
    """A fault before the grip: the piece never left, nothing is released, the belief is unchanged."""
    gantry = FakeGantry(fail_at=0)
    executor = _executor(gantry)
    report = executor.run(plan_move(executor.state.copy(), STARTPOS_SFEN, "7g7f", CAPS).transfers)
    stop = report.interruption
    assert stop is not None and stop.fate is PieceFate.AT_SOURCE and stop.phase is Phase.APPROACH
    assert executor.state.at(SquareLoc("7g")) is not None and not stop.released


def test_fault_mid_carry_keeps_holding_and_names_the_piece() -> None:
    """A fault while carrying, gripper still on, head not low over either end: keep holding, say which piece."""
    gantry = FakeGantry(fail_call="move_to", fail_at=3, gripper_after_fault=True)  # approach, descend, lift, carry
    executor = _executor(gantry)
    report = executor.run(plan_move(executor.state.copy(), STARTPOS_SFEN, "7g7f", CAPS).transfers)
    stop = report.interruption
    assert stop is not None and stop.fate is PieceFate.IN_GRIPPER and stop.phase is Phase.CARRY
    assert "release" not in [c[0] for c in gantry.calls]
    assert executor.state.at(SquareLoc("7g")) is None and executor.state.at(SquareLoc("7f")) is None
    assert "CHECK piece P" in stop.describe()


def test_fault_after_the_controller_dropped_the_magnet() -> None:
    """A reset mid-carry switches the magnet off: the piece is reported dropped near the head, to be checked."""
    gantry = FakeGantry(fail_call="move_to", fail_at=3, gripper_after_fault=False)
    executor = _executor(gantry)
    report = executor.run(plan_move(executor.state.copy(), STARTPOS_SFEN, "7g7f", CAPS).transfers)
    assert report.interruption is not None and report.interruption.fate is PieceFate.DROPPED


def test_fault_low_over_the_destination_releases_there() -> None:
    """The wait before the release fails with the head standing low over 7f: it is safe to let go there."""
    gantry = FakeGantry(fail_call="wait_idle", fail_at=1)
    executor = _executor(gantry)
    report = executor.run(plan_move(executor.state.copy(), STARTPOS_SFEN, "7g7f", CAPS).transfers)
    stop = report.interruption
    assert stop is not None and stop.phase is Phase.DESCEND_DESTINATION
    assert stop.fate is PieceFate.AT_DESTINATION and stop.released
    assert executor.state.at(SquareLoc("7f")) == Piece("P", False, Side.BLACK)


def test_fault_on_grip_releases_over_the_source() -> None:
    """The grip command fails: the head is low over the source, so the gripper is released and the piece stays."""
    gantry = FakeGantry(fail_call="grip", fail_at=0)
    executor = _executor(gantry)
    report = executor.run(plan_move(executor.state.copy(), STARTPOS_SFEN, "7g7f", CAPS).transfers)
    stop = report.interruption
    assert stop is not None and stop.fate is PieceFate.AT_SOURCE and stop.released
    assert gantry.calls[-1][0] == "release"


def test_recovery_resumes_from_the_known_state() -> None:
    """After a fault before the grip, the restart re-homes and the move is carried out in full."""
    gantry = FakeGantry(fail_call="wait_idle", fail_at=0)
    executor = _executor(gantry)
    transfers = plan_move(executor.state.copy(), STARTPOS_SFEN, "7g7f", CAPS).transfers

    def restart(_stop: object) -> FakeGantry:
        gantry.home()
        return gantry

    outcome = run_with_recovery(executor, transfers, restart, fault_types=(FakeFaultError,))
    assert outcome.completed and outcome.recoveries == 1 and gantry.homed == 1
    assert executor.state.at(SquareLoc("7f")) is not None and executor.state.at(SquareLoc("7g")) is None


def test_recovery_does_not_guess_about_a_dropped_piece() -> None:
    """A dropped piece stops the run: no restart, the piece is named."""
    gantry = FakeGantry(fail_call="move_to", fail_at=3, gripper_after_fault=False)
    executor = _executor(gantry)
    transfers = plan_move(executor.state.copy(), STARTPOS_SFEN, "7g7f", CAPS).transfers

    def restart(_stop: object) -> FakeGantry:
        pytest.fail("must not restart")

    outcome = run_with_recovery(executor, transfers, restart, fault_types=(FakeFaultError,))
    assert not outcome.completed and outcome.stopped_on is not None and not outcome.stopped_on.piece_known


def test_half_turn_without_a_rotator_is_refused_before_moving() -> None:
    """A plan that needs the rotation axis cannot start on a gantry without one."""
    caps = dataclasses.replace(CAPS, rotation_axis=True)
    gantry = FakeGantry()
    executor = _executor(gantry, CAPTURE_SFEN)
    transfers = plan_move(executor.state.copy(), CAPTURE_SFEN, "8h2b+", caps).transfers
    with pytest.raises(PlanningError, match="no rotator"):
        executor.run(transfers)
    assert gantry.calls == []
