"""Where a simulated piece can be, and the two coordinate frames it is drawn and reached in.

Owns: the place values (`OnSquare`, `OnStand`, `InGripper`, `InHand`, `Loose`, `AtFlipStation`), the map
between the gantry's frame (machine x/y through `hardware.geometry.BoardGeometry`) and the renderer's board
millimetres (x to the right from the 9a grid corner, y towards rank i), and finding the location under the head.
The two frames agree square by square: a point a quarter of a square right of 5e's centre for the gantry is a
quarter of a square right of it in the picture, whatever the two set sizes are.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from hardware.geometry import HAND_KINDS, SLOTS_PER_KIND, BoardGeometry, Side
from vision.render import SQUARE_H_MM, SQUARE_W_MM


@dataclass(frozen=True)
class OnSquare:
    """Resting on a square (SFEN index 0 = 9a .. 80 = 1i), off centre by dx, dy (fractions of a square: x
    towards file 1, y towards rank i) and turned by angle_deg."""

    square: int
    dx: float = 0.0
    dy: float = 0.0
    angle_deg: float = 0.0


@dataclass(frozen=True)
class OnStand:
    """In stand slot `index` of the `kind` row of `side`'s piece stand."""

    side: Side
    kind: str
    index: int


@dataclass(frozen=True)
class InGripper:
    """Held by the gantry's gripper (drawn lifted under the head)."""


@dataclass(frozen=True)
class InHand:
    """Lifted in a person's fingers at render position `at_mm`."""

    at_mm: tuple[float, float]


@dataclass(frozen=True)
class Loose:
    """Lying somewhere that is no location (dropped off target, knocked over): render position `at_mm`."""

    at_mm: tuple[float, float]
    angle_deg: float = 0.0


@dataclass(frozen=True)
class AtFlipStation:
    """Set down on the flip station."""


Place = OnSquare | OnStand | InGripper | InHand | Loose | AtFlipStation

Spot = OnSquare | OnStand | AtFlipStation
"""A location the gantry can reach and set a piece down on (an OnSquare spot is always centred)."""


class Frames:
    """Conversions between gantry x/y, the board frame (u, v: mm from 9a's centre) and render millimetres."""

    def __init__(self, geometry: BoardGeometry) -> None:
        self.geometry = geometry
        t = geometry.transform
        det = t.a * t.d - t.b * t.c
        if abs(det) < 1e-12:
            raise ValueError("board transform is singular")
        self._inverse = (t.d / det, -t.b / det, -t.c / det, t.a / det)
        self._spots = self._all_spots()

    def uv_of_xy(self, x: float, y: float) -> tuple[float, float]:
        """Board frame point of a gantry point."""
        t = self.geometry.transform
        ia, ib, ic, id_ = self._inverse
        px, py = x - t.tx, y - t.ty
        return (ia * px + ib * py, ic * px + id_ * py)

    def render_of_uv(self, u: float, v: float) -> tuple[float, float]:
        """Render millimetres of a board frame point (scaled square by square)."""
        g = self.geometry
        return ((u / g.file_spacing_mm + 0.5) * SQUARE_W_MM, (v / g.rank_spacing_mm + 0.5) * SQUARE_H_MM)

    def render_of_xy(self, x: float, y: float) -> tuple[float, float]:
        """Render millimetres of a gantry point."""
        return self.render_of_uv(*self.uv_of_xy(x, y))

    def render_of_spot(self, spot: Spot) -> tuple[float, float]:
        """Render millimetres of a location's centre (a square's centre plus its offset)."""
        if isinstance(spot, OnSquare):
            rank, col = divmod(spot.square, 9)
            return ((col + 0.5 + spot.dx) * SQUARE_W_MM, (rank + 0.5 + spot.dy) * SQUARE_H_MM)
        if isinstance(spot, OnStand):
            return self.render_of_uv(*self.geometry.stands[spot.side].slot_uv(spot.kind, spot.index))
        assert self.geometry.flip_station_uv is not None
        return self.render_of_uv(*self.geometry.flip_station_uv)

    def spots(self) -> list[tuple[Spot, tuple[float, float]]]:
        """Every reachable location with its gantry x/y."""
        return list(self._spots)

    def _all_spots(self) -> list[tuple[Spot, tuple[float, float]]]:
        g = self.geometry
        found: list[tuple[Spot, tuple[float, float]]] = []
        for index in range(81):
            rank, col = divmod(index, 9)
            found.append((OnSquare(index), g.transform.apply(col * g.file_spacing_mm, rank * g.rank_spacing_mm)))
        for side in Side:
            for kind in HAND_KINDS:
                for i in range(SLOTS_PER_KIND[kind]):
                    found.append((OnStand(side, kind, i), g.slot_xy(side, kind, i)))
        if g.flip_station_uv is not None:
            found.append((AtFlipStation(), g.flip_station_xy()))
        return found

    def spot_under(self, x: float, y: float, tolerance_mm: float) -> tuple[Spot, float, float] | None:
        """The location whose centre is within `tolerance_mm` of (x, y), with the head's offset from that centre
        (du, dv in board-frame mm); None when there is none."""
        best: tuple[float, Spot, float, float] | None = None
        u, v = self.uv_of_xy(x, y)
        for spot, (sx, sy) in self._spots:
            distance = math.hypot(sx - x, sy - y)
            if distance <= tolerance_mm and (best is None or distance < best[0]):
                su, sv = self.uv_of_xy(sx, sy)
                best = (distance, spot, u - su, v - sv)
        return None if best is None else best[1:]
