"""The one place where the board reader's output becomes the reconciler's `Observation`.

Owns: `observation_from_read` (a `vision.reader.BoardRead`, read structurally so this module imports nothing
from vision) and the constants it uses: the hand confidence given to stands the reader did see, and the flat
probabilities given to squares when no board was found (every square is then unreliable, so the reconciler
ignores them). The reader's rows are renormalised (float32 softmax sums drift by ~1e-6).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

import numpy as np
import numpy.typing as npt

from controller.reconcile.labels import HAND_KINDS, N_LABELS
from controller.reconcile.types import Observation

SEEN_HANDS_CONFIDENCE = 0.8
"""hand_confidence of an observation whose stands the reader read (0 when it could not: hands unknown)."""


class SquareReadLike(Protocol):
    """What the adapter uses of `vision.reader.SquareRead`."""

    @property
    def reliable(self) -> bool:
        """The reader vouches for this square."""
        ...


class BoardReadLike(Protocol):
    """What the adapter uses of `vision.reader.BoardRead`."""

    @property
    def board_found(self) -> bool:
        """The grid was found in the frame."""
        ...

    @property
    def squares(self) -> Sequence[SquareReadLike]:
        """81 square verdicts in SFEN order (empty when no board was found)."""
        ...

    @property
    def probs(self) -> npt.NDArray[np.float64] | None:
        """81x29 probabilities in SQUARE_LABELS order, or None."""
        ...

    @property
    def hands(self) -> Mapping[str, Mapping[str, int]] | None:
        """{"b": {kind: count}, "w": {...}} or None when the stands were not read."""
        ...


def observation_from_read(
    read: BoardReadLike,
    *,
    stable: bool,
    now: float,
    hand_confidence: float = SEEN_HANDS_CONFIDENCE,
) -> Observation:
    """The reconciler's view of one read: probabilities, hands keyed by SFEN letter, unreliable squares.

    Args:
        read: the reader's result for one frame.
        stable: the motion gate's verdict for that frame.
        now: seconds on the injected clock.
        hand_confidence: confidence given to hand counts when the reader read the stands.
    """
    if not read.board_found or read.probs is None or len(read.squares) != 81:
        flat = np.full((81, N_LABELS), 1.0 / N_LABELS)
        return Observation(flat, None, 0.0, frozenset(range(81)), stable, now)
    probs = np.clip(np.asarray(read.probs, dtype=np.float64), 0.0, None)
    sums = probs.sum(axis=1, keepdims=True)
    probs = np.where(sums > 0, probs / np.where(sums > 0, sums, 1.0), 1.0 / N_LABELS)
    unreliable = frozenset(i for i, square in enumerate(read.squares) if not square.reliable)
    hands = _hands_by_letter(read.hands)
    confidence = hand_confidence if hands is not None else 0.0
    return Observation(probs, hands, confidence, unreliable, stable, now)


def _hands_by_letter(hands: Mapping[str, Mapping[str, int]] | None) -> dict[str, int] | None:
    """{"b": {"P": 2}, "w": {"G": 1}} -> {"P": 2, "g": 1}; None stays None (unknown, not empty)."""
    if hands is None:
        return None
    letters: dict[str, int] = {}
    for side, counts in hands.items():
        for kind, count in counts.items():
            if kind.upper() not in HAND_KINDS or count <= 0:
                continue
            letter = kind.upper() if side == "b" else kind.lower()
            letters[letter] = letters.get(letter, 0) + int(count)
    return letters
