"""How the reader names a square's label from its probabilities (`vision.reader.occupancy_first_labels`)."""

from __future__ import annotations

import numpy as np

from vision.labels import SQUARE_LABELS
from vision.reader import occupancy_first_labels


def _probs(**mass: float) -> np.ndarray:
    """One square's 29 probabilities from label=probability pairs (`plus_p` for `+P`)."""
    row = np.zeros(len(SQUARE_LABELS))
    for name, p in mass.items():
        row[SQUARE_LABELS.index(name.replace("plus_", "+"))] = p
    return row[None, :]


def test_a_square_mostly_occupied_is_a_piece_even_when_empty_is_the_likeliest_single_label() -> None:
    """Empty at 0.3 against sente's pieces at 0.7 spread over four kinds: a sente piece, its likeliest kind."""
    probs = _probs(empty=0.3, P=0.2, plus_P=0.25, S=0.15, G=0.1, p=0.0)
    assert SQUARE_LABELS[int(occupancy_first_labels(probs)[0])] == "+P"


def test_owner_is_decided_by_summed_kinds_before_the_kind() -> None:
    """Gote's kinds sum to 0.6 against sente's single likeliest label at 0.4: gote's likeliest kind."""
    probs = _probs(K=0.4, p=0.25, s=0.2, g=0.15)
    assert SQUARE_LABELS[int(occupancy_first_labels(probs)[0])] == "p"


def test_an_empty_square_at_least_as_likely_as_all_pieces_stays_empty() -> None:
    """Empty at 0.5 against pieces at 0.5 (a tie) is read as empty; a clear piece keeps its label."""
    probs = np.vstack([_probs(empty=0.5, P=0.5), _probs(empty=0.01, n=0.99)])
    assert [SQUARE_LABELS[int(j)] for j in occupancy_first_labels(probs)] == ["empty", "n"]
