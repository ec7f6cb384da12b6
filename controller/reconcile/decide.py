"""The decision for one evidence window: which explanation wins, or what stands in the way.

Owns: ranking the scored explanations and turning the ranking into a proposal: no change, a move (or two)
to commit, a takeback, or a problem to report once it persists (an unreadable square, a board nothing legal
fits, two explanations too close to call, a drop whose kind the board and the dropper's stand disagree on, piece
stands that still show the position before the move, a move other than the expected one). Each player's stand
counts on its own: one out of view or covered says nothing, the other still tells its player's drops.
The reconciler decides when a proposal has been seen often and long enough to act on. The doubts about a
dropped piece's kind live in `controller.reconcile.drop_kinds`.
"""

from __future__ import annotations

import enum
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

import cshogi
import numpy as np
import numpy.typing as npt

from controller.reconcile.diagnose import explain_against, explain_mismatch, hands_sentences, unclear_sentence
from controller.reconcile.drop_kinds import (
    corner_lance,
    kind_by_habits,
    kind_untold,
    kinds_told_by_stand,
    taken_drop_unsure,
)
from controller.reconcile.evidence import Evidence
from controller.reconcile.habits import ReadingHabits
from controller.reconcile.hypotheses import Hypothesis, Scorer, dropped_squares
from controller.reconcile.labels import (
    LABEL_INDEX,
    OCCUPANCY,
    SQUARE_LABELS,
    Hands,
    Labels,
    board_labels,
    owner,
    square_name,
)
from controller.reconcile.questions import other_drop_kinds, question_options
from controller.reconcile.types import (
    Ambiguous,
    Candidate,
    Mismatch,
    MoveCommitted,
    NoChange,
    ReconcileConfig,
    Result,
    Takeback,
    Waiting,
)


class ProposalKind(enum.Enum):
    """How the reconciler treats a proposal."""

    NO_CHANGE = "no_change"  # reported at once
    WAIT = "wait"  # reported at once
    MOVE = "move"  # committed after agree_frames
    TAKEBACK = "takeback"  # reported after agree_frames
    PROBLEM = "problem"  # reported after agree_frames and settle_seconds; Waiting(pending) before


@dataclass(frozen=True)
class Proposal:
    """What one window suggests.

    Attributes:
        kind: how it is treated.
        key: identity for counting agreeing frames.
        result: what to report once it is settled (for MOVE: the commit, applied by the reconciler).
        pending: the reason reported while it is not settled yet (or, for a held MOVE, while it is held).
        held: a MOVE to hold back for `stand_wait_seconds` (the piece stands still read as before it).
        expired: for a held MOVE, what to report instead of committing it once the hold has lasted
            `stand_wait_seconds` (None: commit on the board's evidence): a drop whose dropper's stand, seen to
            count that kind right, still shows the dropped piece is asked among the kinds, not guessed. For a
            WAIT on hidden squares, what to report once they have stayed hidden `hidden_seconds`.
    """

    kind: ProposalKind
    key: Hashable
    result: Result
    pending: str = ""
    held: bool = False
    expired: Result | None = None


@dataclass(frozen=True, eq=False)
class GameView:
    """What the decision needs to know about the game.

    Attributes:
        board: the last legal position (read only here).
        labels: its labels.
        hands: its hand counts.
        expected_move: the move the board should come to (robot or assisted move), or None.
        habits: how the reader reads this set (for a drop's kind), when learnt.
        stand_trusted: per hand slot, the most pieces its stand has been seen to count right while the position
            was confirmed (`ReconcileConfig.stand_trust_frames`; 0: never): a lagging slot holds a move back only
            when the counts before and after the move are both within it.
        steady_unseen: the squares unseen on the last frames that confirmed the position (the reader's lasting
            false alarms, which say nothing of a hand): only the others tell that a hand may be over the board.
        edge_changed: the edge squares whose rim differs from the rim when the position was last confirmed
            (`EdgeWatch`): a hand may be at the board's edge there, though it hides no square.
    """

    board: cshogi.Board
    labels: Labels
    hands: Hands
    expected_move: str | None
    habits: ReadingHabits | None = None
    stand_trusted: Hands = ()
    steady_unseen: frozenset[int] = frozenset()
    edge_changed: frozenset[int] = frozenset()


