"""The linear models a piece-set calibration is made of (`vision.calibration`): a softmax model over the generic
classifier's features, a shrunk linear discriminant over appearance features, and their JSON form (base64 float32
arrays).

Owns: `SetModel`, `fit_set_model`, `fit_appearance_model`, `model_json`, `model_from_json`.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from vision.classifier import softmax
from vision.labels import SQUARE_LABELS

_STEPS = 300  # gradient steps of the softmax fit
_RATE = 0.5
_DECAY = 3e-3  # L2 weight decay of the set model (see vision.calibration.SET_WEIGHT)
APPEARANCE_SHRINK = 0.5
"""Shrinkage of the appearance model's pooled covariance towards the identity (0.1 and 0.5 were near ties)."""


@dataclass(frozen=True)
class SetModel:
    """A softmax model over the classifier's features for one set: standardise, then weights and bias."""

    mean: NDArray[np.float32]
    scale: NDArray[np.float32]
    weights: NDArray[np.float32]
    """D×29 (SQUARE_LABELS order)."""
    bias: NDArray[np.float32]
    trained: NDArray[np.bool_]
    """Which labels had examples (the others keep the generic classifier's probability)."""

    def probs(self, features: NDArray[np.float32], generic: NDArray[np.float64]) -> NDArray[np.float64]:
        """N×29 probabilities: the generic probability for the labels the set model never saw, the set's model
        sharing out the rest among the labels it learned (`Calibration.adjust` then gives the unseen labels
        the generic classifier's share again: `_keep_unseen_mass`)."""
        z = (features.astype(np.float64) - self.mean) / self.scale
        learned = softmax(z @ self.weights + self.bias)
        untrained = ~self.trained
        unseen = generic[:, untrained]
        out = learned * self.trained * (1.0 - unseen.sum(axis=1, keepdims=True))
        out[:, untrained] = unseen
        return np.asarray(out / np.maximum(out.sum(axis=1, keepdims=True), 1e-12), dtype=np.float64)


def fit_set_model(features: NDArray[np.float32], targets: NDArray[np.int64], *, single: bool = False) -> SetModel:
    """Softmax regression (L2-regularised, every label weighted equally however many examples it has; plain
    gradient descent from zero, so deterministic) on examples; `single`: in single precision (about a quarter of
    the time; a set learnt again during a game, `refit`)."""
    kind = np.float32 if single else np.float64
    x = features.astype(kind)
    mean, scale = x.mean(axis=0), x.std(axis=0) + kind(1e-3)
    z = (x - mean) / scale
    n_labels = len(SQUARE_LABELS)
    onehot = np.eye(n_labels, dtype=kind)[targets]
    tally = np.bincount(targets, minlength=n_labels)
    trained = tally > 0
    sample_weight = (1.0 / (tally[targets] * trained.sum()))[:, None].astype(kind)
    weights: NDArray[np.floating] = np.zeros((z.shape[1], n_labels), dtype=kind)
    bias: NDArray[np.floating] = np.zeros(n_labels, dtype=kind)
    for _ in range(_STEPS):
        logits = z @ weights + bias
        e = np.exp(logits - logits.max(axis=1, keepdims=True))
        grad = (e / e.sum(axis=1, keepdims=True) - onehot) * sample_weight
        weights -= _RATE * (z.T @ grad + _DECAY * weights)
        bias -= _RATE * grad.sum(axis=0)
    bias[~trained] = -1e3
    f32 = np.float32
    return SetModel(mean.astype(f32), scale.astype(f32), weights.astype(f32), bias.astype(f32), trained)


def fit_appearance_model(features: NDArray[np.float32], targets: NDArray[np.int64]) -> SetModel:
    """Linear discriminant analysis of appearance features (`vision.appearance`): per-label means, one pooled
    within-label covariance shrunk towards a multiple of the identity by `APPEARANCE_SHRINK` (the features
    outnumber the examples of most labels), equal priors. Closed form, so deterministic and quick. The examples
    are standardised and centred in one array (a calibration's 3126 examples of 904 features are 23 MB in double
    precision; copies of them for each step had taken the calibration's peak memory from 238 to 321 MB; the
    standard deviation's own copy, 40 MB more at the 5574 examples of 2026-11-28)."""
    z = features.astype(np.float64)  # one N×D array, standardised and centred in place (memory: see above)
    mean = z.mean(axis=0)
    z -= mean
    scale = np.sqrt(np.einsum("nd,nd->d", z, z) / len(z)) + 1e-3  # `z.std` would hold a second N×D array
    z /= scale
    n_labels = len(SQUARE_LABELS)
    trained = np.bincount(targets, minlength=n_labels) > 0
    means = np.zeros((n_labels, z.shape[1]))
    for label in np.flatnonzero(trained):
        rows = targets == label
        means[label] = z[rows].mean(axis=0)
        z[rows] -= means[label]
    cov = z.T @ z / len(z)
    cov = (1 - APPEARANCE_SHRINK) * cov + APPEARANCE_SHRINK * float(np.trace(cov)) / len(cov) * np.eye(len(cov))
    weights = np.linalg.solve(cov, means.T)
    bias = -0.5 * np.einsum("kd,dk->k", means, weights)
    bias[~trained] = -1e3
    f32 = np.float32
    return SetModel(mean.astype(f32), scale.astype(f32), weights.astype(f32), bias.astype(f32), trained)


def _pack(array: NDArray[np.float32]) -> dict[str, object]:
    return {"shape": list(array.shape), "f32": base64.b64encode(array.astype("<f4").tobytes()).decode("ascii")}


def _unpack(entry: dict[str, object]) -> NDArray[np.float32]:
    raw = np.frombuffer(base64.b64decode(str(entry["f32"])), dtype="<f4")
    shape = entry["shape"]
    if not isinstance(shape, list):
        raise TypeError("shape is not a list")
    return raw.astype(np.float32).reshape([int(v) for v in shape])


def model_json(m: SetModel) -> dict[str, object]:
    """The JSON entry of a linear model."""
    return {
        "mean": _pack(m.mean),
        "scale": _pack(m.scale),
        "weights": _pack(m.weights),
        "bias": _pack(m.bias),
        "trained": [SQUARE_LABELS[j] for j in np.flatnonzero(m.trained)],
    }


def model_from_json(entry: dict[str, object]) -> SetModel:
    """The set model from its JSON entry (KeyError/TypeError/ValueError when malformed)."""
    parts = {key: _unpack(entry[key]) for key in ("mean", "scale", "weights", "bias")}  # type: ignore[arg-type]
    n_labels = len(SQUARE_LABELS)
    dim = parts["mean"].shape
    if parts["weights"].shape != (*dim, n_labels) or parts["bias"].shape != (n_labels,) or parts["scale"].shape != dim:
        raise ValueError("set model arrays have inconsistent shapes")
    trained_labels = entry["trained"]
    if not isinstance(trained_labels, list) or any(label not in SQUARE_LABELS for label in trained_labels):
        raise ValueError("unknown label in the trained list")
    trained = np.array([label in trained_labels for label in SQUARE_LABELS])
    return SetModel(parts["mean"], parts["scale"], parts["weights"], parts["bias"], trained)
