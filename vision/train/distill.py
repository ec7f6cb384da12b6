"""Distillation for `train_classifier --teacher` (training only): a classifier's readings of the training crops,
which a student network learns beside the labels (soft targets at a temperature, Hinton et al. 2015).

The teacher is a model file read as the reader reads one crop (`vision.classifier.PieceClassifier`: both networks
of a joined model, no turned second look), its reading spread over the 31 network classes (the 29 square labels,
sideways, unreadable). A batch turns half its crops by 180 degrees (`train_classifier.batches`): their teacher
readings are permuted the same way (`OWNER_SWAP`; the teacher was trained symmetric, so this is its reading of the
turned crop up to its own asymmetry); crops turned sideways have no teacher reading and learn from the label alone.

Owns: `teacher_log_probs`, `turned_soft`, `distill_loss`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from vision.classifier import OWNER_SWAP, PieceClassifier
from vision.train.synth import N_CLASSES, SIDEWAYS

CHUNK = 4096
"""Crops the teacher reads per call (its own batches are smaller: `vision.classifier.CHUNKS`)."""
FLOOR = 1e-8
"""Smallest probability kept before the logarithm."""


def teacher_log_probs(model: Path, crops: NDArray[np.uint8], threads: int) -> NDArray[np.float32]:
    """N × 31 log-probabilities of the `model` file's reading of each crop over the network classes."""
    import cv2

    cv2.setNumThreads(threads)
    teacher = PieceClassifier(model, second_look=False)
    out = np.empty((len(crops), N_CLASSES), np.float32)
    for start in range(0, len(crops), CHUNK):
        reading = teacher.predict(crops[start : start + CHUNK], features=False)
        labels = reading.probs * (1.0 - reading.sideways - reading.unreadable)[:, None]
        full = np.concatenate([labels, reading.sideways[:, None], reading.unreadable[:, None]], axis=1)
        out[start : start + CHUNK] = np.log(np.maximum(full, FLOOR))
    return out


def turned_soft(
    soft: NDArray[np.float32], turned: NDArray[np.bool_], sideways: NDArray[np.bool_]
) -> NDArray[np.float32]:
    """A batch's teacher log-probabilities after its augmentation: rows of crops turned by 180 degrees permuted as
    their labels are (`OWNER_SWAP`), rows of crops turned sideways certain of `SIDEWAYS` (the label alone)."""
    out = soft.copy()
    out[turned] = soft[turned][:, OWNER_SWAP]
    out[sideways] = np.log(FLOOR)
    out[sideways, SIDEWAYS] = 0.0
    return out


def distill_loss(logits: Any, targets: Any, soft: Any, *, alpha: float, temperature: float, smoothing: float) -> Any:
    """(1 - alpha) × the labels' cross-entropy (label smoothing `smoothing`) + alpha × temperature² × the
    Kullback-Leibler divergence of the student's tempered distribution from the teacher's (torch tensors)."""
    from torch.nn import functional

    hard = functional.cross_entropy(logits, targets, label_smoothing=smoothing)
    teacher = functional.softmax(soft / temperature, dim=1)
    student = functional.log_softmax(logits / temperature, dim=1)
    kl = functional.kl_div(student, teacher, reduction="batchmean") * temperature**2
    return (1.0 - alpha) * hard + alpha * kl