def propose(game: GameView, hypotheses: list[Hypothesis], scorer: Scorer, config: ReconcileConfig) -> Proposal:
    """The proposal for one window; `hypotheses` must hold the no-change explanation."""
    evidence = scorer.evidence
    ranked = sorted(hypotheses, key=lambda h: -h.score)
    unclear = unclear_squares(evidence, ranked[0].labels(), config)
    if unclear:
        sentence = unclear_sentence(unclear)
        squares = tuple(square_name(i) for i in unclear)
        return Proposal(ProposalKind.PROBLEM, ("unclear",), Mismatch((sentence,), squares), sentence)
    best = ranked[0]
    contenders = [h for h in ranked[: config.max_candidates * 4] if h.score >= best.score - config.commit_margin]
    fitting = [h for h in contenders if not scorer.misfit(h)]
    if not fitting:
        return _mismatch(game, evidence, best, config)
    if fitting[0] is best:
        contenders = fitting  # a close explanation the board plainly contradicts is no question to ask
    contenders = [h for h in contenders if h is best or not _unobservable_promotion(h, best, config)]
    hidden = sorted({i for h in contenders for i in _changed(h, game.labels) if i in evidence.unseen})
    if hidden:
        return _hidden(hidden)
    unsure = _unsure_beside_a_hand(evidence, best, game, config)
    if unsure:
        return Proposal(ProposalKind.WAIT, ("covered", tuple(unsure)), Waiting(_covered_text(unsure)))
    told = [h for h in kinds_told_by_stand(scorer, ranked, best) if all(h is not c for c in contenders)]
    contenders = [*contenders, *told]  # the board says one kind, the dropper's stand another: ask
    lance_on_corner = corner_lance(scorer, best)
    decided = None if lance_on_corner else kind_by_habits(game.habits, scorer, ranked, contenders, config)
    if decided is not None and not kind_untold(scorer, decided[0], game.habits, config):
        return _clear_winner(game, decided[0], decided[1], scorer, ranked)
    unsure_kind = (
        lance_on_corner
        or scorer.kind_unread(best)
        or kind_untold(scorer, best, game.habits, config)
        or (game.habits is not None and scorer.kind_confusable(best, game.habits))
        or taken_drop_unsure(game.board, best)
    )
    if len(contenders) == 1 and unsure_kind:
        contenders += [h for h in ranked if h is not best and other_drop_kinds(h, best)]
    contenders += _untold_promotion_twin(scorer, ranked, contenders, config)
    face = _promotion_by_face(scorer, contenders, game.habits, config)
    if face is not None:
        return _clear_winner(game, face[0], face[1], scorer, ranked)
    if len(contenders) > 1:
        asked = question_options(contenders, ranked, evidence, game.habits, config.max_candidates)
        candidates = tuple(_candidate(h) for h in asked)
        texts = " or ".join(c.text for c in candidates)
        return Proposal(ProposalKind.PROBLEM, ("ambiguous",), Ambiguous(candidates), f"undecided: {texts}")
    margin = best.score - ranked[1].score if len(ranked) > 1 else float("inf")
    return _clear_winner(game, best, margin, scorer, ranked)


def unclear_squares(evidence: Evidence, labels: Labels, config: ReconcileConfig) -> list[int]:
    """Seen squares whose occupancy (sente's piece, gote's piece, empty) is uncertain and not the one `labels`
    gives there: a piece knocked over or off its square. A square whose most likely occupancy is the explained
    one is not unclear, however unsure the reader is of it (a piece style the reader confuses is not a mess on
    the board: who stands on an unchanged square comes from the game); nor is a square where `labels` has a
    piece and the reader clearly sees some piece there (by `mismatch_log_odds` over empty) but not whose: its
    owner comes from the game too (a reading that clearly contradicts the owner is the scoring's and the
    mismatch test's business)."""
    explained = OCCUPANCY[labels]
    fits = explained == evidence.occupancy
    sure = np.log(np.maximum(evidence.occupied, 1e-300)) - evidence.occupancy_log_probs[:, 2] > config.mismatch_log_odds
    placed = (explained != 2) & sure
    return [
        i
        for i in range(81)
        if i not in evidence.unseen
        and evidence.confidence[i] < config.unclear_probability
        and not fits[i]
        and not placed[i]
    ]


