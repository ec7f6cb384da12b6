"""What a move question offers: the close explanations, widened wherever one of them drops a piece.

Owns: `question_options`. Whether to ask at all is the decision's business (`controller.reconcile.decide`);
this module only chooses the options once a question is asked, so it never makes a move committed. A dropped
piece's kind is the one thing the reader must tell, and a set it never saw may read one kind firmly as another
(a rook as a lance, a pawn as a knight): the move played is then not among the explanations the board fits, or
falls below the first few, and nobody could pick it. So the question also offers every explanation that is a
close one with other kinds dropped on the same squares (each a legal drop of a kind the player held: the
explanations are generated from the rules), those the reader's habits on this set explain best first, then by
score. A move still missing is given by the player (the question's way out, `controller.game.prompts`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from controller.reconcile.evidence import Evidence
from controller.reconcile.habits import ReadingHabits
from controller.reconcile.hypotheses import Hypothesis, dropped_squares

MAX_KIND_OPTIONS = 8
"""Most explanations a question adds for other drop kinds (beyond `ReconcileConfig.max_candidates`)."""


def question_options(
    contenders: Sequence[Hypothesis],
    ranked: Sequence[Hypothesis],
    evidence: Evidence,
    habits: ReadingHabits | None,
    limit: int,
) -> list[Hypothesis]:
    """The first `limit` contenders, then the other-kind variants of those that drop a piece (found among
    `ranked`, every scored explanation), best explained first, at most `MAX_KIND_OPTIONS` of them."""
    asked = list(contenders[:limit])
    keys = {h.key() for h in asked}
    added: list[Hypothesis] = []
    for hypothesis in asked:
        if not any(usi[1] == "*" for usi in hypothesis.moves):
            continue
        variants = [h for h in ranked if h.key() not in keys and other_drop_kinds(h, hypothesis)]
        variants.sort(key=lambda h: (-_habit_fit(h, evidence, habits), -h.score))
        for variant in variants:
            keys.add(variant.key())
            added.append(variant)
    return asked + added[:MAX_KIND_OPTIONS]


def other_drop_kinds(other: Hypothesis, base: Hypothesis) -> bool:
    """`other` is `base` with other kinds dropped on the same squares (`S*5e` for `G*5e`, `P*9g 9i9g` for
    `N*9g 9i9g`), whether or not the dropped piece is still on the board."""
    if other.takeback != base.takeback or len(other.moves) != len(base.moves) or other.moves == base.moves:
        return False
    return all(a == b or (a[1] == b[1] == "*" and a[2:] == b[2:]) for a, b in zip(other.moves, base.moves, strict=True))


def _habit_fit(hypothesis: Hypothesis, evidence: Evidence, habits: ReadingHabits | None) -> float:
    """How well the explanation's dropped pieces explain their squares' reads, by this reader's habits on this
    set (the plain log-probabilities while none are learnt); 0 when no dropped piece is left on the board."""
    labels = hypothesis.labels()
    total = 0.0
    for square in dropped_squares(hypothesis.moves):
        label = int(labels[square])
        row = evidence.log_probs[square]
        total += float(row[label]) if habits is None else habits.likelihood(np.exp(row), label)
    return total
