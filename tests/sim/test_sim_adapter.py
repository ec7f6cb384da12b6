"""The adapter from the board reader's output to the reconciler's Observation."""

from __future__ import annotations

import numpy as np

from controller.reconcile.labels import SQUARE_LABELS as CONTROLLER_LABELS
from controller.vision_adapter import SEEN_HANDS_CONFIDENCE, observation_from_read
from vision.board_read import BoardRead, SquareRead
from vision.labels import SQUARE_LABELS as VISION_LABELS


def _read(hands: dict[str, dict[str, int]] | None, unreliable: set[int]) -> BoardRead:
    probs = np.full((81, 29), 0.001, dtype=np.float32)
    probs[:, 28] = 1.0 - 0.028
    squares = tuple(SquareRead("empty", 0.972, (("empty", 0.972),), i not in unreliable) for i in range(81))
    return BoardRead(True, "", squares, probs.astype(np.float64), hands)


def test_label_orders_agree() -> None:
    """The controller's copy of the label order is the reader's order, column for column."""
    assert CONTROLLER_LABELS == VISION_LABELS


def test_read_becomes_observation() -> None:
    """Probabilities, unreliable squares, stability and time pass through; hands are keyed by SFEN letter."""
    read = _read({"b": {"P": 2}, "w": {"G": 1, "S": 0}}, {3, 40})
    obs = observation_from_read(read, stable=True, now=12.5, min_confidence=0.9)
    assert obs.probs.shape == (81, 29)
    assert np.allclose(obs.probs.sum(axis=1), 1.0)
    assert obs.unreliable == frozenset({3, 40})
    assert obs.hands == {"P": 2, "g": 1}
    assert obs.hand_confidence == SEEN_HANDS_CONFIDENCE
    assert obs.stable and obs.time == 12.5


def test_unknown_hands_have_no_confidence() -> None:
    """Stands the reader could not read give hands None and confidence 0 (unknown, not empty)."""
    obs = observation_from_read(_read(None, set()), stable=False, now=0.0)
    assert obs.hands is None and obs.hand_confidence == 0.0
    assert not obs.stable


def test_no_board_found_is_all_unreliable() -> None:
    """A frame without a board gives an observation with every square unreliable."""
    obs = observation_from_read(BoardRead(False, "board not found"), stable=True, now=1.0)
    assert obs.unreliable == frozenset(range(81))
    assert obs.hands is None


def _flagged(labels: list[str], p: list[float], flagged: set[int]) -> BoardRead:
    """A read whose squares have these labels at these probabilities (the rest spread evenly), some flagged."""
    probs = np.array([np.full(29, (1.0 - p[i]) / 28) for i in range(81)])
    for i, label in enumerate(labels):
        probs[i, VISION_LABELS.index(label)] = p[i]
    squares = tuple(SquareRead(labels[i], p[i], ((labels[i], p[i]),), i not in flagged) for i in range(81))
    return BoardRead(True, "some squares cannot be read reliably", squares, probs, None)


def test_low_confidence_squares_keep_their_probabilities() -> None:
    """Given the reader's threshold, a square flagged only for a low top probability is passed on (the
    reconciler weighs it) and one flagged with a confident label (a hand or blur over it) is hidden; without
    the threshold neither is hidden."""
    labels, p = ["empty"] * 81, [0.99] * 81
    p[10] = 0.7
    obs = observation_from_read(_flagged(labels, p, {10, 20}), stable=True, now=0.0, min_confidence=0.98)
    assert obs.unreliable == frozenset({20})
    unknown = observation_from_read(_flagged(labels, p, {10, 20}), stable=True, now=0.0)
    assert unknown.unreliable == frozenset()


def test_set_limit_squares_keep_their_probabilities() -> None:
    """Three rooks cannot be: the reader flags them all, the reconciler still gets their probabilities (the
    likeliest labels show the three rooks even where the reader's own labels were bent to fit the set)."""
    labels, p = ["empty"] * 81, [0.99] * 81
    for i in (1, 2, 3):
        labels[i] = "R"
    obs = observation_from_read(_flagged(labels, p, {1, 2, 3}), stable=True, now=0.0, min_confidence=0.98)
    assert obs.unreliable == frozenset()
    bent = _flagged(labels, p, {1, 2, 3})
    bent = BoardRead(
        True, bent.reason, (*bent.squares[:3], SquareRead("L", 0.99, (), False), *bent.squares[4:]), bent.probs
    )
    obs = observation_from_read(bent, stable=True, now=0.0, min_confidence=0.98)
    assert obs.unreliable == frozenset()


def test_a_wholly_untrusted_frame_hides_every_square() -> None:
    """When no square is trusted (a dark or blown-out frame) every square is hidden, whatever its probability."""
    labels, p = ["empty"] * 81, [0.5] * 81
    obs = observation_from_read(_flagged(labels, p, set(range(81))), stable=True, now=0.0)
    assert obs.unreliable == frozenset(range(81))


def _hidden_read(labels: list[str], p: list[float], hidden: set[int]) -> BoardRead:
    """A read that names its hidden squares (as the reader does), each also flagged."""
    read = _flagged(labels, p, hidden)
    return BoardRead(True, read.reason, read.squares, read.probs, None, hidden=tuple(sorted(hidden)))


def test_squares_a_read_names_hidden_are_doubted() -> None:
    """The squares a read names hidden (the classifier's "unreadable" output), read clearly or not, are passed
    as doubted: the reconciler weighs them once they stay so, so a false alarm does not hold a move for good."""
    labels, p = ["empty"] * 81, [0.99] * 81
    p[30] = 0.6
    obs = observation_from_read(_hidden_read(labels, p, {12, 30}), stable=True, now=0.0, min_confidence=0.95)
    assert obs.unreliable == frozenset({12, 30})
    assert obs.doubted == frozenset({12, 30})


def test_guessed_hidden_squares_are_doubted_when_read_clearly() -> None:
    """A read that does not name its hidden squares: the adapter's guess (flagged and read clearly) is doubted."""
    labels, p = ["empty"] * 81, [0.99] * 81
    obs = observation_from_read(_flagged(labels, p, {12}), stable=True, now=0.0, min_confidence=0.95)
    assert obs.unreliable == frozenset({12}) and obs.doubted == frozenset({12})


def test_a_wholly_hidden_frame_doubts_nothing() -> None:
    """Every square hidden (a dark or blown-out frame): their confident labels mean nothing, none is doubted;
    nor on a frame with no board."""
    labels, p = ["empty"] * 81, [0.99] * 81
    obs = observation_from_read(_hidden_read(labels, p, set(range(81))), stable=True, now=0.0, min_confidence=0.95)
    assert obs.unreliable == frozenset(range(81)) and obs.doubted == frozenset()
    assert observation_from_read(BoardRead(False, "board not found"), stable=True, now=0.0).doubted == frozenset()
