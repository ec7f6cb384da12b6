"""Boards that match nothing legal: reported in words, the last legal position kept, recovery when set right."""

from __future__ import annotations

import cshogi
import numpy as np
from reconcile_scenes import after, board_frames_with_square, decisions, edited, feed, split_row, still

from controller.reconcile import Ambiguous, Mismatch, MoveCommitted, NoChange, Reconciler, Waiting
from controller.reconcile.labels import board_hands, board_labels
from controller.reconcile.synthetic import SyntheticReader
from controller.rules.positions import STARTPOS_SFEN

PAWN_ON_3D = "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b P 1"
SETTLE_FRAMES = 15  # 1.5 s at 10 frames per second: longer than settle_seconds


def _mismatches(reconciler: Reconciler, labels: np.ndarray, hands: tuple[int, ...], seed: int = 1) -> list:
    results = feed(reconciler, still(SyntheticReader(seed), labels, hands, 0.0, SETTLE_FRAMES))
    found = decisions(results)
    assert found and all(isinstance(r, Mismatch) for r in found), found
    return found


def test_pawn_moved_two_squares() -> None:
    """A pawn pushed two squares is named, with the referee's reason."""
    reconciler = Reconciler()
    labels, hands = edited(cshogi.Board(), {"2g": "empty", "2e": "P"})
    result = _mismatches(reconciler, labels, hands)[-1]
    assert result.messages == ("the pawn on 2g cannot move to 2e.",)
    assert set(result.squares) == {"2g", "2e"}
    assert reconciler.moves == ()


def test_nifu_drop() -> None:
    """A second pawn dropped on a file is called nifu."""
    reconciler = Reconciler(sfen=PAWN_ON_3D)
    labels, hands = edited(cshogi.Board(PAWN_ON_3D), {"3e": "P"}, {"P": -1})
    result = _mismatches(reconciler, labels, hands)[-1]
    assert result.messages == ("nifu: sente already has a pawn on file 3.",)


def test_drop_of_a_piece_not_in_hand() -> None:
    """A piece appearing that the mover does not hold is explained as such."""
    labels, hands = edited(cshogi.Board(), {"5e": "S"})
    result = _mismatches(Reconciler(), labels, hands)[-1]
    assert result.messages == ("sente has no silver in hand to drop.",)


def test_king_appearing_on_an_empty_square() -> None:
    """A king seen where no piece should be is described as such, not as a drop."""
    labels, hands = edited(cshogi.Board(), {"5e": "K"})
    result = _mismatches(Reconciler(), labels, hands)[-1]
    assert result.messages == ("a king appeared on 5e, where no piece should be.",)


def test_wrong_side_moved() -> None:
    """A gote move on sente's turn is reported as a turn error."""
    labels, hands = edited(cshogi.Board(), {"3c": "empty", "3d": "p"})
    result = _mismatches(Reconciler(), labels, hands)[-1]
    assert result.messages == ("it is sente's turn, but gote's pawn moved from 3c to 3d.",)


def test_missing_piece() -> None:
    """A piece taken off the board is reported missing from its square."""
    labels, hands = edited(cshogi.Board(), {"5c": "empty"})
    result = _mismatches(Reconciler(), labels, hands)[-1]
    assert result.messages == ("a piece is missing from 5c: it should hold gote's pawn.",)
    assert result.squares == ("5c",)


def test_square_should_be_empty() -> None:
    """A legal move plus a stray piece: the stray square is named against the nearest legal position."""
    board = after(STARTPOS_SFEN, ["7g7f"])
    labels, hands = edited(board, {"5e": "S", "1a": "empty"})
    result = _mismatches(Reconciler(), labels, hands)[-1]
    assert set(result.messages) == {
        "square 5e should be empty (it shows sente's silver).",
        "a piece is missing from 1a: it should hold gote's lance.",
    }
    assert set(result.squares) == {"5e", "1a"}


def test_moved_piece_read_as_another_kind_is_committed() -> None:
    """Identity comes from the game: a gold moved to 6h and read as a promoted silver is still the gold's move."""
    reconciler = Reconciler()
    labels, hands = edited(cshogi.Board(), {"6i": "empty", "6h": "+S"})
    results = decisions(feed(reconciler, still(SyntheticReader(7), labels, hands, 0.0, 5)))
    assert [r.moves for r in results] == [("6i6h",)]


def test_dropped_piece_read_as_another_kind_is_not_committed() -> None:
    """A drop's kind must be seen: a gold on 5e while only a silver is in hand, and the silver still on the
    stand, is reported, not committed."""
    sfen = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LN1GKGSNL b S 1"
    board = after(sfen, ["S*5e"])
    labels, hands = edited(board, {"5e": "G"}, {"S": 1})
    result = _mismatches(Reconciler(sfen=sfen), labels, hands)[-1]
    assert result.messages == ("sente has no gold in hand to drop.",)


def test_problem_is_not_reported_before_it_settles() -> None:
    """A mismatch lasting less than settle_seconds stays Waiting (the player may be mid-move)."""
    labels, hands = edited(cshogi.Board(), {"5c": "empty"})
    results = feed(Reconciler(), still(SyntheticReader(2), labels, hands, 0.0, 6))
    assert all(isinstance(r, Waiting) for r in results)


