"""Where a grid's outer lines are, told from the board's edge: a plain rim of wood about half a square wide lies
beyond the outer grid lines, then the board ends. A grid found one line off in a direction (its outer "line"
on the rim or the table, the real outer line taken for the second) puts that edge about one square nearer on
one side and farther on the other. `rim_shift` says which one-line move, if any, puts the edge in the rim's
place on both sides, when the edge stands out; lines alone cannot tell when the rim or the table looks as much
like a line as the real outer line does.
"""

from __future__ import annotations

import warnings
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

FloatArray = NDArray[np.float64]

_T = np.round(np.arange(-1.1, 2.051, 0.05), 2)  # offsets beyond an outer line, in squares (outwards > 0)
_ALONG = np.linspace(0.5, 8.5, 33)  # where along each outer line the profile is sampled (squares)
_STEP = 5  # samples either side of a brightness step (a quarter square)
RIM_BAND = (0.2, 0.75)
"""How far beyond the outer grid line the board's edge may lie, in squares (real boards: about 0.3-0.6)."""
MIN_STEP = 8.0
"""Gray levels the edge must step by, summed over the two sides, for the rim to say anything ..."""
MIN_RATIO = 1.4
"""... and by this factor more than for the next best placement."""


def side_profiles(gray: NDArray[Any], homography: FloatArray) -> FloatArray:
    """Median brightness across each outer line at offsets `_T` (4 × len(_T): beyond x=0, x=9, y=0, y=9), NaN
    where the profile leaves the picture."""
    tt, aa = np.meshgrid(_T, _ALONG, indexing="ij")
    sides = [np.stack([-tt, aa], -1), np.stack([9 + tt, aa], -1), np.stack([aa, -tt], -1), np.stack([aa, 9 + tt], -1)]
    pts = np.stack(sides).reshape(-1, 1, 2)
    img = cv2.perspectiveTransform(pts, homography).reshape(-1, 2).astype(np.float32)
    h, w = gray.shape[:2]
    inside = (img[:, 0] >= 0) & (img[:, 0] <= w - 1) & (img[:, 1] >= 0) & (img[:, 1] <= h - 1)
    values = cv2.remap(gray, img[:, 0].reshape(1, -1), img[:, 1].reshape(1, -1), cv2.INTER_LINEAR)
    flat = np.asarray(values, dtype=np.float64).reshape(-1)
    flat[~inside] = np.nan
    grid = flat.reshape(4, len(_T), len(_ALONG))
    known = np.isfinite(grid).sum(axis=2) >= len(_ALONG) // 2
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # all-NaN rows (outside the picture) are masked below
        median = np.nanmedian(grid, axis=2)
    return np.asarray(np.where(known, median, np.nan), dtype=np.float64)


def step_strength(profile: FloatArray) -> FloatArray:
    """Size of the brightness step at each offset (mean of the quarter square after minus before), 0 where the
    profile is unknown."""
    kernel = np.ones(_STEP) / _STEP
    ok = np.isfinite(profile)
    means = np.convolve(np.where(ok, profile, 0.0), kernel, mode="full")[_STEP - 1 : len(profile)]  # [j-k+1 .. j]
    known = np.convolve(ok.astype(np.float64), kernel, mode="full")[_STEP - 1 : len(profile)] > 0.999
    steps = np.zeros(len(profile))
    n = len(means)
    # step at sample j: mean of samples j..j+k-1 minus mean of j-k..j-1
    after, before = means[_STEP - 1 + _STEP : n], means[_STEP - 1 : n - _STEP]
    good = known[_STEP - 1 + _STEP : n] & known[_STEP - 1 : n - _STEP]
    steps[_STEP : _STEP + len(after)] = np.where(good, np.abs(after - before), 0.0)
    return steps


def _band_max(steps: FloatArray, lo: float, hi: float) -> float:
    """Strongest step between offsets lo and hi."""
    inside = (lo - 1e-9 <= _T) & (hi + 1e-9 >= _T)
    return float(steps[inside].max()) if inside.any() else 0.0


def rim_scores(gray: NDArray[Any], corners: FloatArray) -> FloatArray:
    """Edge evidence (2 × 3: direction x then y; grid moved by -1, 0, +1 line) for the board's edge lying in
    the rim band beyond both outer lines of the moved grid."""
    grid = np.array([[0.0, 0.0], [9.0, 0.0], [9.0, 9.0], [0.0, 9.0]], dtype=np.float32)
    homography = np.asarray(cv2.getPerspectiveTransform(grid, corners.astype(np.float32)), dtype=np.float64)
    steps = [step_strength(p) for p in side_profiles(gray, homography)]
    lo_band, hi_band = RIM_BAND
    scores = np.zeros((2, 3))
    for axis in (0, 1):
        low, high = steps[2 * axis], steps[2 * axis + 1]
        for j, s in enumerate((-1, 0, 1)):
            scores[axis, j] = _band_max(low, lo_band - s, hi_band - s) + _band_max(high, lo_band + s, hi_band + s)
    return scores


def rim_shift(gray: NDArray[Any], corners: FloatArray) -> tuple[int | None, int | None]:
    """Per direction (x, y), the one-line move (-1, 0, +1) the board's edge clearly asks for, or None when the
    edge does not stand out (a picture cropped to the grid, a table the board's colour)."""
    scores = rim_scores(gray, corners)
    out: list[int | None] = []
    for axis in (0, 1):
        order = np.argsort(-scores[axis])
        best, second = scores[axis, order[0]], scores[axis, order[1]]
        clear = best >= MIN_STEP and best >= MIN_RATIO * second
        out.append(int(order[0]) - 1 if clear else None)
    return out[0], out[1]
