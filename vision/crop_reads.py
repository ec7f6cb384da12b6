"""How the board reader and the stand counter read a batch of crops, in one place: the generic classifier, its
second network skipping the crops its first one reads as surely empty and its features asked for only when a
piece-set calibration will use them, then that calibration (`vision.reader.Calibrator`).

Owns: `predict_crops`, `calibrated`, `read_crops`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from vision.board import Image
from vision.classifier import PieceClassifier, Prediction

if TYPE_CHECKING:
    from vision.reader import Calibrator


def predict_crops(classifier: PieceClassifier, crops: Image, calibration: Calibrator | None) -> Prediction:
    """The classifier's reading of crops as the reader makes it (surely empty crops skipped by the wide network,
    features only with a calibration)."""
    return classifier.predict(crops, features=calibration is not None, skip_sure_empty=True)


def calibrated(prediction: Prediction, crops: Image, calibration: Calibrator | None) -> NDArray[np.float64]:
    """The calibration's probabilities for the crops `prediction` was made on (the classifier's without one)."""
    return calibration.adjust(prediction, crops) if calibration else prediction.probs


def read_crops(classifier: PieceClassifier, crops: Image, calibration: Calibrator | None) -> NDArray[np.float64]:
    """Probabilities of crops: `predict_crops`, then `calibrated`."""
    return calibrated(predict_crops(classifier, crops, calibration), crops, calibration)
