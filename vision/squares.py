"""Cutting the 81 square crops out of a frame, given where the grid lies.

The board is rectified once into a square image with `CELL` pixels per square and a margin of `MARGIN` squares
round it; each square's crop is its cell plus that margin on every side (`CROP` × `CROP` pixels, BGR), so a
piece sitting off centre or turned still lies inside. Crops come out in SFEN order (9a first, 1i last) as seen
from sente, whatever the board's rotation in the image.

Tried on 2026-12-01 and not kept, each under a rule fixed before any figure of it (the development suite's squares,
at least 15 more right in all, no family 3 fewer; one look at the `plain` family, 40 frames, seed 77, allowed to stop
it): crops cut from the plane of the pieces' faces, 7.5 mm above the board (the camera worked out from the grid's
homography alone: focal length within 5 % of the renderer's at tilts of 30-45 degrees, the raised grid's corners
0.6 px from the true ones), 3138 -> 3101 squares right, worse at every tilt (30-45 degrees: 2.64 -> 4.15 % wrong);
and each square holding ink cut centred on its ink (lines masked, at most 6 px off), 3138 -> 3132. The classifier
was trained on crops cut at the grid, pieces off centre and seen with parallax; and the shipped reader's errors are
no more common at steep views (0-15 degrees 5.25 %, 30-45 degrees 2.64 % there): it is the faces, not the cut.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from vision.board import BoardGeometry, Image
from vision.line_support import GRID_CORNERS

CROP = 48
"""Side of one square's crop in pixels."""
MARGIN = 0.1
"""Extra border round each square in the crop, as a fraction of a square."""
CELL = CROP / (1 + 2 * MARGIN)
"""Pixels per square in the rectified board."""


def rectified_board(image: Image, geometry: BoardGeometry, beyond: int = 0) -> Image:
    """The board seen square-on from sente's side: 9 squares plus the margin, CELL pixels per square; `beyond`:
    with that many squares more on every side (the grid's lines carried on outwards), at the same scale."""
    pad = MARGIN * CELL
    side = round(9 * CELL + 2 * pad)
    corners = geometry.corners.astype(np.float64)
    span = max(np.linalg.norm(corners[0] - corners[2]), np.linalg.norm(corners[1] - corners[3])) / np.sqrt(2)
    shrink = min(1.0, 1.5 * side / max(span, 1.0))
    if shrink < 0.99:  # avoid aliasing: bring the frame near the rectified scale first
        image = cv2.resize(image, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA)
        corners = corners * shrink
    target = ((GRID_CORNERS + beyond) * CELL + pad - 0.5).astype(np.float32)  # turning the image by 180° turns the grid
    matrix = cv2.getPerspectiveTransform(corners.astype(np.float32), target)
    size = side + 2 * round(beyond * CELL)
    warped = cv2.warpPerspective(image, matrix, (size, size), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return np.asarray(warped, dtype=np.uint8)


def square_crops(board: Image, shift: tuple[int, int] = (0, 0), squares: Sequence[int] | None = None) -> Image:
    """81 crops (81 × CROP × CROP × channels) in SFEN order from a rectified board, or those of `squares` (SFEN-order
    indices) in their order, optionally cut `shift` pixels (x, y) off their places (at most a few pixels; the
    board's edge pixels are repeated)."""
    dx, dy = shift
    reach = max(abs(dx), abs(dy))
    if reach:
        board = cv2.copyMakeBorder(board, reach, reach, reach, reach, cv2.BORDER_REPLICATE)
    chosen = range(81) if squares is None else squares
    crops = np.empty((len(chosen), CROP, CROP, *board.shape[2:]), dtype=np.uint8)
    for n, index in enumerate(chosen):
        row, col = divmod(index, 9)
        x0, y0 = round(col * CELL) + reach + dx, round(row * CELL) + reach + dy
        crops[n] = board[y0 : y0 + CROP, x0 : x0 + CROP]
    return crops


def crops_from_frame(image: Image, geometry: BoardGeometry) -> Image:
    """The 81 square crops of a frame."""
    return square_crops(rectified_board(image, geometry))
