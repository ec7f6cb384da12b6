"""The generic piece classifier at run time: small CNNs in ONNX, run with OpenCV's DNN module (no PyTorch).

The shipped model is two networks of different widths joined in one graph (`vision.train.ensemble`): both read
each crop, their logits are averaged and their features set side by side, so this module runs it as one network.

Input: square crops (`vision.squares.CROP` pixels, BGR uint8), normalised by `preprocess` (shared with training).
Output per crop: probabilities over the 29 square labels (`vision.labels.SQUARE_LABELS` order), the probability
that the crop shows a piece turned sideways (the grid's axes are swapped: used to decide the board's rotation),
the probability that it cannot be read (a hand over it, motion blur, black), and a feature vector (the
penultimate layer) that calibration compares with a user's own set.
Owner symmetry: a piece turned by 180 degrees is the same kind of the other owner (`OWNER_SWAP`). Crops whose
reading is in doubt (owner split, or no clear top label) are read a second time turned by 180 degrees, and the
two readings are combined (normalised geometric mean); at most `MAX_SECOND_LOOKS` crops per batch, the most
doubtful first, so a clear board costs one forward pass and a bad one at most about 1.2. Batches run in chunks
of fixed sizes, each on a network of its own (`CHUNKS`), so that no network is re-planned for a new batch size
and a large batch (a calibration's) needs no large buffers; a crop's output does not depend on its batch.
The network is trained by `vision/train/train_classifier.py` on synthetic crops (`vision/train/synth.py`).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.board import Image
from vision.errors import ModelError
from vision.labels import SQUARE_LABELS

MODEL_PATH = Path(__file__).resolve().parent / "models" / "pieces.onnx"
N_LABELS = len(SQUARE_LABELS)
OWNER_SWAP = np.array([*range(14, 28), *range(14), 28, 29, 30])
"""Class index of each of the 31 network classes turned by 180 degrees (sente <-> gote; empty, sideways and
unreadable stay)."""
MAX_SECOND_LOOKS = 14
"""Chosen on rendered frames of training styles: more second looks gained nothing there."""
CHUNKS = (16, 8, 4, 2, 1)
"""Batch sizes the network runs at (powers of two, largest first: `chunk_sizes`). Chunks of at most 16 crops
(2026-11-28, with the joined model): the same outputs as chunks of up to 64, a forward pass of 81 crops about 1 ms
faster (24.4 -> 23.5 ms: here a crop costs less in a small batch than in a large one), and in `shogi-robot bench
vision` on the same frames, full read CPU median 43.5 -> 42.2 ms, read after a move 59.2 -> 55.2 ms, peak memory
271 -> 255 MB (two networks fewer to hold, and smaller buffers)."""
DOUBT = 0.97
"""A crop is in doubt when its top label or its owner (summed over kinds) is below this probability."""


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


def softmax(logits: NDArray[np.floating[Any]]) -> NDArray[np.float64]:
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

    def __init__(self, model_path: Path = MODEL_PATH, second_look: bool = True) -> None:
        if not model_path.exists():
            raise ModelError(f"classifier model not found: {model_path}")
        try:
            # One network per batch size of `CHUNKS`: OpenCV re-plans a network whenever its batch size changes
            # (the board's 81 crops, a stand's few, the second looks), and sizes its buffers to the batch.
            path = os.fspath(model_path)
            self._nets = {size: cv2.dnn.readNetFromONNX(path, cv2.dnn.ENGINE_CLASSIC) for size in CHUNKS}
        except cv2.error as exc:
            raise ModelError(f"cannot load classifier model {model_path}: {exc}") from exc
        self._second_look = second_look
        self._outputs = ["logits", "features"]

    def predict(self, crops: Image) -> Prediction:
        """Probabilities, sideways probability and features for a batch of crops."""
        if len(crops) == 0:
            return Prediction(np.zeros((0, N_LABELS)), np.zeros(0), np.zeros(0), np.zeros((0, 0), np.float32))
        full, features = self._forward(crops)
        if self._second_look:
            doubtful = doubtful_crops(full)
            if len(doubtful):
                again, _ = self._forward(np.ascontiguousarray(crops[doubtful, ::-1, ::-1]))
                full[doubtful] = combine(full[doubtful], again[:, OWNER_SWAP])
        sideways, unreadable = full[:, N_LABELS], full[:, N_LABELS + 1]
        probs = full[:, :N_LABELS] / np.maximum(full[:, :N_LABELS].sum(axis=1, keepdims=True), 1e-12)
        feats = np.asarray(features, dtype=np.float32).reshape(len(crops), -1)
        return Prediction(probs, sideways, unreadable, feats)

    def _forward(self, crops: Image) -> tuple[NDArray[np.float64], NDArray[np.float32]]:
        """Softmax over the 31 network classes and the features of a batch, run in chunks (`chunk_sizes`)."""
        x = preprocess(crops)
        logits, features, start = [], [], 0
        for size in chunk_sizes(len(crops)):
            net = self._nets[size]
            net.setInput(x[start : start + size])
            chunk_logits, chunk_features = net.forward(self._outputs)
            logits.append(np.asarray(chunk_logits))
            features.append(np.asarray(chunk_features, dtype=np.float32))
            start += size
        return softmax(np.concatenate(logits)), np.concatenate(features)


def chunk_sizes(n: int) -> list[int]:
    """Sizes from `CHUNKS` that add up to `n`, largest first (as many of the largest as fit, then n's binary
    digits): 81 -> 16, 16, 16, 16, 16, 1."""
    largest = CHUNKS[0]
    return [largest] * (n // largest) + [size for size in CHUNKS[1:] if (n % largest) & size]


def doubtful_crops(full: NDArray[np.float64]) -> NDArray[np.intp]:
    """Indices of the crops worth a second look (most doubtful first, at most MAX_SECOND_LOOKS)."""
    sente, gote = full[:, :14].sum(axis=1), full[:, 14:28].sum(axis=1)
    owner = np.maximum(sente, gote) / np.maximum(sente + gote, 1e-12)
    certainty = np.minimum(full.max(axis=1), np.where(sente + gote > 0.5, owner, 1.0))
    order = np.argsort(certainty, kind="stable")[:MAX_SECOND_LOOKS]
    return np.asarray(order[certainty[order] < DOUBT], dtype=np.intp)


def combine(a: NDArray[np.float64], b: NDArray[np.float64]) -> NDArray[np.float64]:
    """Normalised geometric mean of two readings of the same crops."""
    g = np.sqrt(np.maximum(a, 1e-12) * np.maximum(b, 1e-12))
    return np.asarray(g / g.sum(axis=1, keepdims=True), dtype=np.float64)
