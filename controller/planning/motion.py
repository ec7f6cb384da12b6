"""Paths and time estimates of transfers: up to travel height, across, down; GRBL-like trapezoidal timing.

Owns: the head steps of a transfer (`steps_for`: moves, grip, release, half turn, each tagged with the phase
that tells where the piece is while it runs), the travel-limit check of every point, and the planned time of a
path: each straight segment runs a trapezoidal speed profile from rest to rest whose speed and acceleration are
limited per axis the way GRBL's planner limits them ($110-$112 max rates, $120-$122 accelerations, scaled by the
segment's direction), plus the grip and release dwells.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Sequence
from dataclasses import dataclass

from controller.planning.errors import OutOfRangeError
from controller.planning.model import FlipStationLoc, HumanLoc, Location, SlotLoc, SquareLoc, Transfer, TransferKind
from hardware.geometry import BoardGeometry
from hardware.settings import MotionSettings

Point = tuple[float, float, float]


class Phase(enum.StrEnum):
    """Where a transfer is; it says where the piece is if the transfer stops here."""

    APPROACH = "approach"
    """Empty head going to the source at travel height: the piece is at its source."""
    DESCEND_SOURCE = "descend_source"
    """Empty head going down over the source."""
    GRIP = "grip"
    """Gripper being energised at pick height over the source."""
    LIFT = "lift"
    """Piece held, going up over the source."""
    CARRY = "carry"
    """Piece held at travel height between source and destination."""
    DESCEND_DESTINATION = "descend_destination"
    """Piece held, going down over the destination."""
    RELEASE = "release"
    """Gripper being released at pick height over the destination."""
    RETRACT = "retract"
    """Empty head going up over the destination: the piece is at its destination."""


class StepKind(enum.StrEnum):
    """What the head does in one step."""

    MOVE = "move"
    GRIP = "grip"
    RELEASE = "release"
    HALF_TURN = "half_turn"


@dataclass(frozen=True)
class Step:
    """One head action; `point` for MOVE steps."""

    kind: StepKind
    phase: Phase
    point: Point | None = None


def location_xy(geometry: BoardGeometry, loc: Location) -> tuple[float, float]:
    """Gantry X/Y of a location; OutOfRangeError for the human location (it has no point)."""
    if isinstance(loc, SquareLoc):
        return geometry.square_xy(loc.square)
    if isinstance(loc, SlotLoc):
        return geometry.slot_xy(loc.side, loc.kind, loc.index)
    if isinstance(loc, FlipStationLoc):
        return geometry.flip_station_xy()
    assert isinstance(loc, HumanLoc)
    raise OutOfRangeError("a piece in a person's hands has no gantry position")


def steps_for(transfer: Transfer, geometry: BoardGeometry) -> list[Step]:
    """The head steps of a transfer (none for a HUMAN_ACTION); OutOfRangeError when a point is unreachable."""
    if transfer.kind is TransferKind.HUMAN_ACTION:
        return []
    (sx, sy), (dx, dy) = location_xy(geometry, transfer.src), location_xy(geometry, transfer.dst)
    up, down = geometry.travel_z_mm, geometry.pick_z_mm
    steps = [
        Step(StepKind.MOVE, Phase.APPROACH, (sx, sy, up)),
        Step(StepKind.MOVE, Phase.DESCEND_SOURCE, (sx, sy, down)),
        Step(StepKind.GRIP, Phase.GRIP),
        Step(StepKind.MOVE, Phase.LIFT, (sx, sy, up)),
    ]
    if transfer.half_turn:
        steps.append(Step(StepKind.HALF_TURN, Phase.CARRY))
    steps += [
        Step(StepKind.MOVE, Phase.CARRY, (dx, dy, up)),
        Step(StepKind.MOVE, Phase.DESCEND_DESTINATION, (dx, dy, down)),
        Step(StepKind.RELEASE, Phase.RELEASE),
        Step(StepKind.MOVE, Phase.RETRACT, (dx, dy, up)),
    ]
    for step in steps:
        if step.point is not None:
            problem = geometry.limits.violation(*step.point)
            if problem:
                raise OutOfRangeError(f"{transfer.describe()}: target {problem}")
    return steps


def segment_time(start: Point, end: Point, motion: MotionSettings) -> float:
    """Seconds for one straight rapid from rest to rest (trapezoidal, GRBL per-axis limits)."""
    delta = [e - s for s, e in zip(start, end, strict=True)]
    length = math.sqrt(sum(d * d for d in delta))
    if length < 1e-9:
        return 0.0
    rates = (motion.max_rate_xy_mm_per_min / 60.0,) * 2 + (motion.max_rate_z_mm_per_min / 60.0,)
    accels = (motion.accel_xy_mm_per_s2,) * 2 + (motion.accel_z_mm_per_s2,)
    speed = min(r * length / abs(d) for r, d in zip(rates, delta, strict=True) if abs(d) > 1e-12)
    accel = min(a * length / abs(d) for a, d in zip(accels, delta, strict=True) if abs(d) > 1e-12)
    if length >= speed * speed / accel:
        return length / speed + speed / accel
    return 2.0 * math.sqrt(length / accel)


@dataclass(frozen=True)
class Estimate:
    """Planned figures of a sequence of transfers."""

    time_s: float
    path_mm: float
    end: Point
    human_actions: int


def estimate(transfers: Sequence[Transfer], geometry: BoardGeometry, motion: MotionSettings, start: Point) -> Estimate:
    """Time and path length of carrying out `transfers` with the head starting at `start`.

    Human actions add no machine time (they are counted instead). A half turn runs during the carry, so it
    only adds time when it outlasts the carry move.
    """
    here, total, path, humans = start, 0.0, 0.0, 0
    for transfer in transfers:
        steps = steps_for(transfer, geometry)
        humans += transfer.kind is TransferKind.HUMAN_ACTION
        turning = 0.0
        for step in steps:
            if step.kind is StepKind.GRIP:
                total += motion.grip_dwell_s
            elif step.kind is StepKind.RELEASE:
                total += motion.release_dwell_s
            elif step.kind is StepKind.HALF_TURN:
                turning = motion.half_turn_s
            elif step.point is not None:
                seconds = segment_time(here, step.point, motion)
                total += max(seconds, turning) if step.phase is Phase.CARRY else seconds
                path += math.dist(here, step.point)
                here = step.point
    return Estimate(total, path, here, humans)
