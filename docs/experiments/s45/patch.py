"""Session 45's candidate as it was judged: `vision.grid_fit._equal_spacing` replaced in place (the coarse search on
the smoothed profile). The same code is now `vision.grid_fit` itself (`COARSE_SIGMA`); this file shows what
`run_grid.py cand` ran against the baseline at 107ed85."""

import cv2
import numpy as np

from vision import grid_fit

SIGMA = 1.5


def _equal_spacing(profile: np.ndarray, min_fill: float) -> np.ndarray | None:
    n = len(profile)
    inner = n - 2 * grid_fit.PAD
    smooth = cv2.GaussianBlur(
        profile.reshape(1, -1).astype(np.float64), (0, 0), sigmaX=SIGMA, borderType=cv2.BORDER_REPLICATE
    ).ravel()
    coarse = grid_fit._spacing_search(smooth, np.arange(min_fill * inner / 9, (n - 2) / 9, 0.5), None, 1.0)
    if coarse is None:
        return None
    d0, s0 = coarse
    fine = grid_fit._spacing_search(profile, np.arange(d0 - 0.5, d0 + 0.51, 0.1), (s0 - 1.0, s0 + 1.0), 0.2)
    if fine is None:
        return None
    d, start = fine
    return np.asarray(start + d * np.arange(10, dtype=np.float64))


grid_fit._equal_spacing = _equal_spacing  # type: ignore[assignment]
