"""Calibration learnt again from later positions: the examples a calibration is made of are kept, any confirmed
position adds examples of the squares asked for, and the set is fitted again on all of them."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from vision.calibration import Calibration, fit_appearance_model, fit_set_model, model_digest
from vision.classifier import PieceClassifier, Prediction
from vision.labels import SQUARE_LABELS, labels_from_board_field
from vision.set_examples import HeldOut, SetExamples
from vision.set_relearn import LATER_VARIANTS, MIN_HELD, fit_weights, position_examples, refit


def _examples(seed: int, labels: int, n: int = 300) -> SetExamples:
    """Separable random examples of the first `labels` labels (the generic classifier right on every square)."""
    rng = np.random.default_rng(seed)
    targets = rng.integers(0, labels, n)
    features = (rng.normal(size=(n, 8)) + np.eye(labels, 8)[targets] * 3).astype(np.float32)
    seen = (rng.normal(size=(n, 5)) + np.eye(labels, 5)[targets % 5] * 3).astype(np.float32)
    plain = np.full((n, len(SQUARE_LABELS)), 0.01, np.float32)
    plain[np.arange(n), targets] = 0.72
    return SetExamples(features, seen, targets.astype(np.int64), plain, targets.astype(np.int64))


def _calibration(examples: SetExamples) -> Calibration:
    model = fit_set_model(examples.features, examples.targets)
    seen = fit_appearance_model(examples.appearance, examples.targets)
    return Calibration(model, {}, model_digest(), generic_power=0.7, appearance=seen)


def test_refit_on_the_same_examples_gives_the_same_set_model() -> None:
    """Fitted again on its own examples (in single precision), a calibration's set model is the same to 1e-5;
    without held-out positions the set weight stays, and the generic power is fitted on the photographed squares
    (the generic classifier right on all of them: trusted, above 1)."""
    examples = _examples(1, 8)
    first = _calibration(examples)
    again = refit(first, examples)
    np.testing.assert_allclose(again.model.weights, first.model.weights, atol=1e-5)
    assert again.set_weight == first.set_weight and again.generic_power > 1.0


def test_refit_learns_a_label_the_calibration_never_saw() -> None:
    """Examples of a new label (a promoted face, say) make it a label the set model knows, with its count."""
    start = _examples(1, 8)
    first = _calibration(start)
    assert not first.model.trained[9]
    more = _examples(2, 10)
    more = replace(more, targets=np.where(more.targets >= 8, 9, more.targets))
    again = refit(first, SetExamples.join([start, more]))
    assert again.model.trained[9] and again.examples[SQUARE_LABELS[9]] == int((more.targets == 9).sum())


def test_examples_report_their_memory() -> None:
    """`nbytes` is what the kept arrays hold (for the game's bound on what it keeps)."""
    examples = _examples(1, 4, n=10)
    assert examples.nbytes == 10 * 8 * 4 + 10 * 5 * 4 + 10 * 8 + 10 * 29 * 4 + 10 * 8
    assert len(SetExamples.join([examples, examples])) == 20


@pytest.mark.slow
def test_position_examples_label_the_squares_asked(classifier: PieceClassifier) -> None:
    """Examples of a rendered later position: `LATER_VARIANTS` crops of each square asked for, and as many turned
    as the other owner's piece, labelled from the position."""
    from vision.orientation import sente_direction
    from vision.reader import BoardReader, ReaderSettings
    from vision.render import RenderOptions, render_position

    field = "lnsgkg1nl/1r5s1/pppppp1pp/6p2/5B3/2P6/PP1PPPPPP/7R1/LNSGKGSNL"
    frame = render_position(field + " b -", RenderOptions(seed=3, size=(800, 600)))
    settings = ReaderSettings(sente_side=sente_direction(frame.board_corners_px), stands=None)
    geometry = BoardReader(classifier, settings).read(frame.image).geometry
    assert geometry is not None
    image = frame.image
    bishop, rook = 4 * 9 + 5, 7 * 9 + 7  # 4e, 2h
    examples = position_examples(image, geometry, field, [bishop, rook], classifier, seed=1)
    names = [SQUARE_LABELS[t] for t in examples.targets]
    assert len(examples) == 2 * 2 * LATER_VARIANTS
    assert names.count("B") == names.count("b") == names.count("R") == names.count("r") == LATER_VARIANTS
    assert labels_from_board_field(field)[bishop] == "B"
    assert examples.features.shape[0] == examples.appearance.shape[0] == len(examples)


def _held(seed: int, generic_right: bool) -> HeldOut:
    """81 squares: the set model right (0.8 on the label), the generic classifier right or confidently wrong."""
    rng = np.random.default_rng(seed)
    targets = rng.integers(0, 28, 81).astype(np.int64)
    own = np.full((81, len(SQUARE_LABELS)), 0.2 / 28, np.float32)
    own[np.arange(81), targets] = 0.8
    generic = np.full_like(own, 0.02 / 28)
    generic[np.arange(81), targets if generic_right else (targets + 1) % 28] = 0.98
    return HeldOut(generic, own, np.ones_like(own), targets)


def test_weights_fitted_on_held_out_positions_follow_the_opinion_that_was_right() -> None:
    """Positions read before they were learnt from: where the generic classifier was confidently wrong and the set
    model right, the set model gets the larger share of the (kept) sum of power and weight; where both were
    right, the generic classifier (sharper here) keeps the larger share."""
    wrong_power, wrong_weight = fit_weights([_held(1, False), _held(2, False)], 0.2, 2.0)
    right_power, right_weight = fit_weights([_held(1, True), _held(2, True)], 0.2, 2.0)
    assert wrong_power + wrong_weight == pytest.approx(2.0) == right_power + right_weight
    assert wrong_weight > wrong_power and right_power > right_weight


def test_refit_weighs_the_opinions_once_positions_were_held_out() -> None:
    """With `MIN_HELD` held-out positions among the examples, `refit` takes the fitted weights (their sum the
    start calibration's)."""
    examples = _examples(1, 8)
    held = tuple(_held(n, False) for n in range(MIN_HELD))
    first = _calibration(examples)
    again = refit(first, SetExamples.join([examples, replace(examples, held=held)]))
    total = first.generic_power + first.set_weight
    assert (again.generic_power, again.set_weight) == fit_weights(held, again.appearance_weight, total)


def test_promotion_stays_with_the_generic_classifier_when_some_promoted_faces_were_learnt() -> None:
    """A set that learnt the promoted rook's face but no other promoted face: however sure its model is that a
    face is that promoted rook, the promoted faces keep the generic classifier's probabilities (0.05 together),
    as with a set learnt from the start alone."""
    promoted = np.array([label.startswith("+") for label in SQUARE_LABELS])
    plain = np.flatnonzero(~promoted)
    start = _examples(1, len(plain))
    start = replace(start, targets=plain[start.targets], plain_targets=plain[start.plain_targets])
    rook = SQUARE_LABELS.index("+R")
    faces = start.targets == SQUARE_LABELS.index("B")  # made into a face of its own: the promoted rook
    more = replace(start, targets=np.where(faces, rook, start.targets), features=start.features + 6 * faces[:, None])
    calibration = refit(_calibration(start), SetExamples.join([start, more]))
    assert calibration.model.trained[rook] and not calibration.model.trained[SQUARE_LABELS.index("+B")]
    generic = np.full((1, len(SQUARE_LABELS)), 0.05 / 12)
    generic[0, ~promoted] = 0.95 / (~promoted).sum()
    features = more.features[more.targets == rook][:1]
    assert calibration.model.probs(features, generic)[0, rook] > 0.5  # the set model is sure
    probs = calibration.adjust(Prediction(generic, np.zeros(1), np.zeros(1), features))
    np.testing.assert_allclose(probs[0, promoted], generic[0, promoted])
