"""Doubts about a dropped piece's kind, for the decision (`controller.reconcile.decide`): when the reader's habits
on this set tell the kind clearly, which other kinds the dropper's stand tells, and when a read kind is no proof
(a lance on a corner, a drop taken at once, a kind the read does not tell firmly and the habits cannot tell
from another).

Owns: `kind_by_habits`, `kinds_told_by_stand`, `stand_tells`, `corner_lance`, `taken_drop_unsure`, `kind_untold`.
"""

from __future__ import annotations

import cshogi
import numpy as np
import numpy.typing as npt

from controller.reconcile.habits import ReadingHabits
from controller.reconcile.hypotheses import Hypothesis, Scorer, dropped_squares, held_labels
from controller.reconcile.labels import LABEL_INDEX, square_index
from controller.reconcile.questions import other_drop_kinds
from controller.reconcile.types import ReconcileConfig


def kind_by_habits(
    habits: ReadingHabits | None,
    scorer: Scorer,
    ranked: list[Hypothesis],
    contenders: list[Hypothesis],
    config: ReconcileConfig,
) -> tuple[Hypothesis, float] | None:
    """The drop explanation whose kinds the reader's habits on this set tell clearly, with its habit margin, when
    the only question left is a drop's kind: every close explanation drops the same squares, the dropper's
    stand neither confirms the kind nor rules it out (`Scorer.stand_confirms`, `Scorer.stand_against`), every
    kind the player held has been seen on the board long enough (`DECIDING_SQUARE_FRAMES`), one kind explains the
    read by `habit_margin` better than any other, and the board does not contradict it. The reader's raw
    favourite may differ (this set's knight read as a pawn): the habits know how it misreads."""
    best, labels = ranked[0], ranked[0].labels()
    squares = sorted(dropped_squares(best.moves))
    if habits is None or not squares or any(stand_tells(scorer, best, i) for i in squares):
        return None
    variants = [h for h in ranked if h is best or other_drop_kinds(h, best)]
    if len(variants) < 2 or not {id(h) for h in contenders} <= {id(h) for h in variants}:
        return None
    held = {k for i in squares for k in held_labels(int(labels[i]), best.hands, i, labels)}
    if not habits.vouch_for(held):
        return None
    rows = {i: np.exp(scorer.evidence.log_probs[i]) for i in squares}
    fits = sorted(
        ((sum(habits.likelihood(rows[i], int(h.labels()[i])) for i in squares), h) for h in variants),
        key=lambda pair: -pair[0],
    )
    (top, chosen), (second, _) = fits[0], fits[1]
    if top - second < config.habit_margin or scorer.misfit(chosen):
        return None
    return chosen, round(top - second, 3)


def stand_tells(scorer: Scorer, best: Hypothesis, square: int) -> bool:
    """The dropper's stand confirms `best`'s kind on `square` or rules it out."""
    labels, label = best.labels(), int(best.labels()[square])
    return scorer.stand_confirms(label, best.hands, square, labels) or bool(
        scorer.stand_against(label, best.hands, square, labels)
    )


def kinds_told_by_stand(scorer: Scorer, ranked: list[Hypothesis], best: Hypothesis) -> list[Hypothesis]:
    """`best` with other kinds dropped on the same squares that the dropper's stand tells, where it rules out
    `best`'s kind (the board's kind read and the stand's change disagree: only the player can settle it)."""
    labels = best.labels()
    told: dict[int, frozenset[int]] = {}
    for square in dropped_squares(best.moves):
        kinds = scorer.stand_against(int(labels[square]), best.hands, square, labels)
        if kinds:
            told[square] = kinds
    if not told:
        return []
    return [
        h
        for h in ranked
        if h is not best and other_drop_kinds(h, best) and all(int(h.labels()[i]) in k for i, k in told.items())
    ]


_CORNERS = frozenset({0, 8, 72, 80})
"""9a, 1a, 9i, 1i in SFEN order."""
_LANCE_KIND = LABEL_INDEX["L"]


def corner_lance(scorer: Scorer, best: Hypothesis) -> bool:
    """`best` drops a lance on a corner while its player held other kinds it could drop there, and the dropper's
    stand does not confirm the lance: the reader's lance on a corner is no proof. Every lance of the start stands
    on a corner, so a set learnt from the start knows the lance only there, and the generic classifier learnt on
    game positions where corners hold lances. On development frames (one-character faces of fonts never trained on,
    the set learnt from each frame's start, pieces of random kinds placed), 49 of 404 pieces placed on corners
    were read as lances when they were another kind, 53 of 1212 on the other edge squares, 9 of 606 inside the
    board (benchmark game 13 committed L*9a for B*9a). Such a drop is asked, as one whose kind is unread: about
    0.1 drops per 100 moves of real games (games 101-500). Lance drops on the other edge squares, where the bias
    is a third of the corners', are 0.26 per 100 moves: asking them all would cost more prompts than the bias
    there warrants; the scoring and the habits decide them."""
    labels = best.labels()
    for square in dropped_squares(best.moves) & _CORNERS:
        label = int(labels[square])
        if label % 14 != _LANCE_KIND:
            continue
        if len(held_labels(label, best.hands, square, labels)) > 1 and not scorer.stand_confirms(
            label, best.hands, square, labels
        ):
            return True
    return False


