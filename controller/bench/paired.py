"""`bench vision --baseline MODEL`: two classifiers read the same frames, square by square.

Two models' square accuracies on 60 frames differ by a few squares of about 4800 from frame sampling alone, so the
difference of two separate runs says little. Read on the same frames, only the squares one model reads right and
the other wrong (the discordant squares) tell them apart, and the exact McNemar test says how likely a split at
least that uneven would be if the two were equally good. Here each clean main frame's labels as `read_clean` scores
them (a fresh reader: grid found, then read again with the grid only checked) are set beside the baseline's, read
the same way with the same settings, and the squares are tallied by which models read them right.

Owns: `PairedTally`, `mcnemar_p`, `paired_labels`, `report_paired`.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import comb
from typing import Any


@dataclass
class PairedTally:
    """Squares of frames both models read, by which read them right; boards all right, by model."""

    both: int = 0
    model_only: int = 0
    baseline_only: int = 0
    neither: int = 0
    boards: int = 0
    boards_model: int = 0
    boards_baseline: int = 0

    def add(self, truth: list[str], model: list[str], baseline: list[str]) -> None:
        """One frame's 81 squares as read by each model."""
        for t, m, b in zip(truth, model, baseline, strict=True):
            right = (m == t, b == t)
            self.both += right == (True, True)
            self.model_only += right == (True, False)
            self.baseline_only += right == (False, True)
            self.neither += right == (False, False)
        self.boards += 1
        self.boards_model += model == truth
        self.boards_baseline += baseline == truth


def mcnemar_p(b: int, c: int) -> float:
    """Two-sided exact McNemar p-value of `b` against `c` discordant pairs (binomial, p = 1/2)."""
    if b < 0 or c < 0:
        raise ValueError(f"discordant counts must not be negative: {b}, {c}")
    n = b + c
    if n == 0:
        return 1.0
    tail = Fraction(sum(comb(n, k) for k in range(min(b, c) + 1)), 1 << n)
    return min(1.0, float(2 * tail))


def paired_labels(classifier: Any, frame: Any, settings: Any) -> list[str] | None:
    """A fresh reader's labels of `frame` at its second read (grid checked), or None when it finds no board."""
    from vision.reader import BoardReader

    reader = BoardReader(classifier, settings)
    if not reader.read(frame.image).board_found:
        return None
    result = reader.read(frame.image)
    return list(result.labels) if result.board_found else None


def report_paired(t: PairedTally, baseline: str) -> None:
    """Print the paired figures."""
    squares = t.both + t.model_only + t.baseline_only + t.neither
    p = mcnemar_p(t.model_only, t.baseline_only)
    verdict = "a difference at the 0.05 level" if p < 0.05 else "no evidence of a difference at the 0.05 level"
    print(
        f"paired with {baseline}: {t.boards} frames both read, {squares} squares: right by this model only"
        f" {t.model_only}, by the baseline only {t.baseline_only} (both right {t.both}, both wrong {t.neither});"
        f" exact McNemar p = {p:.3f}: {verdict}; boards all right {t.boards_model} vs {t.boards_baseline}"
    )
