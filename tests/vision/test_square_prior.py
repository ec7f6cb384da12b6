"""The square prior (`vision.square_prior`, `ReaderSettings.square_prior`) and its counts of self-play games
(`vision.train.square_prior`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import cast

import numpy as np
import pytest
from tied_reads import TiedClassifier, row

from vision.classifier import PieceClassifier
from vision.labels import EMPTY_INDEX, SQUARE_LABELS, square_index
from vision.orientation import sente_direction
from vision.reader import BoardReader, ReaderSettings
from vision.render import RenderOptions, render_position
from vision.set_examples import swap_owner
from vision.square_prior import PRIOR_FILE, SquarePrior, SquarePriorError, shipped_factors, with_square_prior
from vision.train.square_prior import count_games

N, S = SQUARE_LABELS.index("N"), SQUARE_LABELS.index("S")
CORNER = square_index(8, 9)  # 8i: sente's knight starts there


def _knight_prior() -> np.ndarray:
    """Factors of a prior that saw sente's knight on 8i in half its positions, everything else evenly."""
    counts = np.full((81, len(SQUARE_LABELS)), 10.0)
    counts[CORNER, N] = 300.0
    return SquarePrior(counts).factors()


def test_counts_see_both_players_alike() -> None:
    counts = count_games([["7g7f", "3c3d", "8h2b+"], []])
    k, gote_k = SQUARE_LABELS.index("K"), SQUARE_LABELS.index("k")
    assert counts[square_index(5, 9), k] == pytest.approx(counts[square_index(5, 1), gote_k])
    assert counts[CORNER, N] == pytest.approx(counts[square_index(2, 1), SQUARE_LABELS.index("n")])
    assert counts.sum(axis=1) == pytest.approx(np.full(81, 4.0))  # two games, each weighted 1, both orientations
    assert counts[square_index(2, 2), SQUARE_LABELS.index("+B")] == pytest.approx(0.25)  # one position of four


def test_factors_lean_where_labels_stand_and_stay_near_one_elsewhere() -> None:
    factors = _knight_prior()
    assert factors[CORNER, N] > 5.0
    assert factors[CORNER, S] < 1.0
    assert factors[square_index(5, 5), S] == pytest.approx(1.0, rel=0.05)
    even = SquarePrior(np.full((81, len(SQUARE_LABELS)), 7.0)).factors()
    np.testing.assert_allclose(even, 1.0)


def test_near_ties_lean_and_sure_reads_stay() -> None:
    factors = _knight_prior()
    probs = np.stack([row(N=0.45, S=0.55), row(N=0.01, S=0.99), row(empty=1.0)])
    out = with_square_prior(probs, np.array([CORNER, CORNER, CORNER]), 0.5, factors)
    np.testing.assert_allclose(out.sum(axis=1), 1.0)
    assert out[0].argmax() == N
    assert out[1].argmax() == S
    assert out[2].argmax() == EMPTY_INDEX
    assert probs[0, S] == 0.55  # the input is left as it was


def test_weight_zero_changes_nothing_and_a_weight_must_not_be_negative() -> None:
    probs = np.stack([row(N=0.45, S=0.55)])
    assert with_square_prior(probs, np.array([CORNER]), 0.0) is probs
    with pytest.raises(ValueError, match="negative"):
        with_square_prior(probs, np.array([CORNER]), -0.5)


def test_a_malformed_prior_file_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "prior.json"
    bad.write_text('{"labels": ["K"], "counts": [[1]]}')
    with pytest.raises(SquarePriorError, match="malformed"):
        SquarePrior.load(bad)
    bad.write_text("not json")
    with pytest.raises(SquarePriorError, match="unreadable"):
        SquarePrior.load(bad)


def test_the_shipped_prior_is_symmetric_and_says_where_pieces_start() -> None:
    data = json.loads(PRIOR_FILE.read_text())
    assert "self-play" in data["source"]
    factors = shipped_factors()
    assert factors.shape == (81, len(SQUARE_LABELS))
    turned = [SQUARE_LABELS.index(swap_owner(label)) for label in SQUARE_LABELS]
    np.testing.assert_allclose(factors, factors[::-1][:, turned], rtol=1e-6)
    lance = SQUARE_LABELS.index("L")
    assert factors[square_index(9, 9), lance] > 3.0
    assert factors[square_index(5, 5), lance] < 1.0


def test_the_reader_applies_the_prior_to_the_squares() -> None:
    frame = render_position("9/9/9/9/9/9/9/9/1N7 b -", RenderOptions.fast(style="kanji_light", seed=2))
    classifier = cast(PieceClassifier, TiedClassifier(CORNER, row(N=0.45, S=0.55)))

    def label(weight: float) -> str:
        settings = ReaderSettings(
            sente_side=sente_direction(frame.board_corners_px),
            stands=None,
            shifted_looks=False,
            lookalikes=False,
            square_prior=weight,
        )
        return BoardReader(classifier, settings).read(frame.image).squares[CORNER].label

    assert label(0.0) == "S"
    assert label(1.0) == "N"


def test_a_reader_with_the_prior_checks_its_file_when_made(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A missing prior file stops a reader that would use it when the reader is made, not at its first frame; a
    reader without the prior does not need the file."""
    from vision import square_prior

    monkeypatch.setattr(square_prior, "PRIOR_FILE", tmp_path / "missing.json")
    square_prior.shipped_factors.cache_clear()
    classifier = cast(PieceClassifier, TiedClassifier(CORNER, row(N=0.45, S=0.55)))
    try:
        with pytest.raises(SquarePriorError, match="unreadable"):
            BoardReader(classifier, ReaderSettings(square_prior=0.5))
        BoardReader(classifier, ReaderSettings(square_prior=0.0))
    finally:
        square_prior.shipped_factors.cache_clear()