def taken_drop_unsure(board: cshogi.Board, best: Hypothesis) -> bool:
    """`best` drops a piece that one of its later moves takes or moves at once (`S*2a 1a2a`): no picture shows the
    dropped piece, so only the hand counts would tell its kind, and a miscounting stand would then decide it (a
    development game committed S*2a for R*2a so). Unsure when its player held more than one kind, or after a
    takeback (the hands then are an earlier position's)."""
    kept = dropped_squares(best.moves)
    turn = board.turn
    for ply, usi in enumerate(best.moves):
        if usi[1] != "*" or square_index(usi[2:4]) in kept:
            continue
        side = turn if ply % 2 == 0 else 1 - turn
        if best.takeback or sum(1 for count in board.pieces_in_hand[side] if count) > 1:
            return True
    return False


def kind_untold(scorer: Scorer, best: Hypothesis, habits: ReadingHabits | None, config: ReconcileConfig) -> bool:
    """`best` drops a piece whose kind nothing tells firmly: its player held other kinds it could drop there, the
    dropper's stand does not confirm the kind, neither the read (`read_lead`) nor its fit to the habits' mean rows
    (`ReadingHabits.likelihood`) puts it `drop_kind_margin` ahead of every other held kind, and by the habits the
    read is not `habit_margin` more typical of it than of some other held kind (`typical_lead`). While the habits
    know fewer than `DECIDING_SQUARE_FRAMES` of any of those kinds (the reader changed lately), only the read's own
    lead counts: development game 25, a two-character set learnt again during the game, committed N*6g for L*6g,
    the lance read 83-85 % knight and 3-4 % lance (3.1-3.3 ahead as read), once with no habits at all and once by
    the fit to habits of 15 lance and 30 knight square-frames. Benchmark game 17
    with the one-ink fine-tune committed S*2i for R*2i: gote's rook on 2i read 87-90 % silver, 4-8 % rook, 5 %
    horse, its stand out of view; the silver led by 2.7-3.2 as read and 3.0-3.6 by the mean rows' fit
    (`kind_by_habits` decided it), but a silver of that set never showed more than a trace of rook (0.2 % on
    average at most) while its rook showed 1.3 % silver: by the habits the read was as unlike one kind as the
    other (typical lead -0.6 to 0.8)."""
    labels = best.labels()
    for square in dropped_squares(best.moves):
        label = int(labels[square])
        others = [k for k in held_labels(label, best.hands, square, labels) if k != label]
        if habits is None or not others or scorer.stand_confirms(label, best.hands, square, labels):
            continue
        row = np.exp(scorer.evidence.log_probs[square])
        as_read = read_lead(row, label, others, config.probability_floor)
        if not habits.vouch_for((label, *others)):
            if as_read < config.drop_kind_margin:
                return True  # habits this young vouch for no kind: only a firm read tells it
            continue
        fit = habits.likelihood(row, label) - max(habits.likelihood(row, k) for k in others)
        if max(as_read, fit) >= config.drop_kind_margin:
            continue
        for other in others:
            typical = typical_lead(habits, row, label, other, config.probability_floor)
            if typical is None or typical < config.habit_margin:
                return True
    return False


def read_lead(row: npt.NDArray[np.float64], label: int, others: list[int], floor: float) -> float:
    """Log-odds of `label`'s kind over the likeliest of `others`' kinds in a square's read probabilities `row`
    (each kind's probability summed over both owners: who dropped the piece comes from the game; probabilities
    clipped at `floor`)."""
    kinds = row[:14] + row[14:28]
    rival = max(float(kinds[k % 14]) for k in others)
    return float(np.log(max(float(kinds[label % 14]), floor)) - np.log(max(rival, floor)))


def typical_lead(
    habits: ReadingHabits, row: npt.NDArray[np.float64], label: int, other: int, floor: float
) -> float | None:
    """How much more typical the read `row` is of `label` than of `other` by the habits, in log-odds; None while
    the habits know either too little. By Markov's inequality, squares of a kind whose mean probability of label j
    is m give j a probability of x or more at most m / x of the time: a `label` piece shows `other` as much as the
    read does at most m_label[other] / row[other] of the time, an `other` piece shows `label` as much at most
    m_other[label] / row[label] (each bound capped at 1, means floored at `floor`). Unlike the mean rows' fit
    (`ReadingHabits.likelihood`), which weighs each label by how much of the read it holds, a trace of a kind
    that the other kind never shows counts as much as it tells."""
    mine, theirs = habits.mean(label), habits.mean(other)
    if mine is None or theirs is None:
        return None
    as_mine = min(1.0, max(float(mine[other]), floor) / max(float(row[other]), floor))
    as_theirs = min(1.0, max(float(theirs[label]), floor) / max(float(row[label]), floor))
    return float(np.log(as_mine) - np.log(as_theirs))
