"""Which of the grid's four rotations is sente's: from a setting, or from the pieces themselves.

A found grid (`vision.board`) has its corners in image order; `quarter_turns` picks which corner is 9a.
From the pieces: if most pieces look sideways to the classifier, the grid's axes are swapped (one quarter turn);
then each side's pieces stand mostly on its own half of the board (owner votes weighted by rank), which decides
between the two remaining rotations. A setting (`sente_side` = the image side sente sits at) overrides both.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from vision.board import BoardGeometry
from vision.labels import PIECE_LABELS

SIDES: dict[str, float] = {"bottom": 90.0, "right": 0.0, "top": -90.0, "left": 180.0}
"""Image directions (degrees, atan2 of image dy, dx: 0 = right, 90 = down) of the sides sente may sit at."""
_SENTE = np.array([label.lstrip("+").isupper() for label in PIECE_LABELS])


def turns_for_side(geometry: BoardGeometry, side: str | float) -> int:
    """Quarter turns that put sente's edge (ranks i) towards an image side (`bottom`, ...) or direction (deg)."""
    if isinstance(side, str):
        if side not in SIDES:
            raise ValueError(f"unknown sente side {side!r} (expected one of {', '.join(SIDES)})")
        side = SIDES[side]
    angle = np.radians(side)
    direction = np.array([np.cos(angle), np.sin(angle)])
    centre = geometry.corners.mean(axis=0)
    scores = []
    for k in range(4):
        corners = geometry.rotated(k).corners
        edge_mid = (corners[2] + corners[3]) / 2 - centre
        scores.append(float(edge_mid @ direction) / (float(np.linalg.norm(edge_mid)) + 1e-9))
    return int(np.argmax(scores))


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


def owner_vote(probs: NDArray[np.float64]) -> float:
    """Positive when sente's pieces stand nearer ranks i and gote's nearer ranks a (as sente's view should be)."""
    rows = np.repeat(np.arange(9, dtype=np.float64) - 4.0, 9)
    sente = probs[:, : len(PIECE_LABELS)][:, _SENTE].sum(axis=1)
    gote = probs[:, : len(PIECE_LABELS)][:, ~_SENTE].sum(axis=1)
    return float(((sente - gote) * rows).sum())
