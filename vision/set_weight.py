"""How much a piece-set calibration's set model counts beside the generic classifier, learnt from the calibration
photos by leaving half the board out (`vision.calibration`).

The set model is a linear model of the classifier's features fitted on jittered crops of the photographed pieces;
fitted and judged on the same pieces it looks perfect, whether or not it has learnt the set's faces or only those
pieces' crops. So the photographed squares are split into two halves of the board (`HALVES`: gote's side and
sente's side of the start position, each with every kind of piece), a set model and an appearance model are fitted
on the examples of each half, and each half's examples are read by the other half's models: other physical pieces,
elsewhere in the picture. The set weight is the one (of `SET_WEIGHTS`) under which those readings, combined as
`Calibration.adjust` combines them, give the right labels the highest log-likelihood, every label counting
equally.

Owns: `HALVES`, `SET_WEIGHTS`, `Half`, `CrossRead`, `cross_read`, `fit_set_weight`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from vision.classifier import softmax
from vision.set_models import SetModel, fit_appearance_model, fit_set_model

HALVES = (range(0, 41), range(41, 81))
"""The board's two halves (SFEN-order squares): gote's four ranks and five squares of the middle rank, and the rest.
In the start position each holds one side's every kind, and the other side's pieces are learnt from them turned by
180° (`vision.set_examples`)."""
SET_WEIGHTS = np.linspace(0.0, 2.0, 9)
"""Candidate set weights (0: the set model left out)."""


@dataclass(frozen=True)
class Half:
    """The calibration examples of one half of the board: classifier features, appearance features, the generic
    probabilities and the labels (SQUARE_LABELS indices), one row per jittered crop."""

    features: NDArray[np.float32]
    appearance: NDArray[np.float32]
    probs: NDArray[np.float64]
    targets: NDArray[np.int64]


@dataclass(frozen=True)
class CrossRead:
    """One half's examples as read by models fitted on the other half: generic, set-model and appearance-model
    probabilities (N×29 each) and the labels."""

    generic: NDArray[np.float64]
    own: NDArray[np.float64]
    seen: NDArray[np.float64]
    targets: NDArray[np.int64]


def cross_read(train: Half, test: Half) -> CrossRead:
    """`test`'s examples read by a set model and an appearance model fitted on `train`'s (in single precision,
    as a calibration learnt again during a game is)."""
    generic = np.maximum(test.probs, 1e-9)
    model: SetModel = fit_set_model(train.features, train.targets, single=True)
    seen_model = fit_appearance_model(train.appearance, train.targets)
    own = model.probs(test.features, generic)
    seen = seen_model.probs(test.appearance, generic)
    return CrossRead(generic, own, seen, test.targets)


def fit_set_weight(reads: Sequence[CrossRead], generic_power: float, appearance_weight: float) -> float:
    """The set weight (of `SET_WEIGHTS`) under which the cross-read examples, their three opinions combined as
    `Calibration.adjust` does (the generic power and the appearance weight given), give their labels the highest
    mean log-likelihood, each label's examples weighing as much as any other label's."""
    targets = np.concatenate([read.targets for read in reads])
    logs = [
        np.log(np.maximum(np.concatenate([getattr(read, name) for read in reads]), 1e-12))
        for name in ("generic", "own", "seen")
    ]
    tally = np.bincount(targets)
    weight = 1.0 / tally[targets]
    rows = np.arange(len(targets))
    base = generic_power * logs[0] + appearance_weight * logs[2]
    scores = []
    for set_weight in SET_WEIGHTS:
        combined = softmax(base + set_weight * logs[1])
        scores.append(float((weight * np.log(np.maximum(combined[rows, targets], 1e-12))).sum()))
    return float(SET_WEIGHTS[int(np.argmax(scores))])
