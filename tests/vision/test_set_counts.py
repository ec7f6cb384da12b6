"""The reader never shows more pieces of a kind than a set holds (`vision.set_counts`)."""

from __future__ import annotations

import itertools

import numpy as np
from numpy.typing import NDArray

from vision.labels import EMPTY, EMPTY_INDEX, SQUARE_LABELS
from vision.set_counts import best_fit, fit_to_set, over_limit


def _probs(reads: dict[int, dict[str, float]]) -> NDArray[np.float64]:
    """81x29 probabilities: empty everywhere except the given squares' distributions (rest spread evenly)."""
    probs = np.zeros((81, len(SQUARE_LABELS)))
    probs[:, EMPTY_INDEX] = 1.0
    for square, dist in reads.items():
        row = np.full(len(SQUARE_LABELS), (1.0 - sum(dist.values())) / (len(SQUARE_LABELS) - len(dist)))
        for label, p in dist.items():
            row[SQUARE_LABELS.index(label)] = p
        probs[square] = row
    return probs


def _fit(probs: NDArray[np.float64]) -> list[str]:
    return [SQUARE_LABELS[int(j)] for j in fit_to_set(probs, np.argmax(probs, axis=1))]


def test_a_third_rook_becomes_its_next_likeliest_kind() -> None:
    """Three rooks read: the least sure one, whose second reading costs least, is read as that second kind."""
    probs = _probs({10: {"R": 0.9}, 20: {"r": 0.9}, 30: {"R": 0.5, "L": 0.4}})
    labels = _fit(probs)
    assert (labels[10], labels[20], labels[30]) == ("R", "r", "L")


def test_a_promoted_face_counts_as_its_base_kind() -> None:
    """Two rooks and a dragon are three rooks: the dragon that is least sure gives way."""
    probs = _probs({10: {"R": 0.9}, 20: {"r": 0.9}, 30: {"+R": 0.6, "+B": 0.3}})
    assert _fit(probs)[30] == "+B"


def test_each_player_has_one_king() -> None:
    """Two sente kings: the less sure one becomes sente's next likeliest kind; the owner stays."""
    probs = _probs({4: {"K": 0.55, "k": 0.3, "G": 0.1}, 76: {"K": 0.95}})
    labels = _fit(probs)
    assert (labels[4], labels[76]) == ("G", "K")


def test_a_read_that_fits_the_set_is_unchanged() -> None:
    """Nothing over the limit: the likeliest labels come back as they are."""
    probs = _probs({i: {"P": 0.8} for i in range(54, 63)} | {i: {"p": 0.7} for i in range(18, 27)})
    likeliest = np.argmax(probs, axis=1)
    assert np.array_equal(fit_to_set(probs, likeliest), likeliest)
    assert over_limit(likeliest) == {}


def test_a_full_kind_is_not_a_way_out() -> None:
    """The spare rook's second choice is bishop, but both bishops are on the board: it takes its third choice."""
    probs = _probs({1: {"R": 0.9}, 2: {"R": 0.9}, 3: {"B": 0.9}, 4: {"b": 0.9}, 5: {"R": 0.5, "B": 0.3, "G": 0.15}})
    labels = _fit(probs)
    assert labels[5] == "G" and labels[3:5] == ["B", "b"]


def test_owner_face_and_occupancy_stay() -> None:
    """A nineteenth pawn whose next readings are empty, gote's lance and a promoted lance becomes sente's
    unpromoted lance: only the kind is repaired."""
    pawns = {i: {"P": 0.9} for i in range(45, 63)}
    probs = _probs(pawns | {70: {"P": 0.4, EMPTY: 0.3, "l": 0.15, "+L": 0.1, "L": 0.02}})
    labels = _fit(probs)
    assert labels[70] == "L" and labels.count("P") == 18


