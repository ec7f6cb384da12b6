"""Pure board geometry: where every square, stand slot and the flip station are in gantry millimetres.

Owns: the board frame (u, v in mm: origin at the centre of square 9a, u towards file 1, v towards rank i), the
2D affine map from the board frame to gantry X/Y, the two piece stands (one slot per piece kind per player, up to
18 pawns), the flip station, the lift heights and the travel limits. Imports nothing project-local but its own
errors; the controller may import it.

Conventions: USI squares are file digit + rank letter (`7g`). A stand slot is (side, kind, index) with kind one
of R B G S N L P and index from 0. Distances are millimetres, angles degrees.
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass

from hardware.errors import GeometryError

HAND_KINDS: tuple[str, ...] = ("R", "B", "G", "S", "N", "L", "P")
"""Kinds a stand holds, in the order their rows are laid out."""

SLOTS_PER_KIND: dict[str, int] = {"R": 2, "B": 2, "G": 4, "S": 4, "N": 4, "L": 4, "P": 18}
"""How many of each kind exist in a set, hence how many slots a stand needs for it."""

RANKS = "abcdefghi"


class Side(enum.StrEnum):
    """A player, by SFEN side letter (the same values as controller.rules.types.Color)."""

    BLACK = "b"
    WHITE = "w"


class RotationMethod(enum.StrEnum):
    """How a piece is turned 180 degrees in yaw when its owner changes."""

    NONE = "none"
    """No mechanism: a person turns it."""
    AXIS = "axis"
    """A rotary axis on the head turns it while it is carried."""


@dataclass(frozen=True)
class Affine2D:
    """x = a*u + b*v + tx, y = c*u + d*v + ty."""

    a: float
    b: float
    c: float
    d: float
    tx: float
    ty: float

    @classmethod
    def from_pose(cls, origin: tuple[float, float], rotation_deg: float, mirrored: bool) -> Affine2D:
        """A rigid map: board u along `rotation_deg`; v at +90 degrees from it, or -90 when `mirrored`."""
        cos, sin = math.cos(math.radians(rotation_deg)), math.sin(math.radians(rotation_deg))
        sign = -1.0 if mirrored else 1.0
        return cls(cos, -sin * sign, sin, cos * sign, origin[0], origin[1])

    def apply(self, u: float, v: float) -> tuple[float, float]:
        """The gantry point of board point (u, v)."""
        return (self.a * u + self.b * v + self.tx, self.c * u + self.d * v + self.ty)

    def as_list(self) -> list[float]:
        """[a, b, c, d, tx, ty], the order of the `transform` config key."""
        return [self.a, self.b, self.c, self.d, self.tx, self.ty]


@dataclass(frozen=True)
class StandLayout:
    """One player's stand: a grid of slots; each kind starts a new row, in HAND_KINDS order.

    Attributes:
        origin_u_mm, origin_v_mm: board-frame centre of the first rook slot.
        column_step_mm: signed u offset between neighbouring slots of a row.
        row_step_mm: signed v offset between rows.
        columns: slots per row.
    """

    origin_u_mm: float
    origin_v_mm: float
    column_step_mm: float
    row_step_mm: float
    columns: int

    def slot_uv(self, kind: str, index: int) -> tuple[float, float]:
        """Board-frame centre of slot `index` of `kind`."""
        if kind not in SLOTS_PER_KIND:
            raise GeometryError(f"no stand slots for kind {kind!r} (only {' '.join(HAND_KINDS)})")
        if not 0 <= index < SLOTS_PER_KIND[kind]:
            raise GeometryError(f"stand slot {kind}#{index} out of range 0..{SLOTS_PER_KIND[kind] - 1}")
        row = sum(-(-SLOTS_PER_KIND[k] // self.columns) for k in HAND_KINDS[: HAND_KINDS.index(kind)])
        extra_row, column = divmod(index, self.columns)
        return (
            self.origin_u_mm + column * self.column_step_mm,
            self.origin_v_mm + (row + extra_row) * self.row_step_mm,
        )


@dataclass(frozen=True)
class Limits:
    """The travel the gantry may be commanded to, per axis, in machine millimetres."""

    min_x_mm: float
    max_x_mm: float
    min_y_mm: float
    max_y_mm: float
    min_z_mm: float
    max_z_mm: float

    def violation(self, x: float, y: float, z: float) -> str | None:
        """None when (x, y, z) is reachable, else which axis is out of range."""
        for axis, value, low, high in (
            ("X", x, self.min_x_mm, self.max_x_mm),
            ("Y", y, self.min_y_mm, self.max_y_mm),
            ("Z", z, self.min_z_mm, self.max_z_mm),
        ):
            if not low - 1e-9 <= value <= high + 1e-9:
                return f"{axis}={value:.2f} outside {low:g}..{high:g} mm"
        return None


@dataclass(frozen=True)
class BoardGeometry:
    """Everything needed to turn a location into a gantry point.

    Attributes:
        file_spacing_mm: centre distance between neighbouring files (across the board, left to right).
        rank_spacing_mm: centre distance between neighbouring ranks (along a file, away from the player).
        transform: board frame (u, v) to gantry (x, y).
        stands: the stand of each side.
        pick_z_mm: head height at which the gripper takes or sets down a piece.
        travel_z_mm: head height at which a carried piece clears every other piece.
        flip_station_uv: board-frame centre of the flip station, or None when there is none.
        rotation: how pieces are turned when their owner changes.
        limits: the commandable travel.
        park_xy_mm: gantry point where the head waits, out of the camera's view.
    """

    file_spacing_mm: float
    rank_spacing_mm: float
    transform: Affine2D
    stands: dict[Side, StandLayout]
    pick_z_mm: float
    travel_z_mm: float
    flip_station_uv: tuple[float, float] | None
    rotation: RotationMethod
    limits: Limits
    park_xy_mm: tuple[float, float]

    def square_uv(self, square: str) -> tuple[float, float]:
        """Board-frame centre of a USI square (`7g`)."""
        file, rank = parse_square(square)
        return ((9 - file) * self.file_spacing_mm, (rank - 1) * self.rank_spacing_mm)

    def square_xy(self, square: str) -> tuple[float, float]:
        """Gantry centre of a USI square."""
        return self.transform.apply(*self.square_uv(square))

    def slot_xy(self, side: Side, kind: str, index: int) -> tuple[float, float]:
        """Gantry centre of a stand slot."""
        return self.transform.apply(*self.stands[side].slot_uv(kind, index))

    def flip_station_xy(self) -> tuple[float, float]:
        """Gantry centre of the flip station; GeometryError when none is configured."""
        if self.flip_station_uv is None:
            raise GeometryError("no flip station is configured")
        return self.transform.apply(*self.flip_station_uv)

    def park_xy(self) -> tuple[float, float]:
        """Gantry point where the head parks."""
        return self.park_xy_mm

    def with_transform(self, transform: Affine2D) -> BoardGeometry:
        """The same geometry placed by another (e.g. calibrated) transform."""
        return BoardGeometry(
            self.file_spacing_mm,
            self.rank_spacing_mm,
            transform,
            self.stands,
            self.pick_z_mm,
            self.travel_z_mm,
            self.flip_station_uv,
            self.rotation,
            self.limits,
            self.park_xy_mm,
        )


def parse_square(square: str) -> tuple[int, int]:
    """(file 1..9, rank 1..9) of a USI square; GeometryError naming the bad text."""
    if len(square) != 2 or square[0] not in "123456789" or square[1] not in RANKS:
        raise GeometryError(f"not a USI square: {square!r} (want a file digit 1-9 and a rank letter a-i)")
    return int(square[0]), RANKS.index(square[1]) + 1
