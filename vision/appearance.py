"""Appearance features of square crops for a piece-set calibration: what the set's own faces look like.

The generic classifier's features were learnt on other sets; a calibration also describes the crops directly.
The kanji's ink is the part of a face that tells the kinds apart, and the one part whose look does not flip with
the board: a piece is lighter than one board and darker than another, but its strokes are always darker than
the piece round them. So the ink map is the black-hat (closing minus image) of the green channel, where black
and red ink are both dark, with a small disc: thin dark strokes (and the grid's lines, at the same places in
every crop) stand out, the steps at a piece's outline and the board's shading do not. Features: a histogram of
oriented gradients of the ink map (8-pixel cells, 9 orientations, 2×2-cell blocks, L2-Hys) and the ink's
redness (promoted faces are usually written in red), repeated `RED_COPIES` times so it carries some weight.
OpenCV 5 dropped `cv2.HOGDescriptor` from the main modules, hence the numpy HOG.
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.board import Image

CELL_PX = 8
"""HOG cell side in pixels (of a `vision.squares.CROP`-pixel crop). Finer cells do not read two-character faces
better (2026-11-27, `calib_eval --family plain2 --n 6`, calibrated squares on the rig / under other poses): 8 px
97.613 / 95.189 %, 6 px 97.572 / 94.849 % (weight 0.4: 97.284 / 93.103 %); 8 px with appearance weight 0 / 0.4:
97.078 / 95.360 %, 97.654 / 94.636 %. The appearance model alone (true-grid crops, one cut) reads occupied squares
right 84 % of the time on the rig but 59 % under other poses (one-character faces: 87 and 63 %): it describes the
calibration photo's pose, board and light, and helps mainly there."""
BINS = 9
"""Unsigned gradient orientations per cell."""
RED_COPIES = 4
"""Copies of the redness feature among the HOG's values."""
CHUNK = 96
"""Crops whose features are computed together (a board's 81 in one go; a crop's features do not depend on it)."""
_DISC = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
_GAP = 2
"""Rows between crops laid in one column: the disc's reach (its radius), so no crop's closing sees another."""


def ink_maps(crops: Image) -> NDArray[np.float32]:
    """N×H×W ink strength: black-hat of each crop's green channel (thin dark strokes bright).

    The crops are laid in one column with `_GAP` rows between them and closed in two calls (the gap black while
    dilating, white while eroding, so that it never wins a maximum or a minimum): exactly each crop's own
    black-hat (OpenCV's border never wins either), without 81 calls."""
    green = crops[..., 1] if crops.ndim == 4 else crops
    n, h, w = green.shape
    if n == 0:
        return np.zeros((0, h, w), np.float32)
    column = np.zeros((n, h + _GAP, w), np.uint8)
    column[:, :h] = green
    tall = column.reshape(n * (h + _GAP), w)
    closed = cv2.dilate(tall, _DISC)
    closed.reshape(n, h + _GAP, w)[:, h:] = 255
    closed = cv2.erode(closed, _DISC)
    black_hat = closed.reshape(n, h + _GAP, w)[:, :h].astype(np.float32)
    black_hat -= green
    return black_hat


