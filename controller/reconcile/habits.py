"""How this reader reads this piece set: per label, the mean probabilities it gives on squares whose label the
game knows, learnt while the board is confirmed to show the expected position.

Owns: `ReadingHabits`. Identity comes from the game state, so every confirmed frame shows the reader at work on
known pieces; a style it confuses (a bishop read as a gold) shows up here. A drop's kind is the one place where
the reader's word is needed: there, two held kinds the reader reads alike (by its habits on this set) are asked
about instead of guessed, and a kind the reader misreads in its usual way (this set's knight read as a
pawn) is recognised by those habits when they tell it clearly.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import numpy.typing as npt

from controller.reconcile.labels import N_LABELS, Labels

MIN_SQUARE_FRAMES = 3
"""Square-frames of a label before its habit is used (else the label's own probability stands in)."""
DECIDING_SQUARE_FRAMES = 50
"""Square-frames of every kind in question before the habits alone may decide a drop's kind (with fewer they
only raise doubts). Chosen on development games (400 and on), where the kinds in question had hundreds."""


class ReadingHabits:
    """Running mean of the reader's probability rows per true label."""

    def __init__(self, floor: float = 1e-4) -> None:
        self._sums: npt.NDArray[np.float64] = np.zeros((N_LABELS, N_LABELS))
        self._counts: npt.NDArray[np.float64] = np.zeros(N_LABELS)
        self._floor = floor

    def learn(self, rows: npt.NDArray[np.float64], labels: Labels, seen: npt.NDArray[np.bool_]) -> None:
        """Add the (81, 29) rows of a confirmed position (`labels`), on the `seen` squares only."""
        np.add.at(self._sums, labels[seen], rows[seen])
        np.add.at(self._counts, labels[seen], 1.0)

    def vouch_for(self, labels: Iterable[int]) -> bool:
        """Whether the habits know every one of `labels` well enough to tell a drop's kind
        (`DECIDING_SQUARE_FRAMES` square-frames each)."""
        return all(self._counts[label] >= DECIDING_SQUARE_FRAMES for label in labels)

    def mean(self, label: int) -> npt.NDArray[np.float64] | None:
        """The reader's mean probability row on squares of `label`; None while fewer than `MIN_SQUARE_FRAMES`."""
        if self._counts[label] < MIN_SQUARE_FRAMES:
            return None
        mean: npt.NDArray[np.float64] = self._sums[label] / self._counts[label]
        return mean

    def typical_likelihood(self, label: int) -> float | None:
        """The `likelihood` a typical read of `label` on this set scores against its own habit: the mean over the
        learnt rows, which is minus the entropy of the habit's mean row (the cross-entropy is linear in the
        row); None while fewer than `MIN_SQUARE_FRAMES`."""
        mean = self.mean(label)
        if mean is None:
            return None
        return float(np.dot(mean / max(float(mean.sum()), 1e-12), np.log(np.maximum(mean, self._floor))))

    def likelihood(self, row: npt.NDArray[np.float64], label: int) -> float:
        """How well `label`, read the way this reader reads it, explains `row` (a cross-entropy, higher is
        better); the plain log-probability of `label` while too little is known of its habit."""
        if self._counts[label] < MIN_SQUARE_FRAMES:
            return float(np.log(max(float(row[label]), self._floor)))
        habit = self._sums[label] / self._counts[label]
        return float(np.dot(row / max(float(row.sum()), 1e-12), np.log(np.maximum(habit, self._floor))))
