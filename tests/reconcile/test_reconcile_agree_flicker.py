"""`agree_seconds` counts from the first frame that proposed the move, through frames that only raised a question
about it: a noisy read flipping between 8h2b and "8h2b or 8h2b+?" on every frame held the capture for good in a
simulated game (the streak, and with it the time, restarted on every flip)."""

from __future__ import annotations

import cshogi

from controller.reconcile import MoveCommitted, Reconciler
from controller.reconcile.synthetic import NoiseModel, SyntheticReader

BEFORE = ("7g7f", "5a4b", "6i7h", "3c3d")


def test_a_capture_whose_promotion_the_read_flips_on_is_committed() -> None:
    """Frames 1 ms apart (a fast loop) of 8h2b (bishop takes bishop, not promoting), read with the synthetic
    reader's noise: the move is committed within two seconds (before the fix: not at all on 7 of 8 seeds)."""
    board = cshogi.Board()
    for usi in BEFORE:
        board.push_usi(usi)
    after = cshogi.Board(board.sfen())
    after.push_usi("8h2b")
    reconciler = Reconciler(sfen=board.sfen())
    reader = SyntheticReader(0, NoiseModel())
    committed = []
    for k in range(2000):
        result = reconciler.observe(reader.observe_board(after, 0.001 * k))
        if isinstance(result, MoveCommitted):
            committed.append(result.moves)
            break
    assert committed == [("8h2b",)]
