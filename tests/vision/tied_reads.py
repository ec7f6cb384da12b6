"""A stand-in classifier for the tests of the reader's priors (`vision.label_prior`, `vision.square_prior`): one
square read near a tie, every other square surely empty."""

from __future__ import annotations

import numpy as np

from vision.classifier import Prediction
from vision.labels import EMPTY_INDEX, SQUARE_LABELS


def row(**probs: float) -> np.ndarray:
    """A 29-label probability row (`promoted_X` stands for `+X`)."""
    out = np.zeros(len(SQUARE_LABELS))
    for label, p in probs.items():
        out[SQUARE_LABELS.index(label.replace("promoted_", "+"))] = p
    return out


class TiedClassifier:
    """Reads `square` (SFEN index) of a full board's crops as `tied`, every other square as surely empty."""

    def __init__(self, square: int, tied: np.ndarray) -> None:
        self._square, self._tied = square, tied

    def predict(self, crops: np.ndarray, *, features: bool = True, skip_sure_empty: bool = False) -> Prediction:
        """The classifier's interface, as the reader calls it."""
        n = len(crops)
        probs = np.zeros((n, len(SQUARE_LABELS)))
        probs[:, EMPTY_INDEX] = 1.0
        if n == 81:
            probs[self._square] = self._tied
        return Prediction(probs, np.zeros(n), np.zeros(n), np.zeros((n, 2), np.float32))
