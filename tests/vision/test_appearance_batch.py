"""The appearance features' batch computation (`vision.appearance`) against their plain definitions: each
crop's own OpenCV black-hat, and a histogram of oriented gradients computed pixel by pixel."""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.appearance import BINS, CELL_PX, appearance_features, hog, ink_maps


def _crops(n: int, h: int, w: int, seed: int) -> np.ndarray:
    """Random BGR crops with strokes, flat patches and the extreme values 0 and 255 at their edges."""
    rng = np.random.default_rng(seed)
    crops = rng.integers(0, 256, (n, h, w, 3), dtype=np.uint8)
    for crop in crops:
        cv2.line(crop, (2, 3), (w - 3, h - 2), (0, 0, 0), 2)
        crop[: h // 3, : w // 3] = 255
        crop[-2:, :] = 0
    return crops


def _plain_hog(one: np.ndarray) -> np.ndarray:
    """The HOG of one map, pixel by pixel: central differences, unsigned angle split linearly between the two
    nearest of BINS bin centres (wrapping), 2×2-cell blocks at one-cell steps, L2-Hys."""
    h, w = one.shape
    rows, cols = h // CELL_PX, w // CELL_PX
    cells = np.zeros((rows, cols, BINS))
    for y in range(rows * CELL_PX):
        for x in range(cols * CELL_PX):
            gx = float(one[y, x + 1]) - float(one[y, x - 1]) if 0 < x < w - 1 else 0.0
            gy = float(one[y + 1, x]) - float(one[y - 1, x]) if 0 < y < h - 1 else 0.0
            angle = math.atan2(gy, gx) % math.pi * BINS / math.pi - 0.5
            low = math.floor(angle)
            share = angle - low
            magnitude = math.hypot(gx, gy)
            cells[y // CELL_PX, x // CELL_PX, low % BINS] += magnitude * (1 - share)
            cells[y // CELL_PX, x // CELL_PX, (low + 1) % BINS] += magnitude * share
    out = []
    for i in range(rows - 1):
        for j in range(cols - 1):
            block = np.concatenate([cells[i, j], cells[i, j + 1], cells[i + 1, j], cells[i + 1, j + 1]])
            block = np.minimum(block / math.sqrt((block**2).sum() + 1e-3), 0.2)
            out.append(block / math.sqrt((block**2).sum() + 1e-6))
    # the blocks' order: for every block position, cell (0,0), (0,1), (1,0), (1,1) of the block, bin by bin
    return np.concatenate(out)


def test_ink_maps_of_a_batch_are_each_crops_own_black_hat() -> None:
    """Crops closed together give exactly the black-hat OpenCV gives each crop alone (no crop's edge is seen by
    its neighbour's), for square, odd-sized and single crops."""
    for n, h, w in ((9, 48, 48), (4, 45, 51), (1, 48, 48)):
        crops = _crops(n, h, w, seed=h + n)
        disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
        alone = np.stack([cv2.morphologyEx(c[..., 1], cv2.MORPH_BLACKHAT, disc) for c in crops]).astype(np.float32)
        assert np.array_equal(ink_maps(crops), alone)


def test_hog_matches_the_pixel_by_pixel_definition() -> None:
    """The vectorised HOG equals a pixel-by-pixel one on maps with ragged edges, flat regions (no gradient) and
    horizontal edges (angles of exactly 0 and pi), to OpenCV's angle accuracy (its polar form gives angles within
    about 0.01 degree: 2e-4 in a normalised block, against values of 0.01-0.2)."""
    rng = np.random.default_rng(3)
    maps = rng.integers(0, 60, (3, 26, 35)).astype(np.float32)
    maps[1, :, :] = 7.0
    maps[1, 10:, :] = 90.0  # a horizontal edge: gradients straight down, and none elsewhere
    maps[2, :, 17:] = 0.0  # a vertical edge: angles of 0 and pi
    fast = hog(maps)
    for k in range(len(maps)):
        assert np.allclose(fast[k], _plain_hog(maps[k]), atol=2e-4)


def test_features_of_a_crop_do_not_depend_on_its_batch() -> None:
    """A crop's features are the same computed alone as among 199 others (a batch done in chunks)."""
    crops = _crops(200, 48, 48, seed=7)
    together = appearance_features(crops)
    assert together.shape[0] == 200
    for index in (0, 100, 199):
        assert np.array_equal(appearance_features(crops[index : index + 1])[0], together[index])
