"""Holding a move for the piece stands: only for a hand slot the stand has been seen to count that far.

A capture or drop whose stand still reads as before it is held for `stand_wait_seconds` only when that stand has
been seen to count that kind of that player right, as many as the move leaves or finds, while a position was
confirmed (`stand_trust_frames`); a stand that never showed the kind (this set's gold reads as nothing on the
stand), or never counted that many, gives no reason to wait.
"""

from __future__ import annotations

import dataclasses

import cshogi
import pytest
from reconcile_scenes import after, board_frames_with_square, decisions, feed, split_row

from controller.reconcile import Ambiguous, MoveCommitted, Reconciler, Result, Waiting
from controller.reconcile.errors import ConfigError
from controller.reconcile.synthetic import SyntheticReader
from controller.reconcile.types import ReconcileConfig

ROOK_TAKES_GOLD = "4k4/9/9/9/4g4/9/4R4/9/4K4 b {hand} 1"
"""Sente's rook on 5g takes gote's gold on 5e (5g5e: no promotion possible); `hand`: sente's pieces in hand."""


def _capture(
    hand: str, confirmed: list[dict[str, int]], lagging: dict[str, int], n: int = 15, known: str | None = None
) -> list[Result]:
    """Results of the frames after 5g5e, sente holding `hand`. While a position is confirmed (the one before
    5g5e, or with `known` the same board with sente holding `known`, after which the position is set to the one
    before 5g5e) the stands read `confirmed` (one dict per frame); after the capture they read `lagging`."""
    sfen = ROOK_TAKES_GOLD.format(hand=hand)
    reader = SyntheticReader(50)
    first = ROOK_TAKES_GOLD.format(hand=known or hand)
    reconciler = Reconciler(sfen=first)
    frames = [reader.observe_board(cshogi.Board(first), -2.0 + 0.1 * k) for k in range(len(confirmed))]
    feed(reconciler, [dataclasses.replace(f, hands=h) for f, h in zip(frames, confirmed, strict=True)])
    reconciler.set_position(sfen)
    reconciler.observe(reader.observe_board(cshogi.Board(sfen), -0.1, stable=False))
    board = after(sfen, ["5g5e"])
    shown = [dataclasses.replace(reader.observe_board(board, 0.1 * k), hands=lagging) for k in range(n)]
    return feed(reconciler, shown)


def _committed_at(results: list[Result]) -> list[tuple[int, tuple[str, ...]]]:
    return [(k, r.moves) for k, r in enumerate(results) if isinstance(r, MoveCommitted)]


def test_capture_of_a_kind_the_stand_never_read_is_not_held() -> None:
    """Sente's stand read its pawn right for a while but has never held a gold: the gold captured does not show
    on the stand (the pawn alone is read), and 5g5e is committed as soon as the frames agree, not after
    stand_wait_seconds."""
    results = _capture("P", [{"P": 1}] * 6, {"P": 1})
    committed = _committed_at(results)
    assert [moves for _, moves in committed] == [("5g5e",)]
    assert committed[0][0] < ReconcileConfig().agree_frames + 2
    assert not any(isinstance(r, Waiting) and "piece stand" in r.reason for r in results)


def test_capture_to_a_count_the_stand_reads_reliably_is_held_until_shown() -> None:
    """Sente's stand counted two golds right while a position was confirmed; now sente holds one: a second gold
    captured but not yet on the stand holds 5g5e back (saying so), and it is committed once the stand shows
    both golds."""
    held = _capture("G", [{"G": 2}] * 6, {"G": 1}, n=8, known="2G")
    assert not any(isinstance(r, MoveCommitted) for r in held)
    assert isinstance(held[-1], Waiting) and "piece stand" in held[-1].reason
    shown = _capture("G", [{"G": 2}] * 6, {"G": 2}, n=8, known="2G")
    assert [moves for _, moves in _committed_at(shown)] == [("5g5e",)]


def test_capture_beyond_the_count_the_stand_was_seen_to_read_is_not_held() -> None:
    """Sente's stand counted one gold right, never two (a crowded stand may show the second as nothing): the
    capture of a second gold, read as one, is committed at once."""
    results = _capture("G", [{"G": 1}] * 6, {"G": 1})
    committed = _committed_at(results)
    assert [moves for _, moves in committed] == [("5g5e",)]
    assert committed[0][0] < ReconcileConfig().agree_frames + 2


def test_stand_read_wrong_more_often_than_right_holds_nothing() -> None:
    """The stand counted sente's two golds right in 3 confirmed frames, then as one in 12 (the window's vote keeps
    the count right a few frames longer): no reason to wait, so with one gold held the capture of a second,
    read as one gold, is committed at once."""
    results = _capture("G", [{"G": 2}] * 3 + [{"G": 1}] * 12, {"G": 1}, known="2G")
    committed = _committed_at(results)
    assert [moves for _, moves in committed] == [("5g5e",)]
    assert committed[0][0] < ReconcileConfig().agree_frames + 2


def test_stand_trust_frames_must_be_positive() -> None:
    """A configuration that would trust a stand it never saw read a kind is refused."""
    with pytest.raises(ConfigError, match="stand_trust_frames"):
        ReconcileConfig(stand_trust_frames=0)


ROOK_LANCE_PAWNS = "lnsgkgs2/7b1/ppppppppp/9/9/9/PPPPPP3/1B7/LNSGKGSN1 b RGL3Pn 1"


@pytest.mark.parametrize("moves", [("R*1e",), ("R*1e", "N*5e")])
def test_dropped_kind_still_on_a_counting_stand_is_asked_after_the_wait(moves: tuple[str, ...]) -> None:
    """This set's rook reads as nothing on sente's stand (the only one read) and three pawns as two, while the
    lance and gold are counted right (dev game 401). The rook dropped on 1e reads as a lance on the board (and
    may be followed by gote's knight drop before the next read); the stand still shows the lance and, as it
    always did, no rook: after stand_wait_seconds the kind is asked, L*1e is never committed."""
    reader = SyntheticReader(51)
    reconciler = Reconciler(sfen=ROOK_LANCE_PAWNS)
    stand = {"G": 1, "L": 1, "P": 2}
    before = cshogi.Board(ROOK_LANCE_PAWNS)
    sente = frozenset({"b"})
    confirmed = [reader.observe_board(before, 0.1 * k) for k in range(6)]
    feed(reconciler, [dataclasses.replace(f, hands=stand, hand_sides=sente) for f in confirmed])
    reconciler.observe(reader.observe_board(before, 0.7, stable=False))
    lance = split_row({"L": 0.92, "R": 0.03})
    frames = board_frames_with_square(reader, after(ROOK_LANCE_PAWNS, moves), "1e", lance, 25)
    shown = [dataclasses.replace(f, hands=stand, hand_sides=sente, time=1.0 + f.time) for f in frames]
    results = decisions(feed(reconciler, shown))
    assert results and not any(isinstance(r, MoveCommitted) for r in results)
    assert isinstance(results[-1], Ambiguous)
    assert {c.text for c in results[-1].candidates} >= {" then ".join(("L*1e", *moves[1:])), " then ".join(moves)}