def test_over_limit_names_the_groups_and_their_squares() -> None:
    """Three bishops (one promoted) are reported with their squares; kings are counted a player each."""
    probs = _probs({1: {"B": 0.9}, 2: {"b": 0.9}, 3: {"+B": 0.9}, 4: {"K": 0.9}, 5: {"k": 0.9}})
    assert over_limit(np.argmax(probs, axis=1)) == {"B": [1, 2, 3]}


def test_the_reader_flags_the_squares_of_a_kind_read_too_often() -> None:
    """The reader's verdicts: labels that fit the set, and every square of the over-full kind not trusted."""
    from vision.classifier import Prediction
    from vision.reader import ReaderSettings, judge_squares

    probs = _probs({10: {"R": 0.95}, 20: {"r": 0.95}, 30: {"R": 0.9, "L": 0.08}})
    zeros = np.zeros(81)
    prediction = Prediction(probs, zeros, zeros, np.zeros((81, 4), dtype=np.float32))
    squares = judge_squares(probs, prediction, ReaderSettings(), whole_frame_bad=False)
    assert [squares[i].label for i in (10, 20, 30)] == ["R", "r", "L"]
    assert not any(squares[i].reliable for i in (10, 20, 30))
    assert squares[0].reliable and squares[40].reliable


def test_two_squares_change_where_that_costs_less_than_one() -> None:
    """A silver read as a knight (0.52 against 0.27) fills the knights; a knight's square reads lance first (a fifth
    lance) and knight second (0.2). The greedy step sends that square to its poor silver reading (0.06); the
    likeliest fit gives it its knight and the misread silver its silver."""
    sure = {1: {"n": 0.95}, 7: {"N": 0.95}, 8: {"N": 0.95}}
    sure |= {0: {"l": 0.95}, 9: {"l": 0.95}, 72: {"L": 0.95}, 80: {"L": 0.95}}
    sure |= {6: {"s": 0.95}, 74: {"S": 0.95}, 78: {"S": 0.95}}
    probs = _probs(sure | {2: {"n": 0.52, "s": 0.27}, 5: {"l": 0.52, "n": 0.2, "s": 0.06}})
    labels = _fit(probs)
    assert (labels[2], labels[5]) == ("s", "n")
    assert over_limit(np.array([SQUARE_LABELS.index(label) for label in labels])) == {}


def test_best_fit_is_the_likeliest_fit() -> None:
    """On random reads of six sente squares among king, rook, bishop and gold (one king, two rooks, two bishops,
    four golds), the fit has the highest log-likelihood of every labelling that fits (checked by trying all)."""
    kinds = [SQUARE_LABELS.index(k) for k in ("K", "R", "B", "G")]
    capacity = {"K": 1, "R": 2, "B": 2, "G": 4}
    rng = np.random.default_rng(7)
    squares = list(range(30, 36))
    for _ in range(30):
        probs = np.zeros((81, len(SQUARE_LABELS)))
        probs[:, EMPTY_INDEX] = 1.0
        probs[squares] = 0.0
        probs[np.ix_(squares, kinds)] = rng.dirichlet(np.full(4, 0.5), size=len(squares))
        logp = np.log(np.maximum(probs, 1e-12))
        fitted = fit_to_set(probs, np.argmax(probs, axis=1))
        best = max(
            sum(logp[sq, k] for sq, k in zip(squares, choice, strict=True))
            for choice in itertools.product(kinds, repeat=len(squares))
            if all([SQUARE_LABELS[k] for k in choice].count(g) <= n for g, n in capacity.items())
        )
        assert over_limit(fitted) == {}
        assert abs(sum(logp[sq, fitted[sq]] for sq in squares) - best) < 1e-9


def test_best_fit_keeps_a_fit_that_is_already_the_likeliest() -> None:
    """Labels that fit and are each square's likeliest reading stay as they are."""
    probs = _probs({10: {"R": 0.9}, 20: {"r": 0.8}, 30: {"G": 0.7}})
    labels = np.argmax(probs, axis=1)
    assert np.array_equal(best_fit(np.log(probs + 1e-12), labels), labels)