def stand_lagging(seen: Hands, before: Hands, best: Hypothesis, read: Sequence[bool] | None = None) -> list[int]:
    """Hand slots the explanation changes whose count as read is still the count before it: the stand does not
    show the captured piece yet, or still shows the dropped one. A slot read as some third count is a misread
    (the board decides), and slots the explanation does not change are no reason to hold it back; nor are the
    slots of a stand not read (`read`: per slot, its stand was read; None: all were)."""
    return [
        slot
        for slot, (have, was, wanted) in enumerate(zip(seen, before, best.hands, strict=True))
        if was != wanted and have == was and (read is None or read[slot])
    ]


def _clear_winner(
    game: GameView, best: Hypothesis, margin: float, scorer: Scorer, ranked: Sequence[Hypothesis] = ()
) -> Proposal:
    if best.takeback:
        return Proposal(ProposalKind.TAKEBACK, ("takeback", best.key()), Takeback(best.takeback, best.moves))
    if not best.moves:
        return Proposal(ProposalKind.NO_CHANGE, ("none",), NoChange())
    expected = game.expected_move
    if expected is not None and best.moves[0] != expected:
        squares = tuple(square_name(i) for i in _changed(best, game.labels))
        sentence = f"the move to make is {expected}, but the board shows {best.moves[0]} instead."
        return Proposal(ProposalKind.PROBLEM, ("wrong", best.moves), Mismatch((sentence,), squares), sentence)
    commit = MoveCommitted(best.moves, round(margin, 3))
    seen = scorer.hands_seen
    read = [scorer.slot_read(slot) for slot in range(len(game.hands))]
    lagging = [] if seen is None else stand_lagging(seen, game.hands, best, read)
    lagging = [slot for slot in lagging if _stand_counts(game, slot, best.hands[slot])]
    if seen is not None and lagging:
        pending = f"waiting for the piece stands: {hands_sentences(seen, best.hands, lagging)[0]}"
        expired = None
        if any(best.hands[slot] < game.hands[slot] for slot in lagging):  # the dropped piece still on its stand
            shown = [h for h in ranked if other_drop_kinds(h, best) and _stand_shows_drop(seen, read, best, h)]
            if shown:
                kinds = (best, *shown)[: scorer.config.max_candidates]
                expired = Ambiguous(tuple(_candidate(h) for h in kinds))
        return Proposal(ProposalKind.MOVE, ("move", best.moves), commit, pending, held=True, expired=expired)
    return Proposal(ProposalKind.MOVE, ("move", best.moves), commit)


def _stand_shows_drop(seen: Hands, read: Sequence[bool], best: Hypothesis, other: Hypothesis) -> bool:
    """Every kind `other` drops in place of `best`'s reads on its player's stand, as read, as `other` leaves it
    (the stand shows that kind gone): with `best`'s dropped piece still shown on a stand seen to count it, the
    player is asked rather than the board's kind committed (dev game 401: this set's rook dropped on 8b read as a
    lance, the lance still on the stand; L*8b, then with the reply L*8b N*5b, had been committed)."""
    dropped = [slot for slot, (mine, theirs) in enumerate(zip(other.hands, best.hands, strict=True)) if mine < theirs]
    return bool(dropped) and all(read[slot] and seen[slot] == other.hands[slot] for slot in dropped)


