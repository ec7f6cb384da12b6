"""Shifted looks at unsure squares (`vision.shifted_looks`, `ReaderSettings.shifted_looks`)."""

from __future__ import annotations

import numpy as np
import pytest

from vision.board_read import BoardRead
from vision.classifier import PieceClassifier
from vision.labels import SQUARE_LABELS
from vision.orientation import sente_direction
from vision.reader import BoardReader, ReaderSettings
from vision.render import RenderOptions, render_position
from vision.shifted_looks import SHIFT_BELOW, SHIFTS, shifted_looks
from vision.squares import CELL, CROP, MARGIN, square_crops

MIDGAME = "ln1g1g1nl/1rs1k2s1/p1pppp1pp/1p4p2/7P1/2P6/PP1PPPP1P/1SG4R1/LN2KGSNL b Bb 1"
N_LABELS = len(SQUARE_LABELS)


def _board(seed: int = 0) -> np.ndarray:
    """A rectified board of noise: every crop and every shifted cut differs."""
    side = round(9 * CELL + 2 * MARGIN * CELL)
    return np.random.default_rng(seed).integers(0, 256, (side, side, 3), dtype=np.uint8)


def _rows(tops: list[float]) -> np.ndarray:
    """Rows whose label 0 has the given probability, the rest spread evenly."""
    rows = np.array([[(1 - p) / (N_LABELS - 1)] * N_LABELS for p in tops])
    rows[:, 0] = tops
    return rows


def test_sure_squares_are_not_looked_at_again() -> None:
    """Squares read at or above SHIFT_BELOW keep their reading and cost no classification."""
    calls: list[int] = []

    def classify(crops: np.ndarray) -> np.ndarray:
        calls.append(len(crops))
        return _rows([0.5] * len(crops))

    probs = _rows([SHIFT_BELOW, 0.99])
    out = shifted_looks(_board(), np.array([3, 40]), probs, classify)
    assert calls == []
    assert np.array_equal(out, probs)


def test_unsure_square_gets_the_geometric_mean_of_its_cuts() -> None:
    """An unsure square is cut again at every shift, from its own place on the board (one classification per
    shift), and its probabilities are the normalised geometric mean of the five readings; a sure square beside it
    is untouched."""
    board = _board(1)
    seen: list[np.ndarray] = []
    rng = np.random.default_rng(2)
    again = rng.dirichlet(np.ones(N_LABELS), size=len(SHIFTS))

    def classify(crops: np.ndarray) -> np.ndarray:
        seen.append(crops)
        return again[len(seen) - 1][None]

    probs = np.vstack([_rows([0.97]), rng.dirichlet(np.ones(N_LABELS))])
    out = shifted_looks(board, np.array([10, 57]), probs, classify)
    assert [crops.shape for crops in seen] == [(1, CROP, CROP, 3)] * len(SHIFTS)
    for crops, shift in zip(seen, SHIFTS, strict=True):
        assert np.array_equal(crops[0], square_crops(board, shift)[57])
    expected = np.exp(np.log(np.vstack([probs[1:], again])).mean(axis=0))
    assert np.allclose(out[1], expected / expected.sum())
    assert np.array_equal(out[0], probs[0])
    assert np.allclose(out.sum(axis=1), 1.0)


@pytest.fixture(scope="module")
def reads(classifier: PieceClassifier) -> dict[bool, BoardRead]:
    """One rendered frame of an unseen-to-training style read with and without shifted looks (and without the
    lookalikes' pooling, which would move some squares across `SHIFT_BELOW` afterwards, and without the promoted
    prior and the square prior, which come after the shifted looks: a square at 0.897 that a prior lifts to 0.906
    is rightly looked at again, as the reader judges it before the priors)."""
    frame = render_position(MIDGAME, RenderOptions(style="ryoko_1kanji", seed=21, size=(800, 600)))
    out: dict[bool, BoardRead] = {}
    for on in (False, True):
        side = sente_direction(frame.board_corners_px)
        settings = ReaderSettings(
            sente_side=side, stands=None, shifted_looks=on, lookalikes=False, promoted_prior=1.0, square_prior=0.0
        )
        out[on] = BoardReader(classifier, settings).read(frame.image)
    return out


def test_reader_looks_again_only_at_unsure_squares(reads: dict[bool, BoardRead]) -> None:
    """In the reader, squares read surely from one cut keep exactly that reading; some unsure ones change."""
    plain, looked = (np.asarray(reads[on].probs) for on in (False, True))
    sure = plain.max(axis=1) >= SHIFT_BELOW
    assert sure.sum() > 40 and (~sure).any()
    assert np.array_equal(plain[sure], looked[sure])
    assert not np.allclose(plain[~sure], looked[~sure])
