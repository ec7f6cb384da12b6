"""Radial lens distortion (one coefficient): warping a pinhole picture and mapping points the same way.

Model: an undistorted point u and its distorted picture point d (both in pixels, about the picture centre,
radius normalised by half the diagonal) satisfy u = d * (1 + k * |d|^2). k > 0 is barrel distortion (straight
lines bow outwards, typical of wide webcams), k < 0 pincushion. |k| up to about 0.15 is sensible.
"""

from __future__ import annotations

import math

import cv2
import numpy as np


def _centre_and_norm(size: tuple[int, int]) -> tuple[np.ndarray, float]:
    width, height = size
    return np.array([width / 2, height / 2]), math.hypot(width, height) / 2


def distort_image(image: np.ndarray, k: float) -> np.ndarray:
    """The picture as a lens with coefficient `k` would have drawn it (edges filled by replication)."""
    h, w = image.shape[:2]
    centre, norm = _centre_and_norm((w, h))
    ys, xs = np.indices((h, w), dtype=np.float32)
    dx, dy = (xs - centre[0]) / norm, (ys - centre[1]) / norm
    factor = 1.0 + k * (dx * dx + dy * dy)
    map_x = (centre[0] + dx * factor * norm).astype(np.float32)
    map_y = (centre[1] + dy * factor * norm).astype(np.float32)
    out: np.ndarray = cv2.remap(image, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return out


def distort_points(points: np.ndarray, size: tuple[int, int], k: float) -> np.ndarray:
    """Where undistorted picture points (Nx2 px) land in the distorted picture (Newton on the radius)."""
    if k == 0:
        return np.asarray(points, dtype=np.float64).copy()
    centre, norm = _centre_and_norm(size)
    u = (np.asarray(points, dtype=np.float64) - centre) / norm
    ru = np.linalg.norm(u, axis=1)
    rd = ru.copy()
    for _ in range(30):
        f = rd * (1 + k * rd * rd) - ru
        rd = rd - f / (1 + 3 * k * rd * rd)
    scale = np.divide(rd, ru, out=np.ones_like(ru), where=ru > 1e-12)
    out: np.ndarray = centre + u * scale[:, None] * norm
    return out
