"""While a hand may still be over the board (some square hidden), a move read unsurely, or next to a hidden square,
waits for the hand to go (`ReconcileConfig.covered_probability`): paused-hand frames committed false moves onto
squares beside the hand, and onto the square under a piece held still in the fingers."""

from __future__ import annotations

import dataclasses

import cshogi
import pytest
from reconcile_scenes import board_frames_with_square, committing_index, feed, split_row

from controller.reconcile import MoveCommitted, ReconcileConfig, Reconciler, Waiting
from controller.reconcile.errors import ConfigError
from controller.reconcile.labels import square_index
from controller.reconcile.synthetic import SyntheticReader


def _after_7g7f() -> cshogi.Board:
    board = cshogi.Board()
    board.push_usi("7g7f")
    return board


def _unsure_7f(n: int, hidden: frozenset[int]) -> list:
    """Frames of 7g7f made, the pawn on 7f read at 0.56 (a gold 0.42), `hidden` squares unseen."""
    frames = board_frames_with_square(SyntheticReader(5), _after_7g7f(), "7f", split_row({"P": 0.4, "G": 0.3}), n)
    return [dataclasses.replace(f, unreliable=hidden) for f in frames]


def test_an_unsure_move_waits_while_a_square_is_hidden() -> None:
    """7f read a pawn at only 0.56 while 2b is hidden: nothing is committed, the wait names 7f."""
    results = feed(Reconciler(), _unsure_7f(8, frozenset({square_index("2b")})))
    assert not any(isinstance(r, MoveCommitted) for r in results)
    assert isinstance(results[-1], Waiting) and "7f" in results[-1].reason


def test_the_same_read_commits_once_nothing_is_hidden() -> None:
    """The hand gone (no square hidden), the same unsure read is committed as before."""
    reconciler = Reconciler()
    hidden = _unsure_7f(4, frozenset({square_index("2b")}))
    clear = [dataclasses.replace(f, unreliable=frozenset(), time=1.0 + f.time) for f in _unsure_7f(6, frozenset())]
    results = feed(reconciler, [*hidden, *clear])
    committed = [r.moves for r in results if isinstance(r, MoveCommitted)]
    assert committed == [("7g7f",)] and reconciler.moves == ("7g7f",)


def test_a_clear_move_away_from_the_hidden_squares_is_committed_on_agreement() -> None:
    """Read clearly (0.9), 7g7f is committed on the second agreeing frame although 2b is hidden: a hand elsewhere
    holds nothing back."""
    frames = board_frames_with_square(SyntheticReader(5), _after_7g7f(), "7f", split_row({"P": 0.9}), 6)
    frames = [dataclasses.replace(f, unreliable=frozenset({square_index("2b")})) for f in frames]
    results = feed(Reconciler(), frames)
    assert [i for i, r in enumerate(results) if isinstance(r, MoveCommitted)] == [committing_index(frames)]


def test_a_clear_move_with_nothing_hidden_is_committed_on_agreement() -> None:
    """No square hidden: the move is committed on the second agreeing frame, as before."""
    frames = board_frames_with_square(SyntheticReader(5), _after_7g7f(), "7f", split_row({"P": 0.9}), 6)
    results = feed(Reconciler(), frames)
    assert [i for i, r in enumerate(results) if isinstance(r, MoveCommitted)] == [committing_index(frames)]


def test_covered_probability_is_checked() -> None:
    with pytest.raises(ConfigError, match="covered_probability"):
        ReconcileConfig(covered_probability=1.0)


def test_a_move_beside_a_hidden_square_waits_for_the_hand_to_leave() -> None:
    """7f read clearly but 8e, next to it, hidden (the fingers still at the piece): no commit however long the
    hand stays (within doubt_seconds); committed once 8e is seen again."""
    reader = SyntheticReader(5)
    beside = frozenset({square_index("8e")})
    held = board_frames_with_square(reader, _after_7g7f(), "7f", split_row({"P": 0.9}), 20)
    held = [dataclasses.replace(f, unreliable=beside) for f in held]
    gone = board_frames_with_square(reader, _after_7g7f(), "7f", split_row({"P": 0.9}), 6)
    gone = [dataclasses.replace(f, time=2.5 + f.time) for f in gone]
    reconciler = Reconciler()
    results = feed(reconciler, [*held, *gone])
    assert not any(isinstance(r, MoveCommitted) for r in results[: len(held)])
    assert isinstance(results[len(held) - 1], Waiting) and "7f" in results[len(held) - 1].reason
    assert reconciler.moves == ("7g7f",)


def test_a_square_unseen_since_the_position_was_confirmed_is_no_hand() -> None:
    """8e unseen on the frames that confirmed the start (a lasting false alarm of the reader) and on those after
    7g7f: the move, read unsurely beside it, is committed on agreement, not held as if a hand were there."""
    reader = SyntheticReader(5)
    alarm = frozenset({square_index("8e")})
    start = [dataclasses.replace(reader.observe_board(cshogi.Board(), 0.1 * k), unreliable=alarm) for k in range(3)]
    hand = dataclasses.replace(start[-1], stable=False, time=0.5)
    moved = [dataclasses.replace(f, time=1.0 + f.time) for f in _unsure_7f(6, alarm)]
    results = feed(Reconciler(), [*start, hand, *moved])
    committed = [i for i, r in enumerate(results) if isinstance(r, MoveCommitted)]
    assert committed == [len(start) + 1 + committing_index(moved)]


def test_a_square_unseen_only_after_the_move_still_holds_it() -> None:
    """The same frames after 7g7f, but 8e was seen while the start was confirmed: 8e may be the hand, and the
    unsure 7f waits."""
    reader = SyntheticReader(5)
    start = [reader.observe_board(cshogi.Board(), 0.1 * k) for k in range(3)]
    hand = dataclasses.replace(start[-1], stable=False, time=0.5)
    moved = [dataclasses.replace(f, time=1.0 + f.time) for f in _unsure_7f(4, frozenset({square_index("8e")}))]
    results = feed(Reconciler(), [*start, hand, *moved])
    assert not any(isinstance(r, MoveCommitted) for r in results)
