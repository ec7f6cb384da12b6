"""Reconciliation commits every kind of legal move from noisy frames, exactly once."""

from __future__ import annotations

import cshogi
import pytest
from reconcile_scenes import after, board_frames_with_square, decisions, feed, split_row

from controller.reconcile import Mismatch, MoveCommitted, NoChange, Observation, Reconciler, Waiting
from controller.reconcile.labels import square_index
from controller.reconcile.synthetic import NoiseModel, SyntheticReader
from controller.reconcile.types import ReconcileConfig
from controller.rules.positions import STARTPOS_SFEN

FACING_PAWNS = "lnsgkgsnl/1r5b1/pppp1pppp/4p4/4P4/9/PPPP1PPPP/1B5R1/LNSGKGSNL b - 1"
OPEN_BISHOPS = "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 1"
HANDS_FULL = "4k4/9/9/9/9/9/9/9/4K4 b RBGSNLPrbgsnlp 1"
PAWN_ON_2B = "4k4/7P1/9/9/9/9/9/9/4K4 b - 1"
SILVER_ON_5D = "lnsgkgsnl/1r5b1/pppp1pppp/4S4/9/9/PPPPPPPPP/1B5R1/LN1GKGSNL b - 1"


def _play(sfen: str, prior: list[str], moves: list[str], seed: int = 7, noise: NoiseModel | None = None) -> list:
    """Results of feeding the frames of `moves` (made between two stable reads) after `prior` moves."""
    reconciler = Reconciler(sfen=sfen, moves=prior)
    reader = SyntheticReader(seed, noise)
    board = after(sfen, prior)
    first = feed(reconciler, [reader.observe_board(board, 0.0 + 0.1 * k) for k in range(3)])
    assert all(isinstance(r, NoChange) for r in first), first
    return decisions(feed(reconciler, reader.move_frames(board, moves, 1.0)))


def _committed(results: list) -> list[tuple[str, ...]]:
    assert all(isinstance(r, MoveCommitted) for r in results), results
    return [r.moves for r in results]


def test_plain_move() -> None:
    """A pawn push is committed once, as that move."""
    assert _committed(_play(STARTPOS_SFEN, [], ["7g7f"])) == [("7g7f",)]


def test_capture() -> None:
    """A capture is committed (the captured pawn on sente's stand)."""
    assert _committed(_play(FACING_PAWNS, [], ["5e5d"])) == [("5e5d",)]


@pytest.mark.parametrize("move", ["8h2b+", "8h2b"])
def test_promotion_accepted_and_declined(move: str) -> None:
    """A bishop capturing into the zone is committed promoted or not, as its face shows."""
    assert _committed(_play(OPEN_BISHOPS, [], [move])) == [(move,)]


SILVER_IN_ZONE = "4k4/9/4S4/9/9/9/9/9/4K4 b - 1"


@pytest.mark.parametrize(
    ("start", "move"),
    [
        (SILVER_ON_5D, "5d5c+"),
        (SILVER_ON_5D, "5d5c"),
        (SILVER_IN_ZONE, "5c4d+"),
        (SILVER_IN_ZONE, "5c4d"),
        (SILVER_IN_ZONE, "5c4b+"),
        (SILVER_IN_ZONE, "5c4b"),
    ],
)
def test_promotion_entering_leaving_and_inside_the_zone(start: str, move: str) -> None:
    """A silver entering, leaving or moving inside the zone may promote or not; the face read decides."""
    assert _committed(_play(start, [], [move])) == [(move,)]


def test_forced_promotion() -> None:
    """A pawn reaching the last rank can only promote: the only legal explanation is committed."""
    assert _committed(_play(PAWN_ON_2B, [], ["2b2a+"])) == [("2b2a+",)]


@pytest.mark.parametrize("kind", list("RBGSNLP"))
@pytest.mark.parametrize("side", ["sente", "gote"])
def test_drop_of_each_kind(kind: str, side: str) -> None:
    """A drop is committed with the kind seen on the square and taken from the right stand."""
    sfen = HANDS_FULL if side == "sente" else HANDS_FULL.replace(" b ", " w ")
    move = f"{kind}*5e"
    assert _committed(_play(sfen, [], [move])) == [(move,)]


@pytest.mark.parametrize(("prior", "move"), [([], "5i5h"), (["7g7f"], "5a4b"), (["5i5h", "5a5b"], "5h4h")])
def test_king_moves(prior: list[str], move: str) -> None:
    """King moves are committed for either side."""
    assert _committed(_play(STARTPOS_SFEN, prior, [move])) == [(move,)]


