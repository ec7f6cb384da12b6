"""`ReadingHabits`: what a typical read of a label scores against the label's habit on this set."""

from __future__ import annotations

import numpy as np

from controller.reconcile.habits import MIN_SQUARE_FRAMES, ReadingHabits
from controller.reconcile.labels import N_LABELS


def _rows(rng: np.random.Generator, n: int) -> np.ndarray:
    rows = rng.dirichlet(np.full(N_LABELS, 0.3), size=n)
    rows[:, 3] += 4.0  # most of the mass on label 3, as a reader that mostly reads it right
    return rows / rows.sum(axis=1, keepdims=True)


def test_typical_likelihood_is_the_mean_likelihood_of_the_learnt_rows() -> None:
    """The cross-entropy is linear in the row, so the mean score of the rows learnt for a label against its habit
    is the habit's own score (minus its entropy), whatever the rows."""
    rng = np.random.default_rng(5)
    habits = ReadingHabits()
    rows = _rows(rng, 81)
    habits.learn(rows, np.full(81, 3), np.ones(81, bool))
    typical = habits.typical_likelihood(3)
    assert typical is not None
    mean = float(np.mean([habits.likelihood(row, 3) for row in rows]))
    assert abs(typical - mean) < 1e-9
    other = _rows(rng, 1)[0][::-1].copy()  # mostly label 25: a read of another label fits far worse
    assert habits.likelihood(other, 3) < typical - 2.0


def test_typical_likelihood_is_unknown_until_enough_frames() -> None:
    """Fewer than `MIN_SQUARE_FRAMES` square-frames of a label: no habit, so no typical score either."""
    habits = ReadingHabits()
    rows = _rows(np.random.default_rng(6), 81)
    seen = np.zeros(81, bool)
    seen[: MIN_SQUARE_FRAMES - 1] = True
    habits.learn(rows, np.full(81, 3), seen)
    assert habits.typical_likelihood(3) is None
    assert habits.typical_likelihood(4) is None
