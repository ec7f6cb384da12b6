"""Explanations of the board and their scores: nothing changed, one legal move, two, or a takeback.

Owns: generating candidate positions from the game state and scoring them against the evidence window.
A position's score is the sum over squares of its labels' mean log-probabilities, plus a hands term over the
stands that are read (each player's stand on its own: one out of view says nothing, the other still counts),
plus a prior cost for the less likely kinds of explanation (two moves, takebacks, a piece that could promote and
does not). A move changes only two squares, so a successor is scored from its parent's total by two or three
table look-ups. Pairs of moves are pruned: both moves must start on (or, for a drop, land on) a square that
shows change.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

import cshogi
import numpy as np
import numpy.typing as npt

from controller.reconcile.evidence import Evidence
from controller.reconcile.habits import ReadingHabits
from controller.reconcile.labels import (
    EMPTY_INDEX,
    HAND_LABELS,
    LABEL_INDEX,
    OCCUPANCY,
    SFEN_TO_CS,
    SQUARE_LABELS,
    Hands,
    Labels,
    Pairs,
    move_effect,
    owner,
    slot_side,
    square_index,
    stand_slots,
)
from controller.reconcile.types import ReconcileConfig

Changes = tuple[tuple[int, int], ...]


class Hypothesis(NamedTuple):
    """One explanation.

    Attributes:
        takeback: plies taken back first (0: none).
        moves: USI moves played after that.
        base: the labels of the position the changes apply to (the expected one, or the earlier one).
        changes: (square, label) pairs that differ from `base`.
        hands: the hand counts of the explained position.
        score: total log-likelihood with the hands term and the prior.
    """

    takeback: int
    moves: tuple[str, ...]
    base: Labels
    changes: Changes
    hands: Hands
    score: float

    def labels(self) -> Labels:
        """The 81 labels of the explained position."""
        labels = self.base.copy()
        for square, label in self.changes:
            labels[square] = label
        return labels

    def key(self) -> tuple[int, tuple[str, ...]]:
        """Identity of the explanation (what would be committed)."""
        return self.takeback, self.moves


@dataclass(frozen=True, eq=False)
class Base:
    """A position to expand from, with its score and per-square score deltas.

    Attributes:
        labels: the position's 81 labels.
        hands: its hand counts.
        board_score: sum of the mean log-probabilities of its labels.
        rows: rows[square][label] = the evidence's mean log-probability (nested lists: fast look-ups).
        own: own[square] = rows[square][labels[square]]: `square` showing `label` instead changes the score by
            rows[square][label] - own[square].
        changed: squares whose evidence does not clearly favour the position's label.
        changed_cs: the same squares in cshogi's square order (to filter cshogi moves before converting them).
        hand_score: the hands term of the position.
        hand_steps: (slot, +1 or -1) -> how much a piece more or less in that hand slot lowers the hands term
            (None when the stands are not used).
    """

    labels: Labels
    hands: Hands
    board_score: float
    rows: list[list[float]]
    own: list[float]
    changed: frozenset[int]
    changed_cs: frozenset[int]
    hand_score: float
    hand_steps: dict[tuple[int, int], float] | None


class Scorer:
    """Scores positions against one evidence window."""

    def __init__(self, evidence: Evidence, config: ReconcileConfig, stand_offset: Hands | None = None) -> None:
        """`stand_offset`: per hand slot, how the stands read more than they held when the board last showed the
        expected position (a stand reader that miscounts a crowded stand the same way frame after frame)."""
        self.evidence = evidence
        self.config = config
        usable = evidence.hands is not None and evidence.hand_confidence >= config.hands_min_confidence
        self._hands_seen = evidence.hands if usable else None
        self._stand_read = evidence.hand_sides if usable else (False, False)
        self._hands_shifted = None
        self._offset = stand_offset
        if self._hands_seen is not None and stand_offset is not None and any(stand_offset):
            self._hands_shifted = tuple(max(a - b, 0) for a, b in zip(self._hands_seen, stand_offset, strict=True))
        self._hand_scale = config.hand_weight * evidence.hand_confidence
        self._rows: list[list[float]] | None = None  # the evidence's log-probabilities as lists, made once

    @property
    def hands_seen(self) -> Hands | None:
        """The hand counts used for scoring (None when no stand is read or trusted; the slots of a stand not
        read are 0 and say nothing: see `slot_read`)."""
        return self._hands_seen

    def slot_read(self, slot: int) -> bool:
        """Whether hand slot `slot` (sente's R..P are 0..6, gote's 7..13) is on a stand read and trusted."""
        return self._stand_read[slot_side(slot)]

    def hands_term(self, hands: Hands) -> float:
        """Minus the weighted number of pieces by which `hands` differs from the stands as read (per slot, the
        read count or that count less the reader's usual miscount of the slot, whichever is nearer: a change of
        the stands is evidence even when the reader's count is off by its usual amount)."""
        if self._hands_seen is None:
            return 0.0
        return -self._hand_scale * sum(self._slot_cost(slot, n) for slot, n in enumerate(hands))

    def _hands_terms(self, hands: Sequence[Hands]) -> list[float]:
        """`hands_term` of many hand counts at once (the same values: integer costs summed exactly)."""
        if self._hands_seen is None:
            return [0.0] * len(hands)
        sums = self._slot_costs(np.array(hands, dtype=np.int64).reshape(len(hands), -1)).sum(axis=1)
        return [-self._hand_scale * int(total) for total in sums]

    def _slot_costs(self, counts: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        """`_slot_cost` of every slot of every row of `counts` (rows of 14 hand counts); stands are used."""
        assert self._hands_seen is not None
        cost: npt.NDArray[np.int64] = np.abs(np.array(self._hands_seen, dtype=np.int64) - counts)
        if self._hands_shifted is not None:
            cost = np.minimum(cost, np.abs(np.array(self._hands_shifted, dtype=np.int64) - counts))
        read = np.array([self._stand_read[slot_side(slot)] for slot in range(counts.shape[1])])
        cost[:, ~read] = 0
        return cost

    def _hand_steps(self, hands: Hands) -> dict[tuple[int, int], float] | None:
        """Per hand slot and change (+1, -1), the weighted change of the hands' cost from `hands` (what a move
        taking or dropping one piece adds to the cost: `_scored` subtracts it)."""
        if self._hands_seen is None:
            return None
        counts = np.array(hands, dtype=np.int64)
        now, more, fewer = self._slot_costs(np.stack([counts, counts + 1, counts - 1])).tolist()
        scale = self._hand_scale
        steps = {}
        for slot, cost in enumerate(now):
            steps[slot, 1] = scale * (more[slot] - cost)
            steps[slot, -1] = scale * (fewer[slot] - cost)
        return steps

    def _slot_cost(self, slot: int, count: int) -> int:
        assert self._hands_seen is not None
        if not self.slot_read(slot):
            return 0
        cost = abs(self._hands_seen[slot] - count)
        if self._hands_shifted is not None:
            cost = min(cost, abs(self._hands_shifted[slot] - count))
        return cost

    def base(self, labels: Labels, hands: Hands) -> Base:
        """Prepare `labels` as a parent position."""
        log_probs = self.evidence.log_probs
        squares = np.arange(81)
        own = log_probs[squares, labels]
        others = log_probs.copy()
        others[squares, labels] = -np.inf
        # max over other labels of (row - own) is (max of the row's others) - own: rounding is monotone
        changed = np.flatnonzero(others.max(axis=1) - own > -self.config.prune_margin).tolist()
        if self._rows is None:
            self._rows = log_probs.tolist()
        return Base(
            labels,
            hands,
            float(own.sum()),
            self._rows,
            own.tolist(),
            frozenset(changed),
            frozenset(_SFEN_TO_CS_LIST[i] for i in changed),
            self.hands_term(hands),
            self._hand_steps(hands),
        )

    def positions(self, earlier: list[tuple[int, Labels, Hands]], prior: float) -> list[Hypothesis]:
        """Earlier positions (plies back, labels, hands) scored from scratch as takebacks."""
        if not earlier:
            return []
        stacked = np.stack([labels for _, labels, _ in earlier])
        scores = self.evidence.log_probs[np.arange(81)[None, :], stacked].sum(axis=1)
        terms = self._hands_terms([hands for _, _, hands in earlier])
        return [
            Hypothesis(plies, (), labels, (), hands, float(score) + term - prior)
            for (plies, labels, hands), score, term in zip(earlier, scores, terms, strict=True)
        ]

    def successors(
        self, board: cshogi.Board, base: Base, *, takeback: int, prior: float, pairs: bool, skip: str | None = None
    ) -> list[Hypothesis]:
        """Every legal move from `board` (and pruned pairs when `pairs`), scored against `base`."""
        found: list[Hypothesis] = []
        pieces = board.pieces
        turn = board.turn
        legal = list(board.legal_moves)
        declines = self._declines(pieces, legal)
        changed = base.changed_cs
        for move in legal:
            usi = cshogi.move_to_usi(move)
            if usi == skip:
                continue
            changes, hand_delta = move_effect(pieces, turn, move)
            cost = prior + declines.get(move, 0.0)
            first = self._scored(base, takeback, (usi,), changes, hand_delta, prior=cost)
            found.append(first)
            if pairs and _primary_cs(move) in changed:
                board.push(move)
                try:
                    found.extend(self._replies(board, base, first, hand_delta, cost + self.config.pair_penalty))
                finally:
                    board.pop()
        return found

    def _replies(
        self, board: cshogi.Board, base: Base, first: Hypothesis, first_hands: Pairs, prior: float
    ) -> list[Hypothesis]:
        """Legal replies to `first` (already pushed on `board`) that start on a changed square."""
        changed = base.changed_cs
        kept = [
            move
            for move in board.legal_moves
            if (move >> 7) & _SQUARE_BITS in changed
            or ((move >> 7) & _SQUARE_BITS >= _FIRST_DROP_SOURCE and move & _SQUARE_BITS in changed)
        ]  # _primary_cs(move) in changed, inline: a changed square is a board square (< 81)
        if not kept:
            return []
        pieces = board.pieces
        turn = board.turn
        # a move's promoting twin starts on the same square, so it is kept too: declines need only the kept moves
        declines = self._declines(pieces, kept)
        found = []
        for move in kept:
            changes, hand_delta = move_effect(pieces, turn, move)
            merged = dict(first.changes)
            merged.update(changes)
            moves = (*first.moves, cshogi.move_to_usi(move))
            cost = prior + declines.get(move, 0.0)
            found.append(
                self._scored(base, first.takeback, moves, tuple(merged.items()), first_hands + hand_delta, prior=cost)
            )
        return found

    def _declines(self, pieces: list[int], moves: list[int]) -> dict[int, float]:
        """Prior cost of each move (of `moves`) that could promote and does not, by cshogi move:
        `decline_cost` by the piece's kind (a move declines when its promoting twin, the same squares with the
        promotion flag, is among `moves`)."""
        costs = self.config.decline_cost
        promoting = {move & _SQUARES_MASK for move in moves if move & _PROMOTION_FLAG}
        if not promoting:
            return {}
        found: dict[int, float] = {}
        for move in moves:
            if not move & _PROMOTION_FLAG and move & _SQUARES_MASK in promoting:
                kind = _CS_KIND_LETTERS[pieces[cshogi.move_from(move)] & 15]
                found[move] = costs.get(kind, 0.0)
        return found

    @staticmethod
    def _scored(
        base: Base, takeback: int, moves: tuple[str, ...], changes: Changes, hand_delta: Pairs, *, prior: float
    ) -> Hypothesis:
        """Score from the parent's totals: the changed squares' deltas, and the changed hand slots' steps
        (`hand_delta`: changes of +1 or -1, as `move_effect` gives them)."""
        rows = base.rows
        own = base.own
        score = base.board_score + base.hand_score - prior
        for square, label in changes:
            score += rows[square][label] - own[square]
        if not hand_delta:
            return _new_hypothesis(Hypothesis, (takeback, moves, base.labels, changes, base.hands, score))
        steps = base.hand_steps
        if steps is not None:
            for step in hand_delta:
                score -= steps[step]
        hands = _apply_hands(base.hands, hand_delta)
        return _new_hypothesis(Hypothesis, (takeback, moves, base.labels, changes, hands, score))

    def misfit(self, hypothesis: Hypothesis) -> list[int]:
        """Squares that contradict the explanation by more than the mismatch threshold: a piece where it has
        none, none where it has one, the wrong owner, or the wrong kind where it drops a piece. The kinds of
        pieces already on the board come from the game, not from the reader. A dropped piece's kind is only
        weighed against the kinds its player held (a piece can only come from the stand, however the board reads
        it), unless that player's stand is read and still shows the dropped piece: then the kind seen must be
        it."""
        labels = hypothesis.labels()
        dropped = dropped_squares(hypothesis.moves)
        choices = {
            square: held_labels(int(labels[square]), hypothesis.hands, square, labels)
            for square in dropped
            if not self.stand_still_holds(int(labels[square]), hypothesis.hands)
        }
        return contradictions(self.evidence, labels, dropped, self.config, choices)

    def kind_unread(self, hypothesis: Hypothesis) -> bool:
        """A drop of the explanation whose kind neither the board nor the stands tell: the reader's best kind on
        the square (either owner's: who dropped it comes from the game) is one its player could not drop, more
        than one kind was held, and that player's stand does not tell that kind (`stand_confirms`). Then the kind is
        asked, never guessed."""
        labels = hypothesis.labels()
        for square in dropped_squares(hypothesis.moves):
            label = int(labels[square])
            held = held_labels(label, hypothesis.hands, square, labels)
            if self.best_kind(square) in {k % 14 for k in held} or len(held) < 2:
                continue
            if not self.stand_confirms(label, hypothesis.hands, square, labels):
                return True
        return False

    def stand_kinds(
        self, label: int, hands: Hands, square: int, labels: Labels, *, as_read: bool = False
    ) -> frozenset[int]:
        """The labels the piece dropped as `label` on `square` could have been (`held_labels`) whose drop leaves
        the dropper's stand exactly as it is read, or (unless `as_read`) as this reader usually misreads it (the
        counts less the usual miscount); empty when that stand is not read. `hands`, `labels`: the explained
        position."""
        side = _dropper(label)
        if self._hands_seen is None or not self._stand_read[side]:
            return frozenset()
        mine = stand_slots(side)
        shifted = None if as_read else self._hands_shifted
        readings = [r[mine] for r in (self._hands_seen, shifted) if r is not None]
        found = set()
        for kind in held_labels(label, hands, square, labels):
            counts = list(hands)
            counts[HAND_LABELS.index(SQUARE_LABELS[label])] += 1
            counts[HAND_LABELS.index(SQUARE_LABELS[kind])] -= 1
            if tuple(counts[mine]) in readings:
                found.add(kind)
        return frozenset(found)

    def stand_confirms(self, label: int, hands: Hands, square: int, labels: Labels) -> bool:
        """The dropper's stand tells that the piece dropped on `square` was `label` and no other kind: as read,
        and the reader read that stand right when the board last showed the expected position (a stand reader
        that misreads some kind on this set may misread it again: bench game 1 had committed G*4a for B*4a when
        the stand's usual miscount was taken as telling the kind)."""
        mine = stand_slots(_dropper(label))
        if self._offset is not None and any(self._offset[mine]):
            return False
        return self.stand_kinds(label, hands, square, labels, as_read=True) == {label}

    def stand_against(self, label: int, hands: Hands, square: int, labels: Labels) -> frozenset[int]:
        """Other kinds the dropper's stand says left (as read or as usually misread) while it rules out `label`
        (empty when it does not)."""
        kinds = self.stand_kinds(label, hands, square, labels)
        return frozenset() if label in kinds else kinds

    def stand_still_holds(self, dropped: int, hands: Hands) -> bool:
        """The dropper's stand is read and still holds the dropped piece: as many of its kind as before the drop
        (`hands`: after it)."""
        slot = HAND_LABELS.index(SQUARE_LABELS[dropped])
        if self._hands_seen is None or not self.slot_read(slot):
            return False
        return self._hands_seen[slot] == hands[slot] + 1

    def best_kind(self, square: int) -> int:
        """The reader's likeliest kind on `square` whoever owns it: a sente label index (0..13), or the empty
        label."""
        probs = np.exp(self.evidence.log_probs[square])
        kinds = probs[:14] + probs[14:28]
        best = int(np.argmax(kinds))
        return best if kinds[best] >= probs[EMPTY_INDEX] else EMPTY_INDEX

    def kind_confusable(self, hypothesis: Hypothesis, habits: ReadingHabits) -> bool:
        """A drop of the explanation whose read another held kind explains nearly as well, by how this reader
        reads this set (its habits on known pieces, within `habit_margin`), while the dropper's stand does not tell
        which kind left."""
        labels = hypothesis.labels()
        for square in dropped_squares(hypothesis.moves):
            label = int(labels[square])
            if self.stand_confirms(label, hypothesis.hands, square, labels):
                continue
            row = np.exp(self.evidence.log_probs[square])
            mine = habits.likelihood(row, label)
            held = held_labels(label, hypothesis.hands, square, labels)
            others = [habits.likelihood(row, k) for k in held if k != label]
            if others and max(others) > mine - self.config.habit_margin:
                return True
        return False


_CS_KIND_LETTERS = ("", "P", "L", "N", "S", "B", "R", "G", "K", "+P", "+L", "+N", "+S", "+B", "+R")
_new_hypothesis = tuple.__new__  # Hypothesis(...) without NamedTuple's Python-level __new__ (many per window)
_SFEN_TO_CS_LIST: tuple[int, ...] = tuple(int(cs) for cs in SFEN_TO_CS)

# cshogi's move encoding (the low 16 bits): target square in bits 0-6, source in bits 7-13 (81 and up for a drop:
# 81 + the dropped kind), promotion flag in bit 14. Read directly: the pair expansion filters thousands of moves
# a window (tests compare with cshogi.move_to, move_from, move_is_drop, move_is_promotion on every legal move).
_SQUARE_BITS = 0x7F
_SQUARES_MASK = 0x3FFF
_PROMOTION_FLAG = 1 << 14
_FIRST_DROP_SOURCE = 81


def _primary_cs(move: int) -> int:
    """`move_primary_square` in cshogi's square order: a board move's source, a drop's target."""
    source = (move >> 7) & _SQUARE_BITS
    return move & _SQUARE_BITS if source >= _FIRST_DROP_SOURCE else source


def held_labels(
    dropped: int, hands_after: Hands, square: int | None = None, labels: Labels | None = None
) -> tuple[int, ...]:
    """The labels a piece dropped as `dropped` could have been: the dropper's kinds in hand before the drop
    (those still held after it, and the dropped kind); with `square` and the position's `labels`, only the kinds
    the rules let that player drop there (no pawn, lance or knight where it could never move, no second
    unpromoted pawn on a file)."""
    found = {dropped}
    mine = stand_slots(_dropper(dropped))
    for slot in range(mine.start, mine.stop):
        if hands_after[slot] > 0:
            letter = HAND_LABELS[slot]
            found.add(LABEL_INDEX[letter])
    if square is not None and labels is not None:
        found = {k for k in found if k == dropped or _droppable(k, square, labels)}
    return tuple(sorted(found))


def _droppable(label: int, square: int, labels: Labels) -> bool:
    """Whether the rules allow a piece of `label` to be dropped on `square` of the position `labels` (the
    square itself aside): ranks it could never leave, and nifu."""
    kind = SQUARE_LABELS[label].upper()
    rank, column = divmod(square, 9)
    ahead = rank if label < 14 else 8 - rank  # ranks in front of the dropped piece
    if (kind in ("P", "L") and ahead < 1) or (kind == "N" and ahead < 2):
        return False
    if kind == "P":
        return not any(int(labels[r * 9 + column]) == label for r in range(9) if r != rank)
    return True


def _dropper(label: int) -> int:
    """The player (0 sente, 1 gote) whose piece `label` is (a dropped piece: never empty)."""
    side = owner(label)
    assert side is not None, "a dropped piece has an owner"
    return side


def contradictions(
    evidence: Evidence,
    labels: Labels,
    kind_checked: set[int],
    config: ReconcileConfig,
    kind_choices: Mapping[int, Sequence[int]] | None = None,
) -> list[int]:
    """Squares of `labels` the evidence contradicts (occupancy everywhere, the kind on `kind_checked`: against
    every label, or only those `kind_choices` gives for the square), worst first."""
    rows = np.arange(81)
    occupancy = evidence.occupancy_log_probs
    odds = occupancy[rows, evidence.occupancy] - occupancy[rows, OCCUPANCY[labels]]
    for square in kind_checked:
        row = evidence.log_probs[square]
        choices = None if kind_choices is None else kind_choices.get(square)
        best = row[evidence.best[square]] if choices is None else max(row[label] for label in choices)
        odds[square] = max(odds[square], best - row[labels[square]])
    bad = np.flatnonzero(odds > config.mismatch_log_odds)
    return sorted((int(i) for i in bad), key=lambda i: -float(odds[i]))


def dropped_squares(moves: tuple[str, ...]) -> set[int]:
    """Squares where `moves` drop a piece that is still there after them."""
    squares: set[int] = set()
    for usi in moves:
        if usi[1] == "*":
            squares.add(square_index(usi[2:4]))
        else:
            squares.discard(square_index(usi[0:2]))
            squares.discard(square_index(usi[2:4]))
    return squares


def _apply_hands(hands: Hands, delta: Pairs) -> Hands:
    if not delta:
        return hands
    counts = list(hands)
    for slot, change in delta:
        counts[slot] += change
    return tuple(counts)
