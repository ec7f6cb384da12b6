"""Property tests: the referee agrees with cshogi's exact legal-move list on random positions of real play."""

from __future__ import annotations

import random

import cshogi
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.rules.referee import check_move, legal_usi_moves

SQUARES = [f"{f}{r}" for f in range(1, 10) for r in "abcdefghi"]


def _random_position(seed: int, plies: int) -> cshogi.Board:
    rng = random.Random(seed)
    board = cshogi.Board()
    for _ in range(plies):
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(rng.choice(moves))
    return board


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), plies=st.integers(0, 120))
def test_verdict_matches_legal_moves(seed: int, plies: int) -> None:
    """It should call a candidate legal exactly when cshogi lists it, and give a reason otherwise."""
    board = _random_position(seed, plies)
    legal = legal_usi_moves(board)
    rng = random.Random(seed)
    candidates = list(legal)[:20]
    for _ in range(40):
        src, dst = rng.choice(SQUARES), rng.choice(SQUARES)
        candidates.append(src + dst + rng.choice(["", "+"]))
        candidates.append(rng.choice("PLNSGBR") + "*" + dst)
    for usi in candidates:
        verdict = check_move(board, usi)
        assert verdict.legal == (usi in legal), (board.sfen(), usi, verdict)
        assert (verdict.reason is None) == verdict.legal
