"""CameraEyes: frames through the motion gate and the reader into observations."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from controller.reconcile.labels import N_LABELS
from controller.runner.eyes import CameraEyes


@dataclass
class _Square:
    reliable: bool = True
    label: str = "empty"
    p: float = 1.0


@dataclass
class _Read:
    board_found: bool = True
    squares: tuple[_Square, ...] = tuple(_Square() for _ in range(81))
    probs: np.ndarray = field(default_factory=lambda: np.full((81, N_LABELS), 1.0 / N_LABELS))
    hands: dict[str, dict[str, int]] | None = None


@dataclass
class _Reader:
    calls: int = 0

    def read(self, image: object) -> Any:
        self.calls += 1
        return _Read()


class _Gate:
    def __init__(self, still: bool) -> None:
        self.still = still

    def update(self, frame: object) -> bool:
        return self.still


class _Source:
    def read(self) -> np.ndarray:
        return np.zeros((4, 4, 3), dtype=np.uint8)


def test_still_frames_are_read_moving_ones_are_not() -> None:
    """A still frame is read into a stable observation; a moving one becomes an unstable one without a read."""
    reader = _Reader()
    still = CameraEyes(_Source(), _Gate(True), reader)
    moving = CameraEyes(_Source(), _Gate(False), reader)
    first, second = still.look(1.0), moving.look(2.0)
    assert first is not None and first.stable and first.time == 1.0
    assert second is not None and not second.stable
    assert reader.calls == 1 and still.reads == 1 and moving.frames == 1


def test_frames_are_not_read_while_the_robots_arm_moves() -> None:
    """While the gantry executes a move, frames count as moving even when the gate sees no motion."""
    reader = _Reader()
    eyes = CameraEyes(_Source(), _Gate(True), reader)
    eyes.arm_busy = lambda: True
    observation = eyes.look(0.5)
    assert observation is not None and not observation.stable and reader.calls == 0