def _stand_counts(game: GameView, slot: int, wanted: int) -> bool:
    """The slot's stand has been seen to count as many pieces as the slot holds before and after the move (a
    stand that never showed this set's gold, or never counted a third pawn, is not waited for)."""
    trusted = game.stand_trusted[slot] if game.stand_trusted else 0
    return max(game.hands[slot], wanted) <= trusted


def _promotion_by_face(
    scorer: Scorer, contenders: list[Hypothesis], habits: ReadingHabits | None, config: ReconcileConfig
) -> tuple[Hypothesis, float] | None:
    """The promotion choice the moved piece's face tells, with its margin, when the only question left is whether
    one move promoted (two close explanations, the same moves but for one promotion, differing on one square).
    The face is weighed over kinds (`_face_lead`: every promoted label of the mover against every unpromoted one
    that can promote: a horse this set's reader takes for a tokin still reads promoted), plus the prior against
    declining (`decline_cost`); it must clear `commit_margin`. Where the habits know how this reader reads the
    rejected face on this set, that face must read as itself (a set whose silver reads promoted tells nothing by
    a promoted face); where they know how it reads the chosen face, the read must fit it (`_fits_chosen_face`).
    It only settles the promotion, never which move."""
    twins = _promotion_twins(contenders)
    if twins is None:
        return None
    promoted, declined, square = twins
    row, side, _, lead = _moved_face(scorer, declined, square, config)
    chosen, rejected = (promoted, declined) if lead > 0 else (declined, promoted)
    if abs(lead) < config.commit_margin or scorer.misfit(chosen):
        return None
    usual = None if habits is None else habits.mean(int(rejected.labels()[square]))
    if usual is not None and (_face_lead(usual, side) > 0) == (lead > 0):
        return None
    if not _fits_chosen_face(row, int(chosen.labels()[square]), habits, config):
        return None
    return chosen, round(abs(lead), 3)


def _untold_promotion_twin(
    scorer: Scorer, ranked: list[Hypothesis], contenders: list[Hypothesis], config: ReconcileConfig
) -> list[Hypothesis]:
    """The best explanation's promotion twin (the same moves but for one promotion choice; `_promotion_twins`)
    when it is no contender but the moved piece's face does not tell the choice either: the two differ on one
    square, by the log-odds of two labels of one kind, which a face read as some other kind parts by chance
    (development game 23 on a cursive two-character set: the promoted silver of 3d2c+ read as a tokin 37 %, a
    pawn 32 %, a rook, a bishop, the silver's own labels under 2 %; their ratio put 3d2c ahead by more than
    `commit_margin`, and it was committed). The face must read as the best's own label (its likeliest), or,
    weighed over kinds with the prior against declining (`_face_lead`, as `_promotion_by_face` weighs it), favour
    the best's choice by `commit_margin`; else the twin joins the contenders (and the player is asked unless the
    face then decides). Weighing alone asked too often: a knight read as itself 79 % and as a promoted rook 19 %
    (benchmark game 1, ply 49) weighs as an unsure face. Nor is the usual choice asked when the face cannot tell:
    a pawn, lance, bishop or rook promoted (its decline cost at least `unseen_promotion_margin`, as for a promotion
    no picture can show; benchmark game 19 had asked two dragons read as a pawn or a promoted lance)."""
    best = ranked[0]
    if len(contenders) != 1 or contenders[0] is not best:
        return []
    for other in ranked[1 : config.max_candidates * 4]:
        twins = _promotion_twins([best, other])
        if twins is None or scorer.misfit(other):
            continue
        promoted, declined, square = twins
        row, _, cost, lead = _moved_face(scorer, declined, square, config)
        told = lead >= config.commit_margin if best is promoted else lead <= -config.commit_margin
        usual = best is promoted and cost >= config.unseen_promotion_margin
        return [] if told or usual or int(np.argmax(row)) == int(best.labels()[square]) else [other]
    return []


