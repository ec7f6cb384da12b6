"""The fast scorer against a plain reference: every explanation it generates, and its score, are what a
straightforward implementation gives (every legal move played on a board and the whole position scored from
scratch; pairs kept when both moves start on, or drop onto, a square showing change; declined promotions found
from the USI strings). Positions with drops, promotions, captures, pairs and takebacks; stands read, half read,
unread and usually miscounted. Also the low-level shortcuts: cshogi's move bits and the evidence window's sums
and stand vote.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

import cshogi
import numpy as np
import pytest
from reconcile_scenes import random_game

from controller.reconcile.evidence import Evidence, EvidenceWindow, _frame_sum
from controller.reconcile.hypotheses import (
    _FIRST_DROP_SOURCE,
    _PROMOTION_FLAG,
    _SQUARES_MASK,
    Hypothesis,
    Scorer,
    _primary_cs,
)
from controller.reconcile.labels import (
    CS_TO_SFEN,
    Hands,
    board_hands,
    board_labels,
    move_primary_square,
    slot_side,
    square_index,
)
from controller.reconcile.synthetic import NoiseModel, SyntheticReader
from controller.reconcile.types import Observation, ReconcileConfig

CONFIG = ReconcileConfig()
KIND_LETTERS = ("", "P", "L", "N", "S", "B", "R", "G", "K", "+P", "+L", "+N", "+S", "+B", "+R")
DROPS_AND_PROMOTIONS = "ln1g1g1nl/1r1sk2s1/p1pp1p1pp/4p4/1p7/2P2P+B2/PP1PP1PPP/2S1K1SR1/LN1G1G1NL w BP2p 1"
"""Gote to move with pawns in hand; sente holds a bishop and a pawn, a promoted bishop out."""
CROWDED_HANDS = "4k4/9/9/9/9/9/9/9/4K4 b RBGSNLP2rb3g3s3n3l15p 1"
"""Nearly everything in hand: almost every move is a drop (nifu and dead ranks matter)."""
OFFSET = (1, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 1)
"""A stand reader's usual miscount (sente's rook and pawns, gote's pawns read too many)."""

Row = tuple[int, tuple[str, ...], bytes, Hands, float]


def _boards() -> Iterator[tuple[str, cshogi.Board]]:
    yield "start", cshogi.Board()
    yield "drops and promotions", cshogi.Board(DROPS_AND_PROMOTIONS)
    yield "crowded hands", cshogi.Board(CROWDED_HANDS)
    for seed, plies in ((1, 30), (2, 60), (3, 90)):
        yield f"playout {seed}", random_game(seed, plies, capture_share=0.5)


def _random_line(board: cshogi.Board, rng: random.Random, plies: int) -> list[str]:
    """`plies` random legal moves from `board` (which is left as it was)."""
    line: list[str] = []
    for _ in range(plies):
        moves = list(board.legal_moves)
        if not moves:
            break
        line.append(cshogi.move_to_usi(rng.choice(moves)))
        board.push_usi(line[-1])
    for _ in line:
        board.pop()
    return line


def _evidence(board: cshogi.Board, shown: list[str], seed: int, sides: tuple[str, ...]) -> Evidence:
    """Three noisy frames of `board` after `shown` (a hard-erring reader: many squares show change)."""
    noise = NoiseModel(hard_error_rate=0.05, unreliable_rate=0.5, hands_visible=bool(sides), stand_sides=sides)
    reader = SyntheticReader(seed, noise)
    for usi in shown:
        board.push_usi(usi)
    window = EvidenceWindow(CONFIG.window_frames, CONFIG.probability_floor)
    for k in range(3):
        window.add(reader.observe_board(board, 0.1 * k))
    for _ in shown:
        board.pop()
    return window.evidence()


# --- the reference -----------------------------------------------------------------------------------------


def _hands_term(evidence: Evidence, offset: Hands | None, hands: Hands) -> float:
    if evidence.hands is None or evidence.hand_confidence < CONFIG.hands_min_confidence:
        return 0.0
    total = 0
    for slot, count in enumerate(hands):
        if not evidence.hand_sides[slot_side(slot)]:
            continue
        cost = abs(evidence.hands[slot] - count)
        if offset is not None and any(offset):
            cost = min(cost, abs(max(evidence.hands[slot] - offset[slot], 0) - count))
        total += cost
    return -CONFIG.hand_weight * evidence.hand_confidence * total