def test_two_moves_between_reads() -> None:
    """A fast reply made before the board was read stable again is committed as a pair."""
    assert _committed(_play(STARTPOS_SFEN, [], ["7g7f", "3c3d"])) == [("7g7f", "3c3d")]


def test_drop_answered_by_capture_between_reads() -> None:
    """A drop and its capture in one gap are found among the pruned pairs."""
    sfen = "4k4/9/4s4/9/9/9/9/9/4K4 b P 1"
    assert _committed(_play(sfen, [], ["P*5d", "5c5d"])) == [("P*5d", "5c5d")]


def test_game_state_advances_after_commit() -> None:
    """After a commit the reconciler's moves include the move and the same board reads as no change."""
    reconciler = Reconciler()
    reader = SyntheticReader(3)
    board = cshogi.Board()
    feed(reconciler, reader.move_frames(board, ["2g2f"], 0.0))
    assert reconciler.moves == ("2g2f",)
    assert isinstance(reconciler.observe(reader.observe_board(board, 5.0)), NoChange)


def test_expected_move_confirmed() -> None:
    """A robot's announced move is confirmed when the board shows it."""
    reconciler = Reconciler(moves=["7g7f"])
    reconciler.expect("3c3d")
    reader = SyntheticReader(4)
    board = after(STARTPOS_SFEN, ["7g7f"])
    results = decisions(feed(reconciler, reader.move_frames(board, ["3c3d"], 0.0)))
    assert _committed(results) == [("3c3d",)]
    assert reconciler.expected_move is None


def test_expected_move_not_made_is_no_change() -> None:
    """Until the robot's move appears, the board reads as unchanged."""
    reconciler = Reconciler()
    reconciler.expect("7g7f")
    reader = SyntheticReader(5)
    results = feed(reconciler, [reader.observe_board(cshogi.Board(), 0.1 * k) for k in range(5)])
    assert all(isinstance(r, NoChange) for r in results)


def test_other_legal_move_than_expected_is_a_mismatch() -> None:
    """In assist mode, making a different move than the engine's is reported, not committed."""
    reconciler = Reconciler()
    reconciler.expect("7g7f")
    reader = SyntheticReader(6)
    results = decisions(feed(reconciler, reader.move_frames(cshogi.Board(), ["2g2f"], 0.0, stable=15)))
    assert results and all(isinstance(r, Mismatch) for r in results)
    assert "the move to make is 7g7f" in results[0].messages[0]
    assert reconciler.moves == ()


def test_unstable_frames_wait() -> None:
    """While a hand is over the board nothing is decided."""
    reconciler = Reconciler()
    reader = SyntheticReader(8)
    frames = reader.move_frames(cshogi.Board(), ["7g7f"], 0.0, stable=0)
    results = feed(reconciler, frames)
    assert results and all(r == Waiting("hands over the board") for r in results)


def _with_hidden(reader: SyntheticReader, board: cshogi.Board, square: str, times: list[float]) -> list[Observation]:
    """Stable frames of `board` at `times` with `square` flagged unreliable (the reader could not see it)."""
    return [
        Observation(o.probs, o.hands, o.hand_confidence, frozenset({square_index(square)}), True, o.time)
        for o in (reader.observe_board(board, t) for t in times)
    ]


def test_blurred_destination_waits_then_commits() -> None:
    """A destination flagged unreliable delays the commit until it is seen."""
    reconciler = Reconciler()
    reader = SyntheticReader(9)
    board = cshogi.Board()
    board.push_usi("7g7f")
    hidden = _with_hidden(reader, board, "7f", [0.1 * k for k in range(6)])
    assert decisions(feed(reconciler, hidden)) == []
    results = decisions(feed(reconciler, [reader.observe_board(board, 1.0 + 0.1 * k) for k in range(4)]))
    assert _committed(results) == [("7g7f",)]


