"""The motion gate: a cheap per-frame test that tells when the scene has stopped moving.

Each frame is shrunk to a thumbnail (sampling every few pixels, then area-averaging to `THUMB`), turned gray and
compared with the previous thumbnail. A frame counts as still when few thumbnail pixels changed by more than
`pixel_delta` gray levels; the gate reports stable once `still_frames` still frames have followed each other,
so the full read runs only on frames where nothing (no hand, no piece) is moving.
"""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.board import Image, to_gray

THUMB = (80, 60)
"""Thumbnail size (width, height) that frames are compared at."""


class MotionGate:
    """Feed every frame to `update`; it returns True while the scene is still."""

    def __init__(self, pixel_delta: int = 14, max_changed: float = 0.004, still_frames: int = 2) -> None:
        if pixel_delta <= 0 or not 0.0 <= max_changed < 1.0 or still_frames < 1:
            raise ValueError("motion gate: pixel_delta > 0, 0 <= max_changed < 1 and still_frames >= 1 required")
        self._delta = pixel_delta
        self._max_changed = max_changed
        self._needed = still_frames
        self._previous: NDArray[np.int16] | None = None
        self._still = 0
        self.changed = 1.0
        """Fraction of thumbnail pixels that changed at the last update."""

    def update(self, frame: Image) -> bool:
        """Take the next frame; True when the last `still_frames` frames showed no motion."""
        thumb = self.thumbnail(frame)
        if self._previous is None or self._previous.shape != thumb.shape:
            self._previous, self._still, self.changed = thumb, 0, 1.0
            return False
        moved = np.abs(thumb - self._previous) > self._delta
        self.changed = float(np.count_nonzero(moved)) / moved.size
        self._previous = thumb
        self._still = self._still + 1 if self.changed <= self._max_changed else 0
        return self._still >= self._needed

    def reset(self) -> None:
        """Forget the history (the next frame starts a new stillness count)."""
        self._previous, self._still, self.changed = None, 0, 1.0

    @staticmethod
    def thumbnail(frame: Image) -> NDArray[np.int16]:
        """The gray thumbnail a frame is compared at."""
        h, w = frame.shape[:2]
        step = max(1, min(h // (THUMB[1] * 2), w // (THUMB[0] * 2)))
        sampled = frame[::step, ::step]
        small = cv2.resize(sampled, THUMB, interpolation=cv2.INTER_AREA)
        return to_gray(np.asarray(small, dtype=np.uint8)).astype(np.int16)
