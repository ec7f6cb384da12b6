"""Which squares the reader says it could not see (`BoardRead.hidden`, `vision.reader.unseen_squares`)."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from vision.classifier import Prediction
from vision.labels import EMPTY_INDEX, SQUARE_LABELS
from vision.reader import ReaderSettings, judge_squares, unseen_squares


def _verdicts(
    confident: dict[int, str], doubtful: dict[int, str], sideways: set[int], unreadable: set[int], bad: bool = False
) -> tuple[int, ...]:
    probs: NDArray[np.float64] = np.full((81, len(SQUARE_LABELS)), 0.001)
    probs[:, EMPTY_INDEX] = 1.0
    for square, label in confident.items():
        probs[square, :] = 0.001
        probs[square, SQUARE_LABELS.index(label)] = 1.0
    for square, label in doubtful.items():
        probs[square, :] = 0.001
        probs[square, SQUARE_LABELS.index(label)] = 0.5
        probs[square, SQUARE_LABELS.index("S")] = 0.45
    probs /= probs.sum(axis=1, keepdims=True)
    side = np.array([0.7 if i in sideways else 0.0 for i in range(81)])
    hand = np.array([0.9 if i in unreadable else 0.0 for i in range(81)])
    prediction = Prediction(probs, side, hand, np.zeros((81, 4), dtype=np.float32))
    settings = ReaderSettings()
    squares = judge_squares(probs, prediction, settings, whole_frame_bad=bad)
    return unseen_squares(squares, prediction, settings, whole_frame_bad=bad)


def test_a_hand_over_a_confident_square_hides_it() -> None:
    """The classifier calls the square unreadable yet gives a confident label: that label is not to be used."""
    assert _verdicts({40: "R"}, {}, set(), {40, 41}) == (40, 41)


def test_a_piece_lying_sideways_is_not_hidden() -> None:
    """A square flagged only because its piece looks turned by 90 degrees still shows the piece: its
    probabilities are passed on (hiding it for good stalled a game: the learnt set read a rook there surely)."""
    assert _verdicts({40: "R"}, {}, {40}, set()) == ()


def test_a_doubtful_unreadable_square_is_hidden() -> None:
    """An unreadable square whose label is doubtful is hidden too: under a paused hand such a reading let moves be
    committed onto the square (the controller weighs it once it has stayed hidden a few seconds)."""
    assert _verdicts({}, {40: "G"}, set(), {40}) == (40,)


def test_a_bad_frame_hides_every_square() -> None:
    """A frame too dark or blown out hides all 81 squares."""
    assert _verdicts({40: "R"}, {}, set(), set(), bad=True) == tuple(range(81))


def test_a_square_over_the_set_limit_under_a_hand_is_hidden() -> None:
    """Three rooks, the third under a hand: the hand hides it; the two seen are not hidden."""
    assert _verdicts({10: "R", 20: "r", 30: "R"}, {}, set(), {30}) == (30,)
