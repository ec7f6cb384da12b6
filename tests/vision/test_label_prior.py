"""The prior on the promoted faces (`vision.label_prior`, `ReaderSettings.promoted_prior`)."""

from __future__ import annotations

from typing import cast

import numpy as np
import pytest
from tied_reads import TiedClassifier, row

from vision.classifier import PieceClassifier
from vision.label_prior import PROMOTED_PRIOR, with_promoted_prior
from vision.labels import SQUARE_LABELS, square_index
from vision.orientation import sente_direction
from vision.reader import BoardReader, ReaderSettings
from vision.render import RenderOptions, render_position

P, PROMOTED_P = SQUARE_LABELS.index("P"), SQUARE_LABELS.index("+P")
TIED = square_index(5, 5)


def test_near_ties_go_to_the_unpromoted_face_and_sure_reads_stay() -> None:
    probs = np.stack([row(P=0.4, promoted_P=0.6), row(P=0.05, promoted_P=0.95), row(empty=1.0)])
    out = with_promoted_prior(probs, 0.5)
    np.testing.assert_allclose(out.sum(axis=1), 1.0)
    np.testing.assert_allclose(out[0, [P, PROMOTED_P]], [0.4 / 0.7, 0.3 / 0.7])
    assert out[1].argmax() == PROMOTED_P and out[1, PROMOTED_P] == pytest.approx(0.475 / 0.525)
    np.testing.assert_array_equal(out[2], probs[2])
    np.testing.assert_array_equal(probs[0], row(P=0.4, promoted_P=0.6))  # the input is left as it was


def test_a_factor_of_one_changes_nothing_and_a_factor_must_be_positive() -> None:
    probs = np.stack([row(P=0.4, promoted_P=0.6)])
    assert with_promoted_prior(probs, 1.0) is probs
    with pytest.raises(ValueError, match="positive"):
        with_promoted_prior(probs, 0.0)


def test_the_reader_applies_the_prior_to_the_squares() -> None:
    frame = render_position("9/9/9/9/4P4/9/9/9/9 b -", RenderOptions.fast(style="kanji_light", seed=2))
    classifier = cast(PieceClassifier, TiedClassifier(TIED, row(P=0.42, promoted_P=0.58)))

    def label(**settings: float) -> str:
        options = ReaderSettings(
            sente_side=sente_direction(frame.board_corners_px),
            stands=None,
            shifted_looks=False,
            lookalikes=False,
            square_prior=0.0,  # the promoted prior alone (`vision.square_prior` would lean too)
        )
        reader = BoardReader(classifier, ReaderSettings(**{**options.__dict__, **settings}))
        return reader.read(frame.image).squares[TIED].label

    assert PROMOTED_PRIOR < 1.0
    assert label() == "P"
    assert label(promoted_prior=1.0) == "+P"
