"""Reading only the squares that changed: the reader's memory of each square's last reading and its pixels.

Between two stable frames of a game almost every square looks the same: a move changes two to four of the 81.
`SquareMemo` keeps, for every square, a small signature of the crop it was last classified on (the crop cut into
8×8-pixel blocks, each block's mean colour after the crop is centred and scaled by its own brightness, as the
classifier's `preprocess` does, so a change of exposure alone is no change) together with what the classifier and
the calibration made of that crop. `changed(crops)` says which squares differ from their signature by more than
`delta` in some block, or were doubted (`doubt`: the reader could not vouch for their reading); only those are
classified again (`remember`), the others keep their reading. A doubtful verdict is never kept: a square read
"unreadable" or below the confidence threshold from a picture that then stays the same would otherwise keep
that verdict for good (benchmark game 3 stalled so: a square stayed "hidden" after the king left it). The
comparison is always with the crop a reading was made on, not with the previous frame, so a slow drift (light
moving over the board) still reaches `delta` and is read again.

`delta` is chosen on development games 404-407 of the game list (40 plies each; 301 squares whose piece changed and
120,551 unchanged squares between consecutive stable reads): a changed square moved its signature by at least 0.49
(1st percentile 0.63), an unchanged one by 0.020 (median) to 0.040 (99th percentile) under the virtual camera's
sensor noise and brightness drift; squares beside a piece set down off centre reach 0.6-1.5 (the crop's margin shows the
neighbour) and are read again. 0.15 leaves three times the noise and a third of the smallest real change. (Measured
with numpy's luma; the signature now takes OpenCV's grey for the crop's mean and spread, three times faster: on
game 404 again, changed squares at least 0.51, unchanged 0.018 median and 0.037 at the 99th percentile.)
The memo is forgotten whenever the grid is found again or the calibration changes (`BoardReader` does this).
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.board import Image, to_gray
from vision.classifier import Prediction

BLOCK = 8
"""Side, in crop pixels, of the blocks a crop's signature averages."""
DELTA = 0.15
"""Largest change of any block of a square's signature (in units of the crop's own brightness spread) that still
counts as the same picture."""


def signatures(crops: Image, block: int = BLOCK) -> NDArray[np.float32]:
    """N×H×W×C block means of N pictures of one size (sides multiples of `block`; H, W: blocks down and across),
    each picture centred and scaled by its own grey mean and spread (+12 grey levels, as the classifier's
    `preprocess`). About 3 ms for 81 square crops on one core."""
    n, height, width = crops.shape[:3]
    rows, cols = height // block, width // block
    stacked = np.ascontiguousarray(crops).reshape(n * height, width, -1)
    means = cv2.resize(stacked.astype(np.float32), (cols, n * rows), interpolation=cv2.INTER_AREA)
    gray = to_gray(stacked)
    stats = np.array([cv2.meanStdDev(gray[i * height : (i + 1) * height]) for i in range(n)], dtype=np.float32)
    centre, spread = stats[:, 0].reshape(n, 1, 1, 1), stats[:, 1].reshape(n, 1, 1, 1) + np.float32(12.0)
    blocks = means.reshape(n, rows, cols, -1)
    return np.asarray((blocks - centre) / spread, dtype=np.float32)


class SquareMemo:
    """The last reading of every square and the signature of the crop it was made on."""

    def __init__(self, delta: float = DELTA, block: int = BLOCK) -> None:
        if delta <= 0 or block < 1:
            raise ValueError("square memo: delta > 0 and block >= 1 required")
        self._delta, self._block = delta, block
        self._signatures: NDArray[np.float32] | None = None
        self._doubted: NDArray[np.bool_] | None = None
        self._prediction: Prediction | None = None
        self._probs: NDArray[np.float64] | None = None
        self.reread = 0
        """Squares read at the last frame: those `changed` found (all of them when nothing was remembered), or
        `remember`ed."""

    def forget(self) -> None:
        """Drop every reading (the next frame is read whole)."""
        self._signatures, self._prediction, self._probs, self._doubted = None, None, None, None

    def changed(self, crops: Image) -> NDArray[np.bool_]:
        """Which of the crops differ from the one their square was last read on (all, with nothing remembered or
        a different number of crops)."""
        if self._signatures is None or len(self._signatures) != len(crops):
            self.reread = len(crops)
            return np.ones(len(crops), dtype=bool)
        moved = np.abs(signatures(crops, self._block) - self._signatures)
        result = moved.reshape(len(crops), -1).max(axis=1) > self._delta
        if self._doubted is not None:
            result |= self._doubted
        self.reread = int(result.sum())
        return np.asarray(result, dtype=bool)

    def doubt(self, squares: NDArray[np.bool_]) -> None:
        """Read these squares again on the next frame whatever their pictures do (the reader could not vouch for
        their last reading: a verdict near its threshold must get the next frame's fresh look, not be kept)."""
        self._doubted = np.asarray(squares, dtype=bool).copy()

    def readings(self) -> tuple[Prediction, NDArray[np.float64]]:
        """Every square's remembered reading (ValueError when nothing is remembered)."""
        if self._prediction is None or self._probs is None:
            raise ValueError("square memo: nothing remembered yet")
        return self._prediction, self._probs

    def remember(
        self, crops: Image, changed: NDArray[np.bool_], prediction: Prediction, probs: NDArray[np.float64]
    ) -> tuple[Prediction, NDArray[np.float64]]:
        """Store the new readings of the `changed` squares (`prediction` and `probs` have one row per changed
        crop; with nothing remembered, every square must be among them) and return every square's reading."""
        fresh = signatures(crops[changed], self._block)
        self.reread = int(changed.sum())
        if self._signatures is None or self._prediction is None or self._probs is None or changed.all():
            if not changed.all():
                raise ValueError("square memo: the first reading must cover every square")
            self._signatures, self._prediction, self._probs = fresh, prediction, probs
            return prediction, probs
        self._signatures[changed] = fresh
        old = self._prediction
        self._prediction = Prediction(
            _replace(old.probs, changed, prediction.probs),
            _replace(old.sideways, changed, prediction.sideways),
            _replace(old.unreadable, changed, prediction.unreadable),
            _replace(old.features, changed, prediction.features),
        )
        self._probs = _replace(self._probs, changed, probs)
        return self._prediction, self._probs


def _replace(old: NDArray[Any], rows: NDArray[np.bool_], new: NDArray[Any]) -> NDArray[Any]:
    """A copy of `old` with the `rows` replaced by `new`'s rows in order (a copy: a reading handed out earlier
    stays as it was)."""
    out = old.copy()
    out[rows] = new
    return out