def test_board_set_right_after_mismatch() -> None:
    """After a mismatch, restoring the position reads as no change and a later legal move commits."""
    reconciler = Reconciler()
    reader = SyntheticReader(3)
    labels, hands = edited(cshogi.Board(), {"2g": "empty", "2e": "P"})
    assert isinstance(feed(reconciler, still(reader, labels, hands, 0.0, SETTLE_FRAMES))[-1], Mismatch)
    board = cshogi.Board()
    assert isinstance(feed(reconciler, [reader.observe_board(board, 3.0, stable=False)])[-1], Waiting)
    assert isinstance(feed(reconciler, still(reader, board_labels(board), board_hands(board), 3.1, 3))[-1], NoChange)
    results = decisions(feed(reconciler, reader.move_frames(board, ["2g2f"], 4.0)))
    assert results == [MoveCommitted(("2g2f",), results[0].margin)]


def test_knocked_over_piece_waits_then_asks() -> None:
    """A square that cannot be read blocks commits; it is reported once it persists."""
    reconciler = Reconciler()
    reader = SyntheticReader(4)
    board = after(STARTPOS_SFEN, ["7g7f"])
    half_off = split_row({"empty": 0.5, "p": 0.3, "P": 0.15})  # the pawn lies half on its square, turned
    frames = board_frames_with_square(reader, board, "5c", half_off, SETTLE_FRAMES)
    results = feed(reconciler, frames)
    assert isinstance(results[0], Waiting)
    assert "5c cannot be read clearly" in results[0].reason
    assert all(not isinstance(r, MoveCommitted) for r in results)
    assert isinstance(results[-1], Mismatch)
    assert reconciler.moves == ()
    reconciler.observe(reader.observe_board(board, 2.0, stable=False))  # the hand setting it right
    fixed = decisions(feed(reconciler, [reader.observe_board(board, 2.1 + 0.1 * k) for k in range(4)]))
    assert [r.moves for r in fixed if isinstance(r, MoveCommitted)] == [("7g7f",)]


def test_hands_disagreeing_with_a_drop_are_asked_about() -> None:
    """A silver seen on the board while the stands say a gold left: both explanations go to the player."""
    sfen = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LN1GKGSNL b SG 1"
    board = after(sfen, ["S*5e"])
    labels, hands = edited(board, {}, {"S": 1, "G": -1})
    results = decisions(feed(Reconciler(sfen=sfen), still(SyntheticReader(5), labels, hands, 0.0, SETTLE_FRAMES)))
    assert results and all(isinstance(r, Ambiguous) for r in results)
    assert {c.text for c in results[-1].candidates} == {"S*5e", "G*5e"}


PAWN_IN_HAND_CAPTURE = "lnsgkgsnl/1r5b1/pppp1ppp1/4p4/4P4/9/PPPP1PPPP/1B5R1/LNSGKGSNL b P 1"
TWO_PAWNS_IN_HAND = "lnsgkgsnl/1r5b1/1ppp1ppp1/4p4/4P4/9/PPPP1PPPP/1B5R1/LNSGKGSNL b 2P 1"


def _pawn_stand_known(seed: int) -> tuple[Reconciler, SyntheticReader, cshogi.Board]:
    """A reconciler whose sente stand was seen to count two pawns right while a position was confirmed, then
    set to a position where sente holds one and can capture a second (5e5d); the reader, and the board after
    5e5d. The hand is then over the board (an unstable frame)."""
    reconciler = Reconciler(sfen=TWO_PAWNS_IN_HAND)
    reader = SyntheticReader(seed)
    known = cshogi.Board(TWO_PAWNS_IN_HAND)
    feed(reconciler, still(reader, board_labels(known), board_hands(known), -1.0, 5))
    reconciler.set_position(PAWN_IN_HAND_CAPTURE)
    reconciler.observe(reader.observe_board(cshogi.Board(PAWN_IN_HAND_CAPTURE), -0.5, stable=False))
    return reconciler, reader, after(PAWN_IN_HAND_CAPTURE, ["5e5d"])


def test_capture_waits_for_the_piece_stand() -> None:
    """A capture is held back while a stand that has been seen to count that many of the captured kind still
    lacks the captured piece (saying so), and committed at once when the stand shows it."""
    reconciler, reader, board = _pawn_stand_known(6)
    labels, _ = edited(board, {})
    early = feed(reconciler, still(reader, labels, board_hands(cshogi.Board(PAWN_IN_HAND_CAPTURE)), 0.0, 8))
    assert not any(isinstance(r, MoveCommitted) for r in early)
    assert isinstance(early[-1], Waiting) and "piece stand" in early[-1].reason
    reconciler.observe(reader.observe_board(board, 0.8, stable=False))  # the hand putting it on the stand
    late = decisions(feed(reconciler, still(reader, labels, board_hands(board), 0.9, 4)))
    assert [r.moves for r in late] == [("5e5d",)]


def test_stand_that_never_shows_the_capture_does_not_stop_the_game() -> None:
    """A stand read as before the capture for longer than stand_wait_seconds (a reader that miscounts it): the
    board's evidence commits the capture."""
    reconciler, reader, board = _pawn_stand_known(7)
    labels, _ = edited(board, {})
    results = feed(reconciler, still(reader, labels, board_hands(cshogi.Board(PAWN_IN_HAND_CAPTURE)), 0.0, 15))
    committed = [(k, r) for k, r in enumerate(results) if isinstance(r, MoveCommitted)]
    assert [r.moves for _, r in committed] == [("5e5d",)]
    assert committed[0][0] * 0.1 >= reconciler.config.stand_wait_seconds
