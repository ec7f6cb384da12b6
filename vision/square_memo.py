"""Reading only the squares that changed: the reader's memory of each square's last reading and its pixels.

Between two stable frames of a game almost every square looks the same: a move changes two to four of the 81.
`SquareMemo` keeps, for every square, a small signature of the crop it was last classified on (the crop cut into
8×8-pixel blocks, each block's mean colour after the crop is centred and scaled by its own brightness, as the
classifier's `preprocess` does, so a change of exposure alone is no change) together with what the classifier and
the calibration made of that crop. `changed(crops)` says which squares differ from their signature by more than
`delta` in some block, or were doubted (`doubt`: the reader could not vouch for their reading); only those are
classified again (`remember`), the others keep their reading. A doubtful verdict gets `looks` reads of the same
picture (the first and fresh looks on later frames: a new frame's sensor noise can tip a verdict near its
threshold), and then is kept, still doubted, until the picture changes: by the signature, or by its mean grey
level (`BRIGHTNESS`; the signature ignores exposure, so a shadow leaving a square would otherwise go unseen).
Until 2026-11-28 a doubted square was classified again on every frame, whatever its picture did (added when
benchmark game 3 stalled on a square that stayed "hidden" after the king left it; that stall came back with every
square classified on every frame, and the reconciler's weighing of doubted squares, `Observation.doubted`, is what
ended it): the 10-30 squares of an unseen set that the reader cannot vouch for cost each still frame 20-25 ms of
CPU here, shifted looks included, for the same verdicts. The
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
LOOKS = 2
"""Reads a doubted square gets of one picture (its first and one fresh look) before its verdict is kept."""
BRIGHTNESS = 0.1
"""Change of a crop's mean grey level, as a fraction of the level it was last read at, that makes a doubted
square's picture a new one."""


def brightness(crops: Image) -> NDArray[np.float64]:
    """Mean level of each of N pictures (all channels)."""
    return np.asarray(crops.reshape(len(crops), -1).mean(axis=1), dtype=np.float64)


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

    def __init__(self, delta: float = DELTA, block: int = BLOCK, looks: int = LOOKS) -> None:
        if delta <= 0 or block < 1 or looks < 1:
            raise ValueError("square memo: delta > 0, block >= 1 and looks >= 1 required")
        self._delta, self._block, self._max_looks = delta, block, looks
        self._signatures: NDArray[np.float32] | None = None
        self._levels: NDArray[np.float64] | None = None
        self._looks: NDArray[np.intp] | None = None
        self._new_picture: NDArray[np.bool_] | None = None
        self._doubted: NDArray[np.bool_] | None = None
        self._prediction: Prediction | None = None
        self._probs: NDArray[np.float64] | None = None
        self.reread = 0
        """Squares read at the last frame: those `changed` found (all of them when nothing was remembered), or
        `remember`ed."""

    def forget(self) -> None:
        """Drop every reading (the next frame is read whole)."""
        self._signatures, self._prediction, self._probs, self._doubted = None, None, None, None
        self._levels, self._looks, self._new_picture = None, None, None

    def changed(self, crops: Image) -> NDArray[np.bool_]:
        """Which of the crops differ from the one their square was last read on (all, with nothing remembered or
        a different number of crops), or are doubted and still owed a look (`LOOKS`, `BRIGHTNESS`)."""
        if self._signatures is None or self._levels is None or len(self._signatures) != len(crops):
            self.reread = len(crops)
            self._new_picture = np.ones(len(crops), dtype=bool)
            return self._new_picture.copy()
        moved = np.abs(signatures(crops, self._block) - self._signatures)
        result = moved.reshape(len(crops), -1).max(axis=1) > self._delta
        if self._doubted is not None and self._looks is not None:
            relit = self._doubted & (np.abs(brightness(crops) - self._levels) > BRIGHTNESS * self._levels)
            self._new_picture = result | relit
            result = self._new_picture | (self._doubted & (self._looks < self._max_looks))
        else:
            self._new_picture = result.copy()
        self.reread = int(result.sum())
        return np.asarray(result, dtype=bool)

    def doubt(self, squares: NDArray[np.bool_]) -> None:
        """Read these squares again on the next frames, their pictures unchanged, until each has had `LOOKS` reads
        of its picture (the reader could not vouch for their last reading: a verdict near its threshold gets fresh
        looks before it is kept)."""
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
        levels = brightness(crops[changed])
        self.reread = int(changed.sum())
        looks = self._counted_looks(changed)
        if self._signatures is None or self._prediction is None or self._probs is None or changed.all():
            if not changed.all():
                raise ValueError("square memo: the first reading must cover every square")
            self._signatures, self._levels, self._prediction, self._probs = fresh, levels, prediction, probs
            self._looks = looks
            return prediction, probs
        self._signatures[changed] = fresh
        if self._levels is not None:
            self._levels[changed] = levels
        self._looks = looks
        old = self._prediction
        self._prediction = Prediction(
            _replace(old.probs, changed, prediction.probs),
            _replace(old.sideways, changed, prediction.sideways),
            _replace(old.unreadable, changed, prediction.unreadable),
            _replace(old.features, changed, prediction.features),
            _first_only(old, changed, prediction),
        )
        self._probs = _replace(self._probs, changed, probs)
        return self._prediction, self._probs

    def _counted_looks(self, changed: NDArray[np.bool_]) -> NDArray[np.intp]:
        """Reads of each square's picture, this frame's included: 1 where the picture is new (as `changed` found
        it; every square without one), one more where an unchanged picture was read again, as before elsewhere."""
        n = len(changed)
        new = self._new_picture if self._new_picture is not None and len(self._new_picture) == n else np.ones(n, bool)
        looks = self._looks if self._looks is not None and len(self._looks) == n else np.ones(n, np.intp)
        self._new_picture = None
        return np.asarray(np.where(changed & ~new, looks + 1, np.where(changed, 1, looks)), dtype=np.intp)


def _first_only(old: Prediction, rows: NDArray[np.bool_], new: Prediction) -> NDArray[np.bool_] | None:
    """`Prediction.first_only` of the merged reading (None when no crop of either was read by one network)."""
    if old.first_only is None and new.first_only is None:
        return None
    before = np.zeros(len(old.probs), bool) if old.first_only is None else old.first_only
    after = np.zeros(len(new.probs), bool) if new.first_only is None else new.first_only
    return _replace(before, rows, after)


def _replace(old: NDArray[Any], rows: NDArray[np.bool_], new: NDArray[Any]) -> NDArray[Any]:
    """A copy of `old` with the `rows` replaced by `new`'s rows in order (a copy: a reading handed out earlier
    stays as it was)."""
    out = old.copy()
    out[rows] = new
    return out
