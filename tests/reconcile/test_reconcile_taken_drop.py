"""A drop taken at once (two moves between reads): no picture shows the dropped piece, so its kind is asked."""

from __future__ import annotations

import dataclasses

from reconcile_scenes import after, decisions, feed

from controller.reconcile import Ambiguous, MoveCommitted, Reconciler
from controller.reconcile.synthetic import SyntheticReader
from controller.reconcile.types import Observation

ROOK_AND_SILVER = "8k/9/9/9/9/9/9/9/4K4 b RS 1"


def _frames(played: list[str], stands: dict[str, int]) -> list[Observation]:
    """15 frames of the position after `played`, both stands read as `stands`."""
    board = after(ROOK_AND_SILVER, played)
    reader = SyntheticReader(41)
    both = frozenset({"b", "w"})
    return [
        dataclasses.replace(reader.observe_board(board, 0.1 * k), hands=stands, hand_confidence=0.8, hand_sides=both)
        for k in range(15)
    ]


def test_drop_taken_at_once_is_asked_when_the_stands_miscount() -> None:
    """Sente drops the rook on 2a and gote's king takes it before the next read; the stands read as if the silver
    had been dropped (sente still holding a rook, gote a silver). Only the hand counts tell the kind, and they
    lie: S*2a 1a2a must not be committed; the question offers the rook."""
    results = decisions(feed(Reconciler(sfen=ROOK_AND_SILVER), _frames(["R*2a", "1a2a"], {"R": 1, "s": 1})))
    assert results and not any(isinstance(r, MoveCommitted) for r in results)
    assert isinstance(results[-1], Ambiguous)
    assert {("R*2a", "1a2a"), ("S*2a", "1a2a")} <= {c.moves for c in results[-1].candidates}


def test_drop_taken_at_once_with_one_kind_held_is_committed() -> None:
    """With only a rook in hand there is no kind to ask: R*2a 1a2a is committed."""
    sfen = "8k/9/9/9/9/9/9/9/4K4 b R 1"
    board = after(sfen, ["R*2a", "1a2a"])
    reader = SyntheticReader(42)
    frames = [reader.observe_board(board, 0.1 * k) for k in range(15)]
    results = decisions(feed(Reconciler(sfen=sfen), frames))
    assert [r.moves for r in results if isinstance(r, MoveCommitted)] == [("R*2a", "1a2a")]
