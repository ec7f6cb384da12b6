"""The calibration's set weight learnt by halves of the board (`vision.set_weight`): each half's examples read by
models fitted on the other half, and the weight under which those reads fit their labels best."""

from __future__ import annotations

import numpy as np

from vision.labels import SQUARE_LABELS
from vision.set_weight import SET_WEIGHTS, CrossRead, Half, cross_read, fit_set_weight

N_LABELS = len(SQUARE_LABELS)


def _half(seed: int, separation: float, n: int = 240, labels: int = 6) -> Half:
    """Random examples of the first `labels` labels, each label's features around its own centre (`separation`
    apart), the generic classifier unsure (its right label at 0.3 against 0.2 for the next label)."""
    rng = np.random.default_rng(seed)
    targets = rng.integers(0, labels, n).astype(np.int64)
    features = (rng.normal(size=(n, 8)) + np.eye(labels, 8)[targets] * separation).astype(np.float32)
    appearance = (rng.normal(size=(n, 5)) + np.eye(labels, 5)[targets % 5] * separation).astype(np.float32)
    probs = np.full((n, N_LABELS), 0.5 / (N_LABELS - 2))
    probs[np.arange(n), targets] = 0.3
    probs[np.arange(n), (targets + 1) % labels] = 0.2
    return Half(features, appearance, probs / probs.sum(axis=1, keepdims=True), targets)


def _read(right: bool, n: int = 200, labels: int = 6, sure: float = 0.97) -> CrossRead:
    """A cross read whose generic opinion is unsure and right, and whose set model is sure and right or wrong."""
    rng = np.random.default_rng(3)
    targets = rng.integers(0, labels, n).astype(np.int64)
    rows = np.arange(n)
    generic = np.full((n, N_LABELS), 0.01)
    generic[rows, targets] = 0.5
    own = np.full((n, N_LABELS), (1 - sure) / (N_LABELS - 1))
    own[rows, targets if right else (targets + 1) % labels] = sure
    norm = generic / generic.sum(axis=1, keepdims=True)
    return CrossRead(norm, own, np.full((n, N_LABELS), 1.0 / N_LABELS), targets)


def test_a_set_model_that_reads_the_other_half_wrong_gets_no_weight() -> None:
    """Sure and wrong on the squares it never saw: the set model is left out (weight 0)."""
    assert fit_set_weight([_read(right=False)], generic_power=1.0, appearance_weight=0.2) == 0.0


def test_a_set_model_that_reads_the_other_half_right_gets_the_largest_weight() -> None:
    """Sure and right where the generic classifier is unsure: the largest weight offered."""
    assert fit_set_weight([_read(right=True)], generic_power=1.0, appearance_weight=0.2) == SET_WEIGHTS.max()


def test_cross_read_learns_faces_that_the_features_tell_apart() -> None:
    """Models fitted on one half read the other half's examples right when the features separate the labels, and
    the weight learnt from such reads is more than when the features say nothing of the label."""
    clear = [cross_read(_half(1, 4.0), _half(2, 4.0)), cross_read(_half(2, 4.0), _half(1, 4.0))]
    right = np.mean([np.mean(r.own.argmax(axis=1) == r.targets) for r in clear])
    assert right > 0.95
    noise = [cross_read(_half(1, 0.0), _half(2, 0.0)), cross_read(_half(2, 0.0), _half(1, 0.0))]
    assert fit_set_weight(clear, 1.0, 0.2) > fit_set_weight(noise, 1.0, 0.2)
