"""The generic piece classifier at run time: a small CNN in ONNX, run with OpenCV's DNN module (no PyTorch).

Input: square crops (`vision.squares.CROP` pixels, BGR uint8), normalised by `preprocess` (shared with training).
Output per crop: probabilities over the 29 square labels (`vision.labels.SQUARE_LABELS` order), the probability
that the crop shows a piece turned sideways (the grid's axes are swapped: used to decide the board's rotation),
the probability that it cannot be read (a hand over it, motion blur, black), and a feature vector (the
penultimate layer) that calibration compares with a user's own set.
The network is trained by `vision/train/train_classifier.py` on synthetic crops (`vision/train/synth.py`).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.board import Image
from vision.errors import ModelError
from vision.labels import SQUARE_LABELS

MODEL_PATH = Path(__file__).resolve().parent / "models" / "pieces.onnx"
N_LABELS = len(SQUARE_LABELS)


def preprocess(crops: Image) -> NDArray[np.float32]:
    """N×H×W×3 BGR crops -> N×3×H×W float32, each crop centred and scaled by its own brightness statistics."""
    n = len(crops)
    x = np.empty((n, 3, *crops.shape[1:3]), np.float32)
    x[...] = crops.transpose(0, 3, 1, 2)
    flat = x.reshape(n, -1)
    luma = flat.reshape(n, 3, -1).sum(axis=1) * np.float32(1 / 3)
    mean = luma.mean(axis=1)
    var = np.einsum("ij,ij->i", luma, luma) / luma.shape[1] - mean * mean
    flat -= mean[:, None]
    flat *= (1.0 / (np.sqrt(np.maximum(var, 0)) + 12.0))[:, None]
    return x


def softmax(logits: NDArray[np.float32]) -> NDArray[np.float64]:
    """Row-wise softmax."""
    z = logits.astype(np.float64) - logits.max(axis=1, keepdims=True)
    e = np.exp(z)
    return np.asarray(e / e.sum(axis=1, keepdims=True), dtype=np.float64)


@dataclass(frozen=True)
class Prediction:
    """Classifier output for N crops."""

    probs: NDArray[np.float64]
    """N×29 probabilities over SQUARE_LABELS (renormalised without the sideways class)."""
    sideways: NDArray[np.float64]
    """N probabilities that the crop shows a piece turned by 90°."""
    unreadable: NDArray[np.float64]
    """N probabilities that the square cannot be read (hand over it, motion blur, black or blown out)."""
    features: NDArray[np.float32]
    """N×D penultimate-layer features (for calibration)."""


class PieceClassifier:
    """The ONNX piece classifier loaded into OpenCV's DNN module."""

    def __init__(self, model_path: Path = MODEL_PATH) -> None:
        if not model_path.exists():
            raise ModelError(f"classifier model not found: {model_path}")
        try:
            self._net = cv2.dnn.readNetFromONNX(os.fspath(model_path), cv2.dnn.ENGINE_CLASSIC)
        except cv2.error as exc:
            raise ModelError(f"cannot load classifier model {model_path}: {exc}") from exc
        self._outputs = ["logits", "features"]

    def predict(self, crops: Image) -> Prediction:
        """Probabilities, sideways probability and features for a batch of crops."""
        if len(crops) == 0:
            return Prediction(np.zeros((0, N_LABELS)), np.zeros(0), np.zeros(0), np.zeros((0, 0), np.float32))
        self._net.setInput(preprocess(crops))
        logits, features = self._net.forward(self._outputs)
        full = softmax(np.asarray(logits))
        sideways, unreadable = full[:, N_LABELS], full[:, N_LABELS + 1]
        probs = full[:, :N_LABELS] / np.maximum(full[:, :N_LABELS].sum(axis=1, keepdims=True), 1e-12)
        feats = np.asarray(features, dtype=np.float32).reshape(len(crops), -1)
        return Prediction(probs, sideways, unreadable, feats)