def _score(evidence: Evidence, offset: Hands | None, board: cshogi.Board, prior: float) -> float:
    labels = board_labels(board)
    board_score = sum(float(evidence.log_probs[square, labels[square]]) for square in range(81))
    return board_score + _hands_term(evidence, offset, board_hands(board)) - prior


def _changed(evidence: Evidence, board: cshogi.Board) -> set[int]:
    labels = board_labels(board)
    found = set()
    for square in range(81):
        row = evidence.log_probs[square]
        own = row[labels[square]]
        if max(row[k] - own for k in range(29) if k != labels[square]) > -CONFIG.prune_margin:
            found.add(square)
    return found


def _decline(board: cshogi.Board, usi: str, legal: set[str]) -> float:
    if usi[1] == "*" or usi.endswith("+") or usi + "+" not in legal:
        return 0.0
    kind = KIND_LETTERS[board.piece(cshogi.move_from(board.move_from_usi(usi))) & 15]
    return CONFIG.decline_cost.get(kind, 0.0)


def _starts(usi: str) -> int:
    return square_index(usi[2:4] if usi[1] == "*" else usi[0:2])


def _row(evidence: Evidence, offset: Hands | None, board: cshogi.Board, key: tuple[int, tuple[str, ...]],
         prior: float) -> Row:  # fmt: skip
    labels, hands = board_labels(board).tobytes(), board_hands(board)
    return key[0], key[1], labels, hands, _score(evidence, offset, board, prior)


def _reference(
    evidence: Evidence, offset: Hands | None, board: cshogi.Board, *, takeback: int, prior: float, pairs: bool,
    skip: str | None = None,
) -> list[Row]:  # fmt: skip
    """Every legal move (and pair) played on the board and scored from scratch, in cshogi's move order."""
    changed = _changed(evidence, board)
    rows: list[Row] = []
    legal = [cshogi.move_to_usi(m) for m in board.legal_moves]
    for usi in legal:
        if usi == skip:
            continue
        cost = prior + _decline(board, usi, set(legal))
        board.push_usi(usi)
        rows.append(_row(evidence, offset, board, (takeback, (usi,)), cost))
        replies = [cshogi.move_to_usi(m) for m in board.legal_moves] if pairs and _starts(usi) in changed else []
        for reply in replies:
            if _starts(reply) in changed:
                second = cost + CONFIG.pair_penalty + _decline(board, reply, set(replies))
                board.push_usi(reply)
                rows.append(_row(evidence, offset, board, (takeback, (usi, reply)), second))
                board.pop()
        board.pop()
    return rows


def _rows(found: list[Hypothesis]) -> list[Row]:
    return [(h.takeback, h.moves, h.labels().tobytes(), h.hands, h.score) for h in found]


def _assert_same(found: list[Row], expected: list[Row]) -> None:
    assert [row[:4] for row in found] == [row[:4] for row in expected]
    assert [row[4] for row in found] == pytest.approx([row[4] for row in expected], rel=1e-12, abs=1e-9)


# --- the tests ----------------------------------------------------------------------------------------------

CASES = [
    (name, shown, sides, offset)
    for name, _ in _boards()
    for shown, sides, offset in ((0, ("b", "w"), False), (1, ("b",), False), (2, ("b", "w"), True), (2, (), False))
]


@pytest.mark.parametrize(("name", "shown_plies", "sides", "offset"), CASES)
def test_successors_match_the_reference(name: str, shown_plies: int, sides: tuple[str, ...], offset: bool) -> None:
    """The moves and pairs from a position, in order, with their positions and scores, are those of the plain
    reference (the board showing the position itself, one move or two moves later; both stands read, one,
    none; a usual stand miscount)."""
    board = dict(_boards())[name]
    rng = random.Random(f"{name}/{shown_plies}/{sides}")
    evidence = _evidence(board, _random_line(board, rng, shown_plies), rng.randrange(1000), sides)
    stand_offset = OFFSET if offset else None
    scorer = Scorer(evidence, CONFIG, stand_offset)
    base = scorer.base(board_labels(board), board_hands(board))
    assert base.changed == _changed(evidence, board)
    whole = _score(evidence, stand_offset, board, 0.0)
    assert base.board_score + base.hand_score == pytest.approx(whole, rel=1e-12, abs=1e-9)
    found = scorer.successors(board, base, takeback=0, prior=0.0, pairs=True)
    expected = _reference(evidence, stand_offset, board, takeback=0, prior=0.0, pairs=True)
    _assert_same(_rows(found), expected)
    if shown_plies == 2 and sides:
        assert any(len(row[1]) == 2 for row in expected), "the case exercises pairs"


