"""The reader never shows more pieces of a kind than a set holds (`vision.set_counts`)."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from vision.labels import EMPTY, EMPTY_INDEX, SQUARE_LABELS
from vision.set_counts import fit_to_set, over_limit


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
