"""The adapter passes each piece stand on its own: a side the reader left out is unknown, the other counts."""

from __future__ import annotations

import numpy as np

from controller.vision_adapter import SEEN_HANDS_CONFIDENCE, observation_from_read
from vision.board_read import BoardRead, SquareRead


def _read(hands: dict[str, dict[str, int]] | None) -> BoardRead:
    probs = np.full((81, 29), 0.001)
    probs[:, 28] = 1.0 - 0.028
    squares = tuple(SquareRead("empty", 0.972, (("empty", 0.972),), True) for _ in range(81))
    return BoardRead(True, "", squares, probs, hands)


def test_one_stand_read_gives_that_sides_hand() -> None:
    """Only gote's stand read: the observation holds gote's pieces, says only gote's stand was read, and keeps
    the usual hand confidence."""
    obs = observation_from_read(_read({"w": {"P": 2, "B": 1}}), stable=True, now=1.0)
    assert obs.hands == {"p": 2, "b": 1}
    assert obs.hand_sides == frozenset({"w"})
    assert obs.hand_confidence == SEEN_HANDS_CONFIDENCE


def test_empty_stand_read_is_known_and_empty() -> None:
    """Sente's stand read empty and gote's not read: sente's hand is known to be empty, gote's unknown."""
    obs = observation_from_read(_read({"b": {}}), stable=True, now=1.0)
    assert obs.hands == {} and obs.hand_sides == frozenset({"b"})


def test_both_stands_read() -> None:
    """Both stands read: both sides known."""
    obs = observation_from_read(_read({"b": {"G": 1}, "w": {}}), stable=True, now=1.0)
    assert obs.hands == {"G": 1} and obs.hand_sides == frozenset({"b", "w"})


def test_no_stand_read_is_unknown() -> None:
    """Neither stand read (None, or no side at all): hands unknown with confidence 0."""
    for hands in (None, {}):
        obs = observation_from_read(_read(hands), stable=True, now=1.0)
        assert obs.hands is None and obs.hand_confidence == 0.0