@pytest.mark.parametrize("name", [name for name, _ in _boards()][1:])
def test_replaced_last_move_and_earlier_positions_match_the_reference(name: str) -> None:
    """A different move in place of the last one (no pairs, the last move skipped) and an earlier position
    scored whole, as the reconciler weighs takebacks, are those of the plain reference."""
    board = dict(_boards())[name]
    rng = random.Random(name)
    last = _random_line(board, rng, 1)[0]
    evidence = _evidence(board, _random_line(board, rng, 1), 7, ("b", "w"))
    scorer = Scorer(evidence, CONFIG, OFFSET)
    base = scorer.base(board_labels(board), board_hands(board))
    prior = CONFIG.takeback_penalty + CONFIG.replace_penalty
    found = scorer.successors(board, base, takeback=1, prior=prior, pairs=False, skip=last)
    _assert_same(_rows(found), _reference(evidence, OFFSET, board, takeback=1, prior=prior, pairs=False, skip=last))
    assert last not in {row[1][0] for row in _rows(found)}
    earlier = scorer.positions([(1, board_labels(board), board_hands(board))], CONFIG.takeback_penalty)
    _assert_same(_rows(earlier), [_row(evidence, OFFSET, board, (1, ()), CONFIG.takeback_penalty)])


def test_move_bits_read_directly_are_cshogi_s() -> None:
    """The move fields read from cshogi's bits (drop, promotion, the square a move starts from or drops onto,
    the promoting twin) are what cshogi's own functions say, for every legal move of positions with drops and
    promotions."""
    for _, board in _boards():
        moves = list(board.legal_moves)
        for move in moves:
            assert ((move >> 7) & 0x7F >= _FIRST_DROP_SOURCE) == bool(cshogi.move_is_drop(move))
            assert CS_TO_SFEN[_primary_cs(move)] == move_primary_square(move)
            assert bool(move & _PROMOTION_FLAG) == bool(cshogi.move_is_promotion(move))
            usi = cshogi.move_to_usi(move).rstrip("+")
            twins = [m for m in moves if m & _SQUARES_MASK == move & _SQUARES_MASK]
            assert twins == [m for m in moves if cshogi.move_to_usi(m).rstrip("+") == usi]


def test_window_sums_and_stand_vote_are_the_plain_ones() -> None:
    """The window adds its frames as `np.sum` does (bit for bit) and votes each stand slot's count as a plain
    count per slot does (the latest of the most frequent), here with frames that disagree on gote's pawns."""
    reader = SyntheticReader(5, NoiseModel(unreliable_rate=0.5))
    board = random_game(4, 70, capture_share=0.5)
    window = EvidenceWindow(CONFIG.window_frames, CONFIG.probability_floor)
    for k in range(CONFIG.window_frames):
        obs = reader.observe_board(board, 0.1 * k)
        window.add(obs if k % 3 else _miscounted(obs, k))
    assert np.array_equal(_frame_sum(window._logs), np.sum(window._logs, axis=0))
    frames = [entry[0] for entry in window._hands if entry is not None]
    assert len(set(frames)) > 1
    expected = []
    for slot in range(14):
        tally = Counter(hands[slot] for hands in frames)
        top = max(tally.values())
        expected.append(next(hands[slot] for hands in reversed(frames) if tally[hands[slot]] == top))
    assert window.evidence().hands == tuple(expected)


def _miscounted(obs: Observation, k: int) -> Observation:
    hands = dict(obs.hands or {})
    hands["p"] = hands.get("p", 0) + 1 + k % 2
    return Observation(obs.probs, hands, obs.hand_confidence, obs.unreliable, obs.stable, obs.time, obs.hand_sides)
