"""The camera side of the loop: one frame at a time through the motion gate and, when the scene is still, the board
reader, into the reconciler's `Observation`.

Owns: `CameraEyes` (frame source + motion gate + reader + `controller.vision_adapter`), the last frame (for the
web page and the final picture) and counts of frames and reads. Frames while something moves are not read:
they become an observation marked unstable, which empties the reconciler's evidence window. The robot's own arm
counts as something moving for as long as the gantry executes a move (`arm_busy`): a half-made move is never
read, whatever the motion gate makes of a head that pauses over the board.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

import numpy as np

from controller.reconcile.labels import N_LABELS
from controller.reconcile.types import Observation
from controller.vision_adapter import BoardReadLike, observation_from_read


class FrameSource(Protocol):
    """A camera: the next frame (a BGR image), or None when there is none (yet)."""

    def read(self) -> Any:
        """The next frame."""
        ...


class Gate(Protocol):
    """`vision.motion.MotionGate`: True while the scene is still."""

    def update(self, frame: Any) -> bool:
        """Take the next frame."""
        ...


class Reader(Protocol):
    """`vision.reader.BoardReader`."""

    def read(self, image: Any) -> BoardReadLike:
        """Read one frame."""
        ...


def unstable(now: float) -> Observation:
    """The observation of a frame the motion gate refused (its probabilities are never used)."""
    return Observation(np.full((81, N_LABELS), 1.0 / N_LABELS), None, 0.0, frozenset(), False, now)


class CameraEyes:
    """Frames in, observations out."""

    def __init__(self, source: FrameSource, gate: Gate, reader: Reader, min_confidence: float | None = None) -> None:
        """`min_confidence`: the reader's own threshold, so that only squares it cannot see are hidden."""
        self._source, self._gate, self._reader = source, gate, reader
        self._min_confidence = min_confidence
        self.arm_busy: Callable[[], bool] = lambda: False
        """True while the robot's own arm is moving over the board: frames are then not read."""
        self.last_frame: Any = None
        self.last_read: BoardReadLike | None = None
        self.frames = 0
        self.reads = 0

    @property
    def reader(self) -> Reader:
        """The board reader (the page's calibrations teach it)."""
        return self._reader

    def look(self, now: float) -> Observation | None:
        """The observation of the next frame, or None when the source gave none."""
        frame = self._source.read()
        if frame is None:
            return None
        self.frames += 1
        self.last_frame = frame
        if not self._gate.update(frame) or self.arm_busy():
            return unstable(now)
        read = self._reader.read(frame)
        self.reads += 1
        self.last_read = read
        return observation_from_read(read, stable=True, now=now, min_confidence=self._min_confidence)
