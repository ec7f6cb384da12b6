"""The adapter from the board reader's output to the reconciler's Observation."""

from __future__ import annotations

import numpy as np

from controller.reconcile.labels import SQUARE_LABELS as CONTROLLER_LABELS
from controller.vision_adapter import SEEN_HANDS_CONFIDENCE, observation_from_read
from vision.labels import SQUARE_LABELS as VISION_LABELS
from vision.reader import BoardRead, SquareRead


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
    obs = observation_from_read(_read({"b": {"P": 2}, "w": {"G": 1, "S": 0}}, {3, 40}), stable=True, now=12.5)
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
