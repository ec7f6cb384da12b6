"""Learning a piece set again from later positions: a calibration (`vision.calibration`) made from the start,
its examples kept (`vision.set_examples.SetExamples`), examples of any confirmed position added
(`position_examples`), and the set fitted again on all of them (`refit`); how far the generic classifier, the set
model and the appearance model are each trusted is fitted on later positions read before they were learnt from
(`fit_weights`). A game learns so (`controller.runner.set_relearning`).

Owns: `position_examples`, `refit`, `fit_weights`, `LATER_VARIANTS`, `MIN_HELD`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from vision.board import BoardGeometry, Image
from vision.calibration import Calibration, fit_generic_power
from vision.classifier import PieceClassifier
from vision.labels import labels_from_board_field
from vision.set_examples import HeldOut, SetExamples, examples, label_counts, label_indices
from vision.set_models import fit_appearance_model, fit_set_model
from vision.squares import rectified_board, square_crops

LATER_VARIANTS = 24
"""Jittered copies of each square learnt from a later position (`position_examples`), as many as of the start's."""
MIN_HELD = 2
"""Later positions read before they were learnt from (`HeldOut`) from which the weights are fitted (`refit`)."""
_SET_SHARES = np.linspace(0.1, 0.9, 17)
"""Candidate shares of the set model in the sum of the generic power and the set weight (`fit_weights`)."""


def position_examples(
    image: Image,
    geometry: BoardGeometry,
    board_field: str,
    squares: Sequence[int],
    classifier: PieceClassifier,
    *,
    seed: int,
    variants: int = LATER_VARIANTS,
    current: Calibration | None = None,
) -> SetExamples:
    """Examples from any confirmed position: `image` shows `board_field` (SFEN board field) on the grid
    `geometry` (oriented, as the reader found it); the `squares` (SFEN-order indices) are learnt from, each cut
    `variants` times with jitter and also turned by 180°. The generic classifier's reading of all 81 squares is
    kept too: how far it is to be trusted on this set is learnt again from every such position (`refit`); with
    the `current` calibration (the one the game read the position with), so is how the three opinions are weighed
    (`HeldOut`, `fit_weights`)."""
    labels, chosen = labels_from_board_field(board_field), set(squares)
    wanted: list[str | None] = [labels[i] if i in chosen else None for i in range(81)]
    part = SetExamples.of(examples(image, geometry, wanted, classifier, seed, piece_variants=variants))
    crops = square_crops(rectified_board(image, geometry))
    every, targets = classifier.predict(crops), label_indices(labels)
    held = () if current is None else (HeldOut.read(current, every, crops, targets),)
    return replace(part, plain_probs=every.probs.astype(np.float32), plain_targets=targets, held=held)


def refit(calibration: Calibration, examples: SetExamples) -> Calibration:
    """The calibration (the start's) learnt again on `examples` (those it was made from and more:
    `calibrate_with_examples`, `position_examples`): both models fitted anew on them (the set model in single
    precision); the generic classifier's power fitted again on all the squares they photographed, or, once
    `MIN_HELD` later positions were read before being learnt from, the power and the set weight on those
    (`fit_weights`); the appearance weight stays."""
    model = fit_set_model(examples.features, examples.targets, single=True)
    seen = fit_appearance_model(examples.appearance, examples.targets) if calibration.appearance else None
    power = fit_generic_power(examples.plain_probs.astype(np.float64), examples.plain_targets)
    weight = calibration.set_weight
    if len(examples.held) >= MIN_HELD:
        total = calibration.generic_power + calibration.set_weight
        power, weight = fit_weights(examples.held, calibration.appearance_weight, total)
    counts = label_counts(examples.targets)
    return replace(calibration, model=model, examples=counts, appearance=seen, generic_power=power, set_weight=weight)


def fit_weights(held: Sequence[HeldOut], appearance_weight: float, total: float) -> tuple[float, float]:
    """The generic power and set weight, summing to `total` (the start's: how sharp the combined reading is stays
    as the start's calibration made it; only the trust moves between the two), under which the held-out
    squares' three opinions, combined as `Calibration.adjust` does (the appearance weight kept), give their
    labels the highest mean log-likelihood. A free sum overfits a few positions read right: it sharpens every
    reading (a weight of 4 and power 1.6 after two positions on a development style)."""
    targets = np.concatenate([record.targets for record in held])
    names = ("generic", "own", "seen")
    logs = [np.log(np.maximum(np.concatenate([getattr(r, name) for r in held]), 1e-12)) for name in names]
    rows = np.arange(len(targets))
    base = appearance_weight * logs[2]
    best, choice = -np.inf, (total / 2, total / 2)
    for share in _SET_SHARES:
        power, weight = total * (1 - share), total * share
        logits = power * logs[0] + weight * logs[1] + base
        logits = logits - logits.max(axis=1, keepdims=True)
        score = float((logits[rows, targets] - np.log(np.exp(logits).sum(axis=1))).mean())
        if score > best:
            best, choice = score, (float(power), float(weight))
    return choice
