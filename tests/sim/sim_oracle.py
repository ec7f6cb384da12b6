"""A perfect board reader for testing the replay loop itself: it reports the VirtualBoard's ground truth, with
the squares the arm hides (per the renderer) marked unreliable. It is not the vision code and is never used as
evidence of what the real reader can do."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from controller.reconcile.labels import LABEL_INDEX, N_LABELS
from controller.sim import VirtualBoard, VirtualCamera


@dataclass(frozen=True)
class _Square:
    label: str
    p: float
    reliable: bool


@dataclass(frozen=True)
class _Read:
    probs: np.ndarray
    squares: tuple[_Square, ...]
    hands: dict[str, dict[str, int]]
    hidden: frozenset[int]
    board_found: bool = True


class OracleReader:
    """Reads the truth of the board the camera last rendered."""

    def __init__(self, board: VirtualBoard, camera: VirtualCamera) -> None:
        self.board, self.camera = board, camera

    def read(self, _frame: Any) -> _Read:
        labels, hands = self.board.ground_truth()
        hidden = self.camera.last.occluded_squares if self.camera.last is not None else frozenset()
        probs = np.full((81, N_LABELS), 0.002)
        for i, label in enumerate(labels):
            probs[i, LABEL_INDEX[label]] = 1.0
        probs /= probs.sum(axis=1, keepdims=True)
        by_side = {
            "b": {k: n for k, n in hands.items() if k.isupper()},
            "w": {k.upper(): n for k, n in hands.items() if k.islower()},
        }
        squares = tuple(_Square(label, float(probs[i].max()), i not in hidden) for i, label in enumerate(labels))
        return _Read(probs, squares, by_side, frozenset(hidden))