def _moved_face(
    scorer: Scorer, declined: Hypothesis, square: int, config: ReconcileConfig
) -> tuple[np.ndarray, int, float, float]:
    """What the face of a piece that may have promoted on `square` tells (`declined`: the explanation where it did
    not): the square's probability row, the mover (0 sente, 1 gote), its kind's `decline_cost`, and the face's
    lead for promoting (`_face_lead` plus that cost)."""
    label = int(declined.labels()[square])
    side = owner(label)
    assert side is not None, "a moved piece has an owner"
    row = np.exp(scorer.evidence.log_probs[square])
    cost = config.decline_cost.get(SQUARE_LABELS[label].upper(), 0.0)
    return row, side, cost, _face_lead(row, side) + cost


def _fits_chosen_face(row: np.ndarray, chosen: int, habits: ReadingHabits | None, config: ReconcileConfig) -> bool:
    """Where the habits know how this reader reads the chosen label on this set, the read must fit that habit
    about as well as a typical read of it does (`ReadingHabits.likelihood` within `commit_margin` of
    `typical_likelihood`): an unpromoted face unlike this set's lance is no evidence that the lance declined
    (game benchmark, game 13 of a sheen-trained model: the promoted lance of 1c1g+ read as some unpromoted kind,
    and 1c1g was committed unasked)."""
    typical = None if habits is None else habits.typical_likelihood(chosen)
    if habits is None or typical is None:
        return True
    return habits.likelihood(row, chosen) >= typical - config.commit_margin


def _promotion_twins(contenders: list[Hypothesis]) -> tuple[Hypothesis, Hypothesis, int] | None:
    """(promoted, declined, the square they differ on) when the contenders are exactly one move with and without
    promoting a piece that still stands where it moved to (the same moves and takeback otherwise)."""
    if len(contenders) != 2:
        return None
    first, second = contenders
    if first.takeback != second.takeback or len(first.moves) != len(second.moves):
        return None
    differing = [(a, b) for a, b in zip(first.moves, second.moves, strict=True) if a != b]
    if len(differing) != 1 or differing[0][0].rstrip("+") != differing[0][1].rstrip("+"):
        return None
    promoted, declined = (first, second) if differing[0][0].endswith("+") else (second, first)
    squares = _changed(promoted, declined.labels())
    if len(squares) != 1 or int(declined.labels()[squares[0]]) % 14 not in _PROMOTABLE:
        return None
    return promoted, declined, squares[0]


_PROMOTABLE = tuple(LABEL_INDEX[k] for k in ("R", "B", "S", "N", "L", "P"))
"""Sente's labels of the kinds that can promote (gote's: these plus 14); a king or gold face says nothing."""
_PROMOTED = tuple(LABEL_INDEX[k] for k in ("+R", "+B", "+S", "+N", "+L", "+P"))
_PROMOTABLE_OF = tuple([side * 14 + k for k in _PROMOTABLE] for side in (0, 1))
_PROMOTED_OF = tuple([side * 14 + k for k in _PROMOTED] for side in (0, 1))
"""Per player (0 sente, 1 gote): the label indices `_face_lead` sums, built once."""


def _face_lead(probs: np.ndarray, side: int) -> float:
    """Log-odds of a promoted face over an unpromoted one of player `side`, summed over kinds, in a probability
    row (the window's geometric means, or a habit's mean row)."""
    promoted = float(np.sum(probs[_PROMOTED_OF[side]]))
    unpromoted = float(np.sum(probs[_PROMOTABLE_OF[side]]))
    return float(np.log(max(promoted, 1e-12)) - np.log(max(unpromoted, 1e-12)))


def _mismatch(game: GameView, evidence: Evidence, best: Hypothesis, config: ReconcileConfig) -> Proposal:
    if game.expected_move is not None:
        after = game.board.copy()
        after.push_usi(game.expected_move)
        kind_checked = dropped_squares((game.expected_move,))
        messages, names = explain_against(evidence, board_labels(after), kind_checked, config)
    else:
        messages, names = explain_mismatch(game.board, game.labels, evidence, best, config=config)
    return Proposal(ProposalKind.PROBLEM, ("mismatch",), Mismatch(messages, names), messages[0])


