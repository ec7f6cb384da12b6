"""How well a frame supports a grid: each grid line sampled at evenly spaced points, each point judged darker than
the points just beside the line (`LINE_OFF` of a square either side), and each line's fraction of such points.
`vision.board` searches for the grid that these fractions support best and checks a known grid with them.

Owns: `GRID_CORNERS`, `LINE_OFF`, `line_support`, `line_fractions`, `grid_samples`, `axis_lines`, `in_front`,
`looks_like_line`, `darkest_near`.
"""

from __future__ import annotations

import functools
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

FloatArray = NDArray[np.float64]
Image = NDArray[Any]

GRID_CORNERS = np.array([[0.0, 0.0], [9.0, 0.0], [9.0, 9.0], [0.0, 9.0]])
"""Grid coordinates of the corners 9a, 1a, 1i, 9i."""
LINE_OFF = 0.08
"""Where "beside the line" is, in squares."""


def line_support(gray: Image, corners: FloatArray, samples: int = 40) -> float:
    """Mean over the 20 grid lines of the fraction of their points darker than both points just aside."""
    return float(line_fractions(gray, corners, samples).mean())


def line_fractions(gray: Image, corners: FloatArray, samples: int = 40) -> FloatArray:
    """Per grid line (10 across the files, then 10 along), the fraction of sampled points that look like a
    line: darker by a few gray levels than the points 0.08 square to either side."""
    matrix = cv2.getPerspectiveTransform(GRID_CORNERS.astype(np.float32), corners.astype(np.float32))
    pts, aside = grid_samples(samples)
    line_like = looks_like_line(gray, np.asarray(matrix, dtype=np.float64), pts, aside)
    return np.asarray(line_like.reshape(20, samples).mean(axis=1), dtype=np.float64)


@functools.cache
def grid_samples(samples: int) -> tuple[FloatArray, FloatArray]:
    """`line_fractions`' points on the 20 grid lines (the 10 across the files, then the 10 along) and their steps
    aside, made once per sample count (read-only: every grid tried samples the same points)."""
    positions = np.arange(10, dtype=np.float64)
    rows, rows_aside = axis_lines(positions, 0, LINE_OFF, samples)
    cols, cols_aside = axis_lines(positions, 1, LINE_OFF, samples)
    pts, aside = np.concatenate([rows, cols]), np.concatenate([rows_aside, cols_aside])
    pts.setflags(write=False)
    aside.setflags(write=False)
    return pts, aside


def axis_lines(positions: FloatArray, axis: int, off: float, samples: int = 40) -> tuple[FloatArray, FloatArray]:
    """Grid points sampled along the lines y = p (axis 0) or x = p (axis 1) for p in `positions`, from 0 to 9
    (line by line), and for each the step across its line to the points `off` beside it."""
    t = (np.arange(samples) + 0.5) * 9.0 / samples
    tt, kk = np.meshgrid(t, positions)
    pts = np.stack([tt.ravel(), kk.ravel()], axis=1)
    aside = np.tile([0.0, off], (len(pts), 1))
    return (pts, aside) if axis == 0 else (pts[:, ::-1].copy(), aside[:, ::-1].copy())


def in_front(homography: FloatArray, pts: FloatArray) -> NDArray[np.bool_]:
    """Which grid points lie on the grid's side of the horizon (their image is not the mirror of a point behind
    the camera)."""
    w = pts @ homography[2, :2] + homography[2, 2]
    centre = float(homography[2, :2] @ np.array([4.5, 4.5]) + homography[2, 2])
    return np.asarray(w * centre > 0, dtype=np.bool_)


def looks_like_line(gray: Image, homography: FloatArray, pts: FloatArray, aside: FloatArray) -> NDArray[np.bool_]:
    """Whether each grid point looks like a point on a dark line: the darkest pixel near it darker by a few gray
    levels than both points `aside` either side, which must agree (noise does not). False outside the picture
    or beyond the horizon."""
    grid_pts = np.concatenate([pts, pts - aside, pts + aside])
    img_pts = cv2.perspectiveTransform(grid_pts.reshape(-1, 1, 2), homography).reshape(-1, 2)
    h, w = gray.shape[:2]
    xi = np.clip(np.round(img_pts[:, 0]).astype(int), 0, w - 1)
    yi = np.clip(np.round(img_pts[:, 1]).astype(int), 0, h - 1)
    inside = (img_pts[:, 0] >= 0) & (img_pts[:, 0] < w) & (img_pts[:, 1] >= 0) & (img_pts[:, 1] < h)
    inside &= in_front(homography, grid_pts)
    n = len(pts)
    v_on = darkest_near(gray, yi[:n], xi[:n]).astype(np.int16)  # the darkest pixel near the line ...
    v_a = gray[yi[n : 2 * n], xi[n : 2 * n]].astype(np.int16)  # ... against the points on either side,
    v_b = gray[yi[2 * n :], xi[2 * n :]].astype(np.int16)  # which must agree (noise does not)
    ok = inside[:n] & inside[n : 2 * n] & inside[2 * n :]
    dip = np.minimum(v_a, v_b) - v_on
    return np.asarray((dip > 3) & (np.abs(v_a - v_b) < dip) & ok, dtype=np.bool_)


def darkest_near(gray: Image, yi: NDArray[np.intp], xi: NDArray[np.intp]) -> Image:
    """The darkest pixel of each point's 3×3 neighbourhood inside the picture: what `cv2.erode` with a 3×3 kernel
    gives there, read at the points alone (a grid tried samples 800 points of a picture of 10^5 or more)."""
    h, w = gray.shape[:2]
    ys = np.clip(yi[:, None] + np.arange(-1, 2), 0, h - 1)
    xs = np.clip(xi[:, None] + np.arange(-1, 2), 0, w - 1)
    return np.asarray(gray[ys[:, :, None], xs[:, None, :]].reshape(len(yi), 9).min(axis=1))