def test_destination_hidden_for_long_is_told_then_the_move_is_committed() -> None:
    """A destination the reader cannot see on still frames (no hand in view: something left over it) is waited
    for silently up to `hidden_seconds`, then told to the player as a problem naming the square; once it is seen
    the move is committed."""
    reconciler = Reconciler()
    reader = SyntheticReader(9)
    board = cshogi.Board()
    board.push_usi("7g7f")
    hidden = _with_hidden(reader, board, "7f", [0.5 * k for k in range(16)])
    results = feed(reconciler, hidden)
    patience = reconciler.config.hidden_seconds
    early = [r for r, o in zip(results, hidden, strict=True) if o.time < patience]
    late = [r for r, o in zip(results, hidden, strict=True) if o.time >= patience]
    assert early and all(isinstance(r, Waiting) for r in early)
    assert late and all(isinstance(r, Mismatch) and r.squares == ("7f",) for r in late)
    assert "7f cannot be seen" in late[0].messages[0]
    results = decisions(feed(reconciler, [reader.observe_board(board, 9.0 + 0.1 * k) for k in range(4)]))
    assert _committed(results) == [("7g7f",)]


def test_promotion_face_unreadable_is_not_guessed() -> None:
    """When the moved silver's face reads half promoted, half not, the player is asked."""
    reconciler = Reconciler(sfen=SILVER_ON_5D)
    reader = SyntheticReader(10)
    board = after(SILVER_ON_5D, ["5d5c+"])
    frames = board_frames_with_square(reader, board, "5c", split_row({"+S": 0.5, "S": 0.48}), 15)
    results = decisions(feed(reconciler, frames))
    assert results, "an ambiguity should be reported"
    texts = {c.text for c in results[0].candidates}
    assert texts == {"5d5c+", "5d5c"}
    assert reconciler.moves == ()


def test_decide_now_commits_on_the_first_stable_frame() -> None:
    """After the move-done button, the first stable frame after the hand leaves decides."""
    reconciler = Reconciler()
    reader = SyntheticReader(11)
    board = cshogi.Board()
    frames = reader.move_frames(board, ["2g2f"], 0.0, stable=1)
    reconciler.decide_now()
    results = feed(reconciler, frames)
    assert isinstance(results[-1], MoveCommitted)
    assert results[-1].moves == ("2g2f",)


def test_without_decide_now_one_frame_is_not_enough() -> None:
    """A single stable frame only starts the confirmation."""
    reconciler = Reconciler()
    frames = SyntheticReader(11).move_frames(cshogi.Board(), ["2g2f"], 0.0, stable=1)
    assert feed(reconciler, frames)[-1] == Waiting(f"confirming 2g2f (1/{ReconcileConfig().agree_frames})")


def test_frames_enough_but_time_short_says_how_long_the_move_was_seen() -> None:
    """Frames 10 ms apart: the agreeing frames are there before `agree_seconds`, and the wait says how long the
    move has been seen, not a frame count past its need ("3/2")."""
    reconciler = Reconciler()
    frames = SyntheticReader(11).move_frames(cshogi.Board(), ["2g2f"], 0.0, stable=6, dt=0.01)
    waits = [r.reason for r in feed(reconciler, frames) if isinstance(r, Waiting) and "2g2f" in r.reason]
    agree = ReconcileConfig().agree_seconds
    assert waits, "no wait named the move"
    assert waits[-1].startswith("confirming 2g2f (seen for ") and waits[-1].endswith(f" of {agree} s)")


def test_motion_gate_missing_the_hand() -> None:
    """With no unstable frame between the positions, the mixed window waits and the move is committed once."""
    reconciler = Reconciler()
    reader = SyntheticReader(12)
    board = cshogi.Board()
    frames = [reader.observe_board(board, 0.1 * k) for k in range(6)]
    board.push_usi("7g7f")
    frames += [reader.observe_board(board, 0.6 + 0.1 * k) for k in range(12)]
    results = decisions(feed(reconciler, frames))
    assert _committed(results) == [("7g7f",)]


GOTE_HOLDS_A_ROOK = "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b r 1"


def test_pair_whose_drop_kind_is_read_weakly_is_not_confused_with_its_first_move() -> None:
    """7g7f then R*5e between two reads, the rook on 5e read weakly (35 %) but clearly a piece: 7g7f alone would
    leave 5e empty, which the board plainly contradicts, so the pair is committed rather than asked about."""
    board = after(GOTE_HOLDS_A_ROOK, ["7g7f", "R*5e"])
    weak = split_row({"r": 0.35, "b": 0.15, "s": 0.15, "g": 0.15, "+r": 0.1, "empty": 0.03})
    reader = SyntheticReader(23, NoiseModel(hands_visible=False))
    frames = board_frames_with_square(reader, board, "5e", weak, 15)
    results = decisions(feed(Reconciler(sfen=GOTE_HOLDS_A_ROOK), frames))
    assert [r.moves for r in results if isinstance(r, MoveCommitted)] == [("7g7f", "R*5e")]
