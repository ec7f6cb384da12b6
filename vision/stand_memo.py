"""Reading a piece stand again only when its picture changed: the reader's memory of each stand's count.

Counting a stand (ink peaks, a window per peak through the classifier, the windows merged) is about half of what a
still frame costs the reader once the squares are remembered (`vision.square_memo`): 12 ms of 25 ms on a frame with
both stands in view, here. Between moves a stand's picture does not change. `StandMemo` keeps, per stand, a
signature of the rectified stand picture its count was made on (8×8-pixel block means after centring and scaling
the picture by its own grey mean and spread, as `vision.square_memo.signatures` does for square crops) and the
count; a later frame whose stand picture stays within `delta` of it in every block gets that count without being
counted again. A count is only reused once two reads of the same picture agreed on it: a one-frame miscount (a
peak missed, a window misread) is not kept for good, it is read again until two reads agree, as the reconciler's
vote over frames had it before. Any two of the picture's last `RECALLED` reads may agree, not only the last two: a
stand whose count flickers between two values (a crowded row, a face read one way and the other) settles at the
third read instead of being counted again on every frame (20 development positions read 8 times each, stands
counted again per read after the second: 8, 4, 4, 4, 3, 3 when only the last two could agree). A stand that could
not be read (None: covered, out of view) is never remembered.
The memo is forgotten with the squares' memo (grid found again, new calibration, reset).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from vision.board import Image
from vision.hand_fit import StandPieces
from vision.square_memo import BLOCK, DELTA, signatures


def picture_signature(picture: Image, block: int = BLOCK) -> NDArray[np.float32]:
    """`vision.square_memo.signatures` of one picture of any size, its sides cut down to multiples of `block`."""
    h, w = (picture.shape[0] // block) * block, (picture.shape[1] // block) * block
    if h == 0 or w == 0:
        raise ValueError(f"a picture of {picture.shape[1]}x{picture.shape[0]} pixels has no {block}-pixel block")
    return np.asarray(signatures(picture[None, :h, :w], block)[0], dtype=np.float32)


RECALLED = 4
"""Reads of an unchanged stand picture whose counts a new read may agree with."""


@dataclass
class _Kept:
    signature: NDArray[np.float32]
    pieces: StandPieces
    earlier: tuple[dict[str, int], ...] = ()
    """The counts of the picture's reads before this one (the latest last, at most `RECALLED` - 1)."""

    @property
    def agreed(self) -> bool:
        """Whether this read's count is one an earlier read of the picture made too."""
        return self.pieces.counts in self.earlier


class StandMemo:
    """The last count of each stand and the signature of the picture it was made on."""

    def __init__(self, delta: float = DELTA, block: int = BLOCK) -> None:
        if delta <= 0 or block < 1:
            raise ValueError("stand memo: delta > 0 and block >= 1 required")
        self._delta, self._block = delta, block
        self._kept: dict[str, _Kept] = {}
        self.counted = 0
        """Stands counted (not taken from the memo) since this memo was made."""

    def forget(self) -> None:
        """Drop every stand's count (each is counted again at its next frame)."""
        self._kept.clear()

    def count(self, side: str, stand: Image, read: Callable[[Image], StandPieces | None]) -> StandPieces | None:
        """The pieces of `side`'s rectified stand picture: the remembered reading while the picture is the same as
        the one two reads agreeing on the count were made on, else `read(stand)` (remembered unless None)."""
        signature = picture_signature(stand, self._block)
        kept = self._kept.get(side)
        same = kept is not None and kept.signature.shape == signature.shape
        if kept is not None and same and kept.agreed and self._within(kept.signature, signature):
            return kept.pieces
        pieces = read(stand)
        self.counted += 1
        if pieces is None:
            self._kept.pop(side, None)
            return None
        if kept is not None and same and self._within(kept.signature, signature):
            earlier = (*kept.earlier, kept.pieces.counts)[-(RECALLED - 1) :]
            self._kept[side] = _Kept(kept.signature, pieces, earlier)
        else:
            self._kept[side] = _Kept(signature, pieces)
        return pieces

    def _within(self, before: NDArray[np.float32], now: NDArray[np.float32]) -> bool:
        return float(np.abs(now - before).max()) <= self._delta
