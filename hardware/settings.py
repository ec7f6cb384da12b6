"""The [gantry], [board], [stands] and [gpio] sections of the project's TOML config, as frozen dataclasses.

Owns: reading and validating those four sections once at start-up (units in key names, ranges checked, unknown
keys and missing required keys are errors naming the key and the section), and the documented default
(`hardware/default_config.toml`, used when no `--config` is given). Other sections of the file belong to other
packages and are ignored here.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from hardware.config import Section, load_toml
from hardware.errors import ConfigError
from hardware.geometry import (
    HAND_KINDS,
    SLOTS_PER_KIND,
    Affine2D,
    BoardGeometry,
    Limits,
    RotationMethod,
    Side,
    StandLayout,
)
from hardware.gpio_settings import GpioSettings, read_gpio

DEFAULT_CONFIG_NAME = "default_config.toml"


@dataclass(frozen=True)
class MotionSettings:
    """The firmware's motion limits as the planner's time estimate uses them, and the head's dwell times.

    Attributes:
        max_rate_xy_mm_per_min: GRBL $110/$111.
        max_rate_z_mm_per_min: GRBL $112.
        accel_xy_mm_per_s2: GRBL $120/$121.
        accel_z_mm_per_s2: GRBL $122.
        grip_dwell_s: wait after energising the gripper before lifting.
        release_dwell_s: wait after releasing before lifting.
        half_turn_s: time of a 180-degree turn of the rotation axis (when there is one).
    """

    max_rate_xy_mm_per_min: float
    max_rate_z_mm_per_min: float
    accel_xy_mm_per_s2: float
    accel_z_mm_per_s2: float
    grip_dwell_s: float
    release_dwell_s: float
    half_turn_s: float


@dataclass(frozen=True)
class HardwareSettings:
    """Everything the four sections configure."""

    motion: MotionSettings
    geometry: BoardGeometry
    gpio: GpioSettings


def load_settings(path: Path | None) -> HardwareSettings:
    """Settings from a TOML file, or the documented default when `path` is None."""
    if path is None:
        text = resources.files("hardware").joinpath(DEFAULT_CONFIG_NAME).read_text(encoding="utf-8")
        return settings_from_document(tomllib.loads(text))
    return settings_from_document(load_toml(path))


def settings_from_document(doc: dict[str, Any]) -> HardwareSettings:
    """Validate the four sections of a parsed TOML document (all four are required)."""
    for name in ("gantry", "board", "stands", "gpio"):
        if name not in doc:
            raise ConfigError(name, None, "section is missing")
    gantry = Section("gantry", doc["gantry"])
    motion = _read_motion(gantry)
    limits = _read_limits(gantry)
    rotation = RotationMethod(gantry.string("rotation", default="none", choices=[m.value for m in RotationMethod]))
    park = (gantry.number("park_x_mm"), gantry.number("park_y_mm"))
    gantry.finish()
    geometry = _read_geometry(Section("board", doc["board"]), Section("stands", doc["stands"]), limits, rotation, park)
    gpio = Section("gpio", doc["gpio"])
    gpio_settings = read_gpio(gpio)
    gpio.finish()
    _check_reachable(geometry)
    return HardwareSettings(motion, geometry, gpio_settings)


def _read_motion(s: Section) -> MotionSettings:
    return MotionSettings(
        max_rate_xy_mm_per_min=s.number("max_rate_xy_mm_per_min", default=12000.0, low=60.0, high=120000.0),
        max_rate_z_mm_per_min=s.number("max_rate_z_mm_per_min", default=12000.0, low=60.0, high=120000.0),
        accel_xy_mm_per_s2=s.number("accel_xy_mm_per_s2", default=1000.0, low=10.0, high=20000.0),
        accel_z_mm_per_s2=s.number("accel_z_mm_per_s2", default=1000.0, low=10.0, high=20000.0),
        grip_dwell_s=s.number("grip_dwell_s", default=0.2, low=0.0, high=5.0),
        release_dwell_s=s.number("release_dwell_s", default=0.2, low=0.0, high=5.0),
        half_turn_s=s.number("half_turn_s", default=0.5, low=0.0, high=10.0),
    )


def _read_limits(s: Section) -> Limits:
    values = {}
    for axis in "xyz":
        values[f"min_{axis}_mm"] = s.number(f"min_{axis}_mm", low=-2000.0, high=2000.0)
        values[f"max_{axis}_mm"] = s.number(f"max_{axis}_mm", low=-2000.0, high=2000.0)
        if values[f"max_{axis}_mm"] <= values[f"min_{axis}_mm"]:
            raise ConfigError(s.name, f"max_{axis}_mm", f"must be above min_{axis}_mm")
    return Limits(**values)


def _read_geometry(
    board: Section, stands: Section, limits: Limits, rotation: RotationMethod, park: tuple[float, float]
) -> BoardGeometry:
    file_spacing = board.number("file_spacing_mm", low=20.0, high=60.0)
    rank_spacing = board.number("rank_spacing_mm", low=20.0, high=60.0)
    transform = _read_transform(board)
    pick_z = board.number("pick_z_mm", low=-2000.0, high=2000.0)
    travel_z = board.number("travel_z_mm", low=-2000.0, high=2000.0)
    if travel_z - pick_z < 5.0:
        raise ConfigError("board", "travel_z_mm", f"must be at least 5 mm above pick_z_mm ({pick_z})")
    flip = board.table("flip_station")
    flip_uv = None
    if flip is not None:
        flip_uv = (flip.number("u_mm", low=-2000.0, high=2000.0), flip.number("v_mm", low=-2000.0, high=2000.0))
        flip.finish()
    board.finish()
    layouts = {side: _read_stand(stands, side) for side in Side}
    stands.finish()
    return BoardGeometry(
        file_spacing, rank_spacing, transform, layouts, pick_z, travel_z, flip_uv, rotation, limits, park
    )


def _read_transform(board: Section) -> Affine2D:
    matrix = board.numbers("transform", 6)
    pose_keys = [k for k in ("origin_x_mm", "origin_y_mm", "rotation_deg", "mirrored") if board.has(k)]
    if matrix is not None:
        if pose_keys:
            raise ConfigError("board", pose_keys[0], "conflicts with `transform` (give one or the other)")
        return Affine2D(*matrix)
    origin = (
        board.number("origin_x_mm", low=-2000.0, high=2000.0),
        board.number("origin_y_mm", low=-2000.0, high=2000.0),
    )
    rotation = board.number("rotation_deg", default=0.0, low=-180.0, high=180.0)
    return Affine2D.from_pose(origin, rotation, board.boolean("mirrored", default=False))


def _read_stand(stands: Section, side: Side) -> StandLayout:
    name = "black" if side is Side.BLACK else "white"
    table = stands.table(name)
    if table is None:
        raise ConfigError("stands", name, "required sub-table is missing")
    layout = StandLayout(
        origin_u_mm=table.number("origin_u_mm", low=-2000.0, high=2000.0),
        origin_v_mm=table.number("origin_v_mm", low=-2000.0, high=2000.0),
        column_step_mm=table.number("column_step_mm", low=-100.0, high=100.0),
        row_step_mm=table.number("row_step_mm", low=-100.0, high=100.0),
        columns=table.integer("columns", low=1, high=18),
    )
    for key in ("column_step_mm", "row_step_mm"):
        if abs(getattr(layout, key)) < 15.0:
            raise ConfigError(table.name, key, "slots closer than 15 mm cannot hold a piece each")
    table.finish()
    return layout


def _check_reachable(geometry: BoardGeometry) -> None:
    """Every square, slot and station must lie inside the travel limits; say which one does not."""
    points: list[tuple[str, tuple[float, float]]] = [
        (f"{f}{r}", geometry.square_xy(f"{f}{r}")) for f in range(1, 10) for r in "abcdefghi"
    ]
    for side in Side:
        for kind in HAND_KINDS:
            for i in range(SLOTS_PER_KIND[kind]):
                points.append((f"stand {side.value} {kind}#{i}", geometry.slot_xy(side, kind, i)))
    if geometry.flip_station_uv is not None:
        points.append(("flip station", geometry.flip_station_xy()))
    points.append(("park", geometry.park_xy()))
    for name, (x, y) in points:
        for z in (geometry.pick_z_mm, geometry.travel_z_mm):
            problem = geometry.limits.violation(x, y, z)
            if problem:
                raise ConfigError("gantry", None, f"{name} is out of the travel limits: {problem}")
