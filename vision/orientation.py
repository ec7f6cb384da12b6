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

SIDES: dict[str, tuple[float, float]] = {
    "bottom": (0.0, 1.0),
    "top": (0.0, -1.0),
    "left": (-1.0, 0.0),
    "right": (1.0, 0.0),
}
"""Image directions of the sides sente may sit at."""
_SENTE = np.array([label.lstrip("+").isupper() for label in PIECE_LABELS])


def turns_for_side(geometry: BoardGeometry, side: str) -> int:
    """Quarter turns that put sente's edge (ranks i) towards the given image side."""
    if side not in SIDES:
        raise ValueError(f"unknown sente side {side!r} (expected one of {', '.join(SIDES)})")
    direction = np.array(SIDES[side])
    centre = geometry.corners.mean(axis=0)
    scores = []
    for k in range(4):
        corners = geometry.rotated(k).corners
        edge_mid = (corners[2] + corners[3]) / 2 - centre
        scores.append(float(edge_mid @ direction) / (float(np.linalg.norm(edge_mid)) + 1e-9))
    return int(np.argmax(scores))


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