def hog(maps: NDArray[np.float32]) -> NDArray[np.float32]:
    """N×D histograms of oriented gradients of N single-channel maps (cells of `CELL_PX`, `BINS` unsigned
    orientations with linear interpolation between bins, 2×2-cell blocks at a one-cell stride, L2-Hys)."""
    n, h, w = maps.shape
    rows, cols = h // CELL_PX, w // CELL_PX
    gx, gy = np.zeros_like(maps), np.zeros_like(maps)
    np.subtract(maps[:, :, 2:], maps[:, :, :-2], out=gx[:, :, 1:-1])
    np.subtract(maps[:, 2:, :], maps[:, :-2, :], out=gy[:, 1:-1, :])
    cut = (slice(None), slice(0, rows * CELL_PX), slice(0, cols * CELL_PX))
    gx, gy = gx[cut].ravel(), gy[cut].ravel()
    # OpenCV's polar form: about 40 times quicker than numpy's float32 arctan2 (0.14 against 5.7 ms for a
    # board's 81 crops here), angles within 0.01 degree of it; 0..2 pi, folded onto 0..pi (unsigned)
    magnitude, angle = (np.asarray(a, dtype=np.float32).ravel() for a in cv2.cartToPolar(gx, gy))
    np.subtract(angle, np.float32(np.pi), out=angle, where=angle >= np.pi)
    angle *= np.float32(BINS / np.pi)
    angle -= np.float32(0.5)  # -0.5..8.5: bin -1 is bin 8, bin 9 is bin 0
    low = np.floor(angle)
    to_high = magnitude * (angle - low)
    # slots -1..9 of each cell's histogram, as 11 slots from the cell's first; folded onto 0..8 below
    slot = _cell_index(n, rows, cols).ravel() + low.astype(np.intp)
    size = n * rows * cols * (BINS + 2)
    counts = np.bincount(slot, magnitude - to_high, size) + np.bincount(slot + 1, to_high, size)
    slots = counts.reshape(n, rows, cols, BINS + 2)
    cells = slots[..., 1:-1].copy()
    cells[..., BINS - 1] += slots[..., 0]
    cells[..., 0] += slots[..., -1]
    return _blocks(cells.astype(np.float32), rows, cols)


def _blocks(cells: NDArray[np.float32], rows: int, cols: int) -> NDArray[np.float32]:
    """N×D: the cells' histograms gathered in 2×2-cell blocks at a one-cell stride, each L2-Hys normalised."""
    n = len(cells)
    blocks = np.concatenate(
        [cells[:, i : rows - 1 + i, j : cols - 1 + j] for i in (0, 1) for j in (0, 1)], axis=3
    ).reshape(n, -1, 4 * BINS)
    blocks = blocks / np.sqrt((blocks**2).sum(axis=2, keepdims=True) + 1e-3)
    blocks = np.minimum(blocks, 0.2)
    blocks = blocks / np.sqrt((blocks**2).sum(axis=2, keepdims=True) + 1e-6)
    return np.asarray(blocks.reshape(n, -1), dtype=np.float32)


@lru_cache(maxsize=4)
def _cell_index(n: int, rows: int, cols: int) -> NDArray[np.intp]:
    """n×(rows·CELL_PX)×(cols·CELL_PX): each pixel's cell number times BINS + 2, plus 1 (where its cell's
    histogram slot 0 lies among slots -1..9); read-only, kept for the next batch of the same size."""
    cell = np.arange(rows)[:, None] * cols + np.arange(cols)[None, :]
    per_pixel = np.repeat(np.repeat(cell, CELL_PX, axis=0), CELL_PX, axis=1)
    index = np.asarray((np.arange(n)[:, None, None] * rows * cols + per_pixel) * (BINS + 2) + 1, dtype=np.intp)
    index.flags.writeable = False
    return index


def redness(crops: Image, ink: NDArray[np.float32]) -> NDArray[np.float32]:
    """N: how much redder than green the ink is (mean of red minus green weighted by the squared ink strength,
    so that strokes count and sensor noise hardly does; /50)."""
    red_minus_green = crops[..., 2].astype(np.float32) - crops[..., 1]
    weight = ink * ink
    total = weight.sum(axis=(1, 2)) + 1e-3
    return np.asarray((red_minus_green * weight).sum(axis=(1, 2)) / total / 50.0, dtype=np.float32)


def appearance_features(crops: Image) -> NDArray[np.float32]:
    """N×D appearance features of N BGR crops: HOG of the ink map, then the ink's redness (`RED_COPIES`).
    Computed `CHUNK` crops at a time (a calibration's thousands of crops would need hundreds of MB at once)."""
    if len(crops) == 0:
        return np.zeros((0, 0), np.float32)
    if len(crops) > CHUNK:
        return np.concatenate([appearance_features(crops[k : k + CHUNK]) for k in range(0, len(crops), CHUNK)])
    ink = ink_maps(crops)
    red = np.repeat(redness(crops, ink)[:, None], RED_COPIES, axis=1)
    return np.hstack([hog(ink), red]).astype(np.float32)
