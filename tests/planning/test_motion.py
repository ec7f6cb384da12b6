"""Paths and GRBL-like time estimates."""

from __future__ import annotations

import dataclasses
import math

import pytest

from controller.planning.errors import OutOfRangeError
from controller.planning.model import SquareLoc, Transfer, TransferKind
from controller.planning.motion import Phase, StepKind, estimate, segment_time, steps_for
from hardware.settings import load_settings

SETTINGS = load_settings(None)
MOTION = SETTINGS.motion
GEOMETRY = SETTINGS.geometry


def test_long_move_reaches_full_speed() -> None:
    """300 mm at 200 mm/s and 1000 mm/s^2: 1.5 s cruise plus 0.2 s for the ramps."""
    assert segment_time((0, 0, 0), (300, 0, 0), MOTION) == pytest.approx(1.7)


def test_short_move_is_triangular() -> None:
    """20 mm never reaches 200 mm/s: 2 * sqrt(20 / 1000) s."""
    assert segment_time((0, 0, 0), (0, 0, 20), MOTION) == pytest.approx(2 * math.sqrt(0.02))


def test_slow_z_axis_limits_a_combined_move() -> None:
    """A move with a Z component is limited by the Z axis's own rate, scaled by its share of the line."""
    slow_z = dataclasses.replace(MOTION, max_rate_z_mm_per_min=600.0)
    assert segment_time((0, 0, 0), (0, 0, 100), slow_z) == pytest.approx(100 / 10 + 10 / 1000)
    assert segment_time((0, 0, 0), (100, 0, 10), slow_z) > segment_time((0, 0, 0), (100, 0, 10), MOTION)


def test_transfer_goes_up_across_and_down() -> None:
    """Approach at travel height, down, grip, up, across, down, release, up."""
    transfer = Transfer("P", SquareLoc("7g"), SquareLoc("7f"), TransferKind.MOVE)
    steps = steps_for(transfer, GEOMETRY)
    assert [s.kind for s in steps] == [
        StepKind.MOVE, StepKind.MOVE, StepKind.GRIP, StepKind.MOVE,
        StepKind.MOVE, StepKind.MOVE, StepKind.RELEASE, StepKind.MOVE,
    ]  # fmt: skip
    heights = [s.point[2] for s in steps if s.point is not None]
    assert heights == [-5.0, -25.0, -5.0, -5.0, -25.0, -5.0]
    assert steps[4].phase is Phase.CARRY


def test_estimate_adds_dwells_and_path() -> None:
    """One square forward from above the source: 4 lifts of 20 mm, a 38.6 mm carry and both dwells."""
    transfer = Transfer("P", SquareLoc("7g"), SquareLoc("7f"), TransferKind.MOVE)
    start = (*GEOMETRY.square_xy("7g"), GEOMETRY.travel_z_mm)
    result = estimate([transfer], GEOMETRY, MOTION, start)
    lift = 2 * math.sqrt(0.02)
    carry = 2 * math.sqrt(38.6 / 1000)
    assert result.time_s == pytest.approx(4 * lift + carry + MOTION.grip_dwell_s + MOTION.release_dwell_s)
    assert result.path_mm == pytest.approx(80 + 38.6)


def test_unreachable_target_is_out_of_range() -> None:
    """A geometry whose board lies beyond the limits makes the transfer fail before any motion."""
    shifted = dataclasses.replace(
        GEOMETRY, transform=dataclasses.replace(GEOMETRY.transform, tx=GEOMETRY.transform.tx + 200)
    )
    transfer = Transfer("P", SquareLoc("7g"), SquareLoc("1a"), TransferKind.MOVE)
    with pytest.raises(OutOfRangeError, match="X="):
        steps_for(transfer, shifted)


def test_human_actions_take_no_machine_time() -> None:
    """A person's action has no steps and is counted apart."""
    human = Transfer("P", SquareLoc("2c"), SquareLoc("2c"), TransferKind.HUMAN_ACTION)
    result = estimate([human], GEOMETRY, MOTION, (0.0, 0.0, 0.0))
    assert (result.time_s, result.human_actions) == (0.0, 1)