def _unobservable_promotion(other: Hypothesis, best: Hypothesis, config: ReconcileConfig) -> bool:
    """`other` is `best` with another promotion choice that no picture can show (the piece was taken at once:
    both end in the same position) and its prior is lower by `unseen_promotion_margin` or more: the prior
    decides, nobody is asked (a pawn, lance, bishop or rook promoted; a knight or silver is asked)."""
    same_moves = [m.rstrip("+") for m in other.moves] == [m.rstrip("+") for m in best.moves]
    return (
        same_moves
        and other.takeback == best.takeback
        and other.score < best.score
        and best.score - other.score >= config.unseen_promotion_margin
        and other.hands == best.hands
        and bool(np.array_equal(other.labels(), best.labels()))
    )


def _unsure_beside_a_hand(evidence: Evidence, best: Hypothesis, game: GameView, config: ReconcileConfig) -> list[int]:
    """The squares `best` changes that a hand may still be at, while some square is unseen that was seen when the
    position was last confirmed, or the rim differs at some edge square (`GameView.edge_changed`): those next to
    such a square (a move is made when the hand leaves the piece, and a piece held in the fingers over a square
    looks set down there), and those the reader does not see as the move leaves them (probability of the
    explained label under `covered_probability`: a hand darkens the squares beside it). A square the reader has
    kept calling unseen since then (a false alarm on some piece) is no sign of a hand: counted, it held every move
    of a benchmark game with such a square back by `doubt_seconds`."""
    fresh = (evidence.unseen - game.steady_unseen) | game.edge_changed
    if not fresh:
        return []
    beside = _beside(fresh)
    explained = best.labels()
    floor = np.log(config.covered_probability) if config.covered_probability > 0.0 else -np.inf
    changed = np.flatnonzero(explained != game.labels)
    return [int(i) for i in changed if beside[i] or evidence.log_probs[i, explained[i]] < floor]


def _beside(squares: frozenset[int]) -> npt.NDArray[np.bool_]:
    """(81,) True on `squares` and on their eight neighbours."""
    marked = np.zeros((9, 9), dtype=bool)
    marked.flat[sorted(squares)] = True
    near = np.zeros((11, 11), dtype=bool)
    for dr in range(3):
        for df in range(3):
            near[dr : dr + 9, df : df + 9] |= marked
    return near[1:10, 1:10].ravel()


def _covered_text(squares: list[int]) -> str:
    return f"squares {_names(squares)}: waiting for the hand to leave"


def _changed(hypothesis: Hypothesis, labels: Labels) -> list[int]:
    return [int(i) for i in np.flatnonzero(hypothesis.labels() != labels)]


def _hidden(squares: list[int]) -> Proposal:
    """Wait while squares a candidate move needs cannot be seen; told to the player if they stay hidden."""
    names = _names(squares)
    one = len(squares) == 1
    told = Mismatch(
        (
            f"{'square' if one else 'squares'} {names} cannot be seen: is a hand or something else over "
            f"{'it' if one else 'them'}, or a piece lying on its side? The move is recorded once "
            f"{'it is' if one else 'they are'} clear.",
        ),
        tuple(square_name(i) for i in squares),
    )
    return Proposal(ProposalKind.WAIT, ("hidden", tuple(squares)), Waiting(f"squares {names} are hidden"), expired=told)


def _names(squares: list[int]) -> str:
    return ", ".join(square_name(i) for i in squares)


def _candidate(hypothesis: Hypothesis) -> Candidate:
    return Candidate(hypothesis.moves, hypothesis.takeback, round(hypothesis.score, 3), describe(hypothesis))


def describe(hypothesis: Hypothesis) -> str:
    """`7g7f`, `7g7f then 3c3d`, `no move`, `take back 2 moves`, `take back 1 move, then 7g7e`."""
    moves = " then ".join(hypothesis.moves)
    if not hypothesis.takeback:
        return moves or "no move"
    back = f"take back {hypothesis.takeback} move{'s' if hypothesis.takeback > 1 else ''}"
    return f"{back}, then {moves}" if moves else back
