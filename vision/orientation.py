"""Which of the grid's four rotations is sente's: the axis from the pieces, the direction from a setting.

A found grid (`vision.board`) has its corners in image order; `quarter_turns` picks which corner is 9a. If most
pieces look sideways to the classifier, the grid's axes are swapped (one quarter turn). The remaining 180° choice
cannot come from one picture: turning the board by 180° turns every piece and so swaps every owner, which is
just as consistent a position (even the start position maps onto itself). It comes from a setting
(`sente_side`: the image side or direction sente sits at) or, by default, the side nearer the picture's bottom;
the controller can also settle it from the game's history.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from vision.board import BoardGeometry

SIDES: dict[str, float] = {"bottom": 90.0, "right": 0.0, "top": -90.0, "left": 180.0}
"""Image directions (degrees, atan2 of image dy, dx: 0 = right, 90 = down) of the sides sente may sit at."""


def turns_for_side(geometry: BoardGeometry, side: str | float, allowed: tuple[int, ...] = (0, 1, 2, 3)) -> int:
    """Quarter turns (among `allowed`) that put sente's edge (ranks i) nearest an image side (`bottom`, ...) or
    direction (degrees)."""
    if isinstance(side, str):
        if side not in SIDES:
            raise ValueError(f"unknown sente side {side!r} (expected one of {', '.join(SIDES)})")
        side = SIDES[side]
    angle = np.radians(side)
    direction = np.array([np.cos(angle), np.sin(angle)])
    centre = geometry.corners.mean(axis=0)
    scores = []
    for k in allowed:
        corners = geometry.rotated(k).corners
        edge_mid = (corners[2] + corners[3]) / 2 - centre
        scores.append(float(edge_mid @ direction) / (float(np.linalg.norm(edge_mid)) + 1e-9))
    return allowed[int(np.argmax(scores))]


def sente_direction(corners: NDArray[np.float64]) -> float:
    """Image direction (degrees) from the board's centre towards sente's edge, for corners 9a, 1a, 1i, 9i."""
    edge_mid = (corners[2] + corners[3]) / 2 - corners.mean(axis=0)
    return float(np.degrees(np.arctan2(edge_mid[1], edge_mid[0])))


def axes_swapped(probs: NDArray[np.float64], sideways: NDArray[np.float64]) -> bool:
    """True when the occupied squares mostly look like pieces turned by 90°."""
    occupied = (1.0 - probs[:, -1]) + sideways
    weight = float(occupied.sum())
    if weight < 1.0:
        return False
    return float((sideways * occupied).sum()) / weight > 0.5
