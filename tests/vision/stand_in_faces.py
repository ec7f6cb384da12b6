"""Stand-in pieces for the tests of face matching (`vision.set_faces`, `vision.lookalikes`): a pale pentagon
pointing up (sente's) on a wooden square, with a few dark strokes for its character."""

from __future__ import annotations

import cv2
import numpy as np

from vision.squares import CROP

STROKES = {
    "G": [(16, 24, 32, 24), (24, 14, 24, 36)],
    "S": [(15, 15, 33, 33), (15, 33, 33, 15)],
    "N": [(14, 16, 34, 16), (14, 30, 34, 30), (24, 12, 24, 38)],
}
"""Stand-ins for three kinds' characters (lines in a CROP-pixel crop)."""


def piece(kind: str, *, shift: tuple[int, int] = (0, 0), turn: float = 0.0, light: float = 1.0) -> np.ndarray:
    """A sente piece of `kind` on a wooden square, optionally moved, turned and relit."""
    crop = np.full((CROP, CROP, 3), (90, 140, 180), np.uint8)
    pentagon = np.array([(24, 5), (36, 11), (39, 42), (9, 42), (12, 11)], np.int32)  # pointing up: sente's
    cv2.fillPoly(crop, [pentagon], (150, 200, 230))
    for x0, y0, x1, y1 in STROKES[kind]:
        cv2.line(crop, (x0, y0), (x1, y1), (20, 20, 20), 2)
    matrix = cv2.getRotationMatrix2D((CROP / 2, CROP / 2), turn, 1.0)
    matrix[:, 2] += shift
    moved = cv2.warpAffine(crop, matrix, (CROP, CROP), borderMode=cv2.BORDER_REPLICATE)
    return np.clip(moved.astype(np.float64) * light, 0, 255).astype(np.uint8)
