"""A reader that is unsure or wrong in ways that do not concern the move: the board's evidence still decides."""

from __future__ import annotations

import dataclasses

from reconcile_scenes import (
    after,
    board_frames_with_square,
    committing_index,
    decisions,
    edited,
    feed,
    split_row,
    still,
    with_square,
)

from controller.reconcile import Ambiguous, Mismatch, MoveCommitted, Reconciler
from controller.reconcile.labels import board_hands
from controller.reconcile.synthetic import NoiseModel, SyntheticReader
from controller.reconcile.types import Observation, ReconcileConfig
from controller.rules.positions import STARTPOS_SFEN

CAPTURE_SFEN = "lnsgkgsnl/1r5b1/pppp1pppp/4p4/4P4/9/PPPP1PPPP/1B5R1/LNSGKGSNL b - 1"


def _with_hands(obs: Observation, hands: dict[str, int]) -> Observation:
    return dataclasses.replace(obs, hands=hands, hand_confidence=0.8)


def test_owner_unsure_on_an_unchanged_square_does_not_block() -> None:
    """Gote's rook read as 58 % gote, 42 % sente on every frame (a style the reader confuses) is no knocked-over
    piece: the move elsewhere is committed."""
    board = after(STARTPOS_SFEN, ["7g7f"])
    unsure = split_row({"r": 0.3, "+b": 0.28, "S": 0.22, "L": 0.18})
    reader = SyntheticReader(11)
    frames = board_frames_with_square(reader, board, "8b", unsure, 6)
    results = decisions(feed(Reconciler(), frames))
    assert [r.moves for r in results if isinstance(r, MoveCommitted)] == [("7g7f",)]


HORSE_BEFORE_8I = "lnsgk1snl/6g2/p1pppp1pp/6p2/9/2P6/P2PPPPPP/1+b2G2R1/LNS1KGSNL w Bp 1"


def _one_square_read_as(sfen: str, move: str, square: str, weights: dict[str, float], *, seed: int, n: int) -> list:
    """Decisions over `n` frames of `sfen` after `move`, `square` read as `weights`."""
    reader = SyntheticReader(seed)
    frames = board_frames_with_square(reader, after(sfen, [move]), square, split_row(weights), n)
    return decisions(feed(Reconciler(sfen=sfen), frames))


def _horse_read_as(weights: dict[str, float]) -> list:
    return _one_square_read_as(HORSE_BEFORE_8I, "8h8i", "8i", weights, seed=21, n=15)


def test_piece_clearly_there_but_owner_unsure_does_not_block() -> None:
    """Gote's horse moved to 8i and read there as 54 % sente, 45 % gote on every frame (a held-out style the
    reader confuses; bench game 8's stuck game): a piece clearly stands on 8i, its owner comes from the game, so
    the move is committed instead of waiting for a square that will never read better."""
    sente = {"+R": 0.11, "R": 0.1, "P": 0.09, "G": 0.08, "B": 0.08, "S": 0.08}
    gote = {"+r": 0.12, "+b": 0.08, "r": 0.08, "b": 0.08, "s": 0.08}
    results = _horse_read_as({**sente, **gote})
    assert [r.moves for r in results if isinstance(r, MoveCommitted)] == [("8h8i",)]


def test_piece_half_there_still_blocks() -> None:
    """The same square read 45 % empty (the piece lying half off it, turned): unclear, nothing is committed."""
    results = _horse_read_as({"empty": 0.45, "R": 0.3, "+b": 0.2})
    assert results and not any(isinstance(r, MoveCommitted) for r in results)
    assert isinstance(results[-1], Mismatch) and "8i cannot be read clearly" in results[-1].messages[0]


def test_stand_misread_in_a_slot_the_move_leaves_alone_does_not_block() -> None:
    """Stands read with a lance nobody holds: a plain pawn push is still committed."""
    board = after(STARTPOS_SFEN, ["2g2f"])
    reader = SyntheticReader(12)
    frames = [_with_hands(reader.observe_board(board, 0.1 * k), {"L": 1}) for k in range(6)]
    results = decisions(feed(Reconciler(), frames))
    assert [r.moves for r in results if isinstance(r, MoveCommitted)] == [("2g2f",)]


def test_captured_piece_miscounted_on_the_stand_is_committed_from_the_board() -> None:
    """After 5e5d takes a pawn, sente's stand read as two pawns (neither the count before, 0, nor the right one,
    1): the stand does not show the position before the move, so the board decides."""
    board = after(CAPTURE_SFEN, ["5e5d"])
    labels, _ = edited(board, {})
    reader = SyntheticReader(13)
    frames = [_with_hands(f, {"P": 2}) for f in still(reader, labels, board_hands(board), 0.0, 6)]
    results = decisions(feed(Reconciler(sfen=CAPTURE_SFEN), frames))
    assert [r.moves for r in results if isinstance(r, MoveCommitted)] == [("5e5d",)]


def test_one_frame_stand_misread_is_outvoted() -> None:
    """A single frame reading the stand as it was before the capture does not hold the move back: the window's
    frames vote per hand slot, so the last agreeing frame needed commits it, misread or not."""
    board = after(CAPTURE_SFEN, ["5e5d"])
    reader = SyntheticReader(14)
    frames = [reader.observe_board(board, 0.1 * k) for k in range(6)]
    assert frames[0].hands == {"P": 1}
    last = committing_index(frames)
    frames[last] = _with_hands(frames[last], {})
    results = feed(Reconciler(sfen=CAPTURE_SFEN), frames)
    assert results[last] == MoveCommitted(("5e5d",), results[last].margin)


def test_drop_read_as_a_kind_not_in_hand_is_the_held_kind() -> None:
    """A rook dropped on 1i but read as a lance: sente holds no lance, so the lance is a misread and R*1i, the only
    drop there that sente could make, is committed (the stands agree: the rook left)."""
    sfen = "lnsgkgsn1/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B7/LNSGKGSN1 b R 1"
    board = after(sfen, ["R*1i"])
    lance = split_row({"L": 0.92, "R": 0.03})
    reader = SyntheticReader(15)
    frames = board_frames_with_square(reader, board, "1i", lance, 6)
    assert all(frame.hands == {} for frame in frames)
    results = decisions(feed(Reconciler(sfen=sfen), frames))
    assert [r.moves for r in results if isinstance(r, MoveCommitted)] == [("R*1i",)]


OPEN_BISHOPS = "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 1"


def _bishop_face(weights: dict[str, float]) -> list:
    return _one_square_read_as(OPEN_BISHOPS, "8h2b+", "2b", weights, seed=16, n=12)


def test_unsure_face_leaning_promoted_commits_the_promotion() -> None:
    """A bishop's face read 55 % horse, 17 % bishop: players nearly always promote a bishop, so the promotion is
    committed rather than asked about."""
    results = _bishop_face({"+B": 0.55, "B": 0.17, "+b": 0.1})
    assert [r.moves for r in results if isinstance(r, MoveCommitted)] == [("8h2b+",)]


def test_unsure_face_leaning_unpromoted_is_asked() -> None:
    """The other way round (55 % bishop, 17 % horse) is not enough to commit the rare declined promotion: asked."""
    results = _bishop_face({"B": 0.55, "+B": 0.17, "+b": 0.1})
    assert results and isinstance(results[-1], Ambiguous)
    assert {c.text for c in results[-1].candidates} == {"8h2b", "8h2b+"}


def test_promotion_taken_at_once_is_decided_by_the_prior() -> None:
    """8h2b+ then 3a2b between two reads: whether the bishop promoted cannot be seen (it was taken at once and
    both choices end in the same position), so the usual choice, promoting, is committed without asking."""
    reconciler = Reconciler(sfen=OPEN_BISHOPS)
    reader = SyntheticReader(17)
    board = after(OPEN_BISHOPS, [])
    feed(reconciler, [reader.observe_board(board, 0.1 * k) for k in range(3)])
    results = decisions(feed(reconciler, reader.move_frames(board, ["8h2b+", "3a2b"], 1.0)))
    assert [r.moves for r in results if isinstance(r, MoveCommitted)] == [("8h2b+", "3a2b")]
    assert not any(isinstance(r, Ambiguous) for r in results)


def test_knight_promotion_taken_at_once_is_asked() -> None:
    """4e3c then 3b3c between two reads (game 107 of the games file declined it): players often keep a knight
    unpromoted, so a choice no picture can show is asked rather than guessed from the prior."""
    sfen = "4k4/6s2/9/9/5N3/9/9/9/4K4 b - 1"
    reconciler = Reconciler(sfen=sfen)
    reader = SyntheticReader(19)
    board = after(sfen, [])
    feed(reconciler, [reader.observe_board(board, 0.1 * k) for k in range(3)])
    frames = reader.move_frames(board, ["4e3c", "3b3c"], 1.0)
    frames += [reader.observe_board(board, frames[-1].time + 0.1 * (k + 1)) for k in range(20)]
    results = decisions(feed(reconciler, frames))
    assert results and not any(isinstance(r, MoveCommitted) for r in results)
    assert isinstance(results[-1], Ambiguous)
    assert {c.text for c in results[-1].candidates} == {"4e3c then 3b3c", "4e3c+ then 3b3c"}


def test_drop_read_as_a_kind_not_in_hand_with_stands_unseen() -> None:
    """The same misread rook while the stands cannot be read at all: a piece can only come from the stand, so
    R*1i is still committed."""
    sfen = "lnsgkgsn1/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B7/LNSGKGSN1 b R 1"
    board = after(sfen, ["R*1i"])
    reader = SyntheticReader(18, NoiseModel(hands_visible=False))
    lance = split_row({"L": 0.92, "R": 0.03})
    frames = board_frames_with_square(reader, board, "1i", lance, 6)
    assert all(frame.hands is None for frame in frames)
    results = decisions(feed(Reconciler(sfen=sfen), frames))
    assert [r.moves for r in results if isinstance(r, MoveCommitted)] == [("R*1i",)]


ROOK_AND_GOLD = "lnsgkgsn1/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B7/LNSGKGSN1 b RG 1"


def _misread_rook(hands_visible: bool) -> list:
    board = after(ROOK_AND_GOLD, ["R*1i"])
    reader = SyntheticReader(19, NoiseModel(hands_visible=hands_visible))
    lance = split_row({"L": 0.92, "R": 0.03})
    frames = board_frames_with_square(reader, board, "1i", lance, 15)
    return decisions(feed(Reconciler(sfen=ROOK_AND_GOLD), frames))


def test_drop_kind_nobody_can_tell_is_asked() -> None:
    """Holding a rook and a gold, a piece read as a lance dropped on 1i, stands unseen: which piece it was is
    asked (rook or gold), never guessed."""
    results = _misread_rook(hands_visible=False)
    assert results and all(isinstance(r, Ambiguous) for r in results)
    assert {c.text for c in results[-1].candidates} == {"R*1i", "G*1i"}


def test_drop_kind_told_by_the_stands_is_committed() -> None:
    """The same read with the stands showing the gold still there and the rook gone: R*1i is committed."""
    results = _misread_rook(hands_visible=True)
    assert [r.moves for r in results if isinstance(r, MoveCommitted)] == [("R*1i",)]


BISHOP_AND_GOLD = "lnsgk1snl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b BG 1"


def test_drop_of_a_kind_this_reader_reads_as_another_is_asked() -> None:
    """All along, this set's bishop on 8h is read as a gold (90 %). A bishop dropped on 5e is then read as a gold
    too; sente holds both and the stands are unseen: the reader's habits say it cannot tell them apart, so the
    kind is asked (bishop or gold) instead of committing G*5e."""
    as_gold = split_row({"G": 0.9, "B": 0.02})
    reader = SyntheticReader(20, NoiseModel(hands_visible=False))
    reconciler = Reconciler(sfen=BISHOP_AND_GOLD)
    board = after(BISHOP_AND_GOLD, [])
    feed(reconciler, board_frames_with_square(reader, board, "8h", as_gold, 8))
    reconciler.observe(reader.observe_board(board, 0.9, stable=False))
    board.push_usi("B*5e")
    frames = [
        with_square(with_square(reader.observe_board(board, 1.0 + 0.1 * k), "8h", as_gold), "5e", as_gold)
        for k in range(15)
    ]
    results = decisions(feed(reconciler, frames))
    assert results and not any(isinstance(r, MoveCommitted) for r in results)
    assert {c.text for c in results[-1].candidates} >= {"B*5e", "G*5e"}


GOTE_HOLDS_PAWN_AND_BISHOP = "lnsgkgsnl/1r7/ppppppp1p/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w bp 1"


def test_drop_read_as_the_other_owners_piece_of_the_same_kind_is_that_kind() -> None:
    """Gote drops a pawn on 2e, read as 60 % sente's pawn, 30 % gote's (an owner the reader confuses), stands
    unseen, gote holding a pawn and a bishop: the kind read is a pawn, whoever's, and gote dropped it, so P*2e is
    committed rather than asked about."""
    board = after(GOTE_HOLDS_PAWN_AND_BISHOP, ["P*2e"])
    flipped = split_row({"P": 0.6, "p": 0.3})
    reader = SyntheticReader(24, NoiseModel(hands_visible=False))
    frames = board_frames_with_square(reader, board, "2e", flipped, 15)
    results = decisions(feed(Reconciler(sfen=GOTE_HOLDS_PAWN_AND_BISHOP), frames))
    assert [r.moves for r in results if isinstance(r, MoveCommitted)] == [("P*2e",)]


KNIGHT_AND_PAWN = "l1sgkgsnl/1r5b1/ppppppppp/9/9/9/PPPP1PPPP/1B5R1/LNSGKGSNL b NP 1"


def _knight_dropped_as_pawn_like(
    learnt_frames: int, config: ReconcileConfig | None = None, *, reader_changed: bool = False
) -> list:
    """This set's knights read 50 % pawn, 40 % knight wherever they stand; N*5e is dropped and read the same way
    (after the reader was said to have changed, if `reader_changed`)."""
    pawnish = split_row({"P": 0.5, "N": 0.4})
    reader = SyntheticReader(25, NoiseModel(hands_visible=False))
    reconciler = Reconciler(config, sfen=KNIGHT_AND_PAWN)
    board = after(KNIGHT_AND_PAWN, [])

    def misread(obs: Observation, *squares: str) -> Observation:
        for square in squares:
            obs = with_square(obs, square, pawnish)
        return obs

    feed(reconciler, [misread(reader.observe_board(board, 0.1 * k), "8i", "2i") for k in range(learnt_frames)])
    if reader_changed:
        reconciler.reader_changed()
    reconciler.observe(reader.observe_board(board, 10.0, stable=False))
    board.push_usi("N*5e")
    frames = [misread(reader.observe_board(board, 10.1 + 0.1 * k), "8i", "2i", "5e") for k in range(15)]
    return decisions(feed(reconciler, frames))


def test_drop_misread_the_way_this_reader_misreads_the_kind_is_that_kind() -> None:
    """After 30 frames showing how this reader reads the set's knights (half pawn), a knight dropped on 5e and
    read the same way is committed as N*5e where the habits' lead (about 2.7 here) clears `habit_margin`: the
    habits tell the kind though the raw read leans to a pawn."""
    results = _knight_dropped_as_pawn_like(30, ReconcileConfig(habit_margin=2.5))
    assert [r.moves for r in results if isinstance(r, MoveCommitted)] == [("N*5e",)]


def test_habits_of_a_reader_that_changed_are_forgotten() -> None:
    """The same 30 frames, then the reader changes (a piece set learnt): what it did before says nothing of how it
    reads now, so the drop is asked about (as with no habits) instead of committed on the old habits."""
    results = _knight_dropped_as_pawn_like(30, ReconcileConfig(habit_margin=2.5), reader_changed=True)
    assert results and not any(isinstance(r, MoveCommitted) for r in results)
    assert {c.text for c in results[-1].candidates} >= {"N*5e", "P*5e"}


def test_drop_kind_told_by_the_habits_by_a_thin_lead_is_asked() -> None:
    """The same drop under the default `habit_margin` (3): a lead of 2.7 is no proof (leads of 2.4-2.6 committed
    a lance for a rook on a development game), so the kind is asked, the knight among the options."""
    results = _knight_dropped_as_pawn_like(30)
    assert results and not any(isinstance(r, MoveCommitted) for r in results)
    assert isinstance(results[-1], Ambiguous)
    assert {c.text for c in results[-1].candidates} >= {"N*5e", "P*5e"}


def test_drop_kind_is_asked_while_the_habits_are_young() -> None:
    """The same drop after only 3 frames of the knights: too little is known of the habits to decide, so the
    kind is asked (knight or pawn), never guessed."""
    results = _knight_dropped_as_pawn_like(3)
    assert results and not any(isinstance(r, MoveCommitted) for r in results)
    assert {c.text for c in results[-1].candidates} >= {"N*5e", "P*5e"}


def test_drop_kind_only_weighed_against_kinds_that_could_be_dropped_there() -> None:
    """A rook dropped on 6a, read as a king or a lance: sente also holds a lance, a knight and a pawn, but none of
    those may be dropped on the last rank, so R*6a is the one explanation and is committed (the lance read no
    longer makes it a mismatch that stops the game)."""
    sfen = "4k4/9/9/9/9/9/9/9/4K4 b RLNP 1"
    board = after(sfen, ["R*6a"])
    king_or_lance = split_row({"K": 0.5, "L": 0.2, "+B": 0.15, "R": 0.004})
    reader = SyntheticReader(26, NoiseModel(hands_visible=False))
    frames = board_frames_with_square(reader, board, "6a", king_or_lance, 15)
    results = decisions(feed(Reconciler(sfen=sfen), frames))
    assert [r.moves for r in results if isinstance(r, MoveCommitted)] == [("R*6a",)]


LANCE_AND_PAWNS = "lnsgkgsnl/1r5b1/pppp1pppp/9/9/9/PPPPPP3/1B5R1/LNSGKGSN1 w Pl3p 1"


def _lance_read_as_pawn(before_hands: dict[str, int]) -> list:
    """Gote drops a lance on 5e, read as 56 % pawn, 5 % lance; gote's stand then reads 2 pawns, no lance."""
    reader = SyntheticReader(27, NoiseModel(similar_share=0.0))
    reconciler = Reconciler(sfen=LANCE_AND_PAWNS)
    board = after(LANCE_AND_PAWNS, [])
    feed(reconciler, [_with_hands(reader.observe_board(board, 0.1 * k), before_hands) for k in range(6)])
    reconciler.observe(reader.observe_board(board, 1.0, stable=False))
    board.push_usi("L*5e")
    pawnish = split_row({"p": 0.56, "g": 0.29, "l": 0.05})
    frames = [
        _with_hands(with_square(reader.observe_board(board, 1.1 + 0.1 * k), "5e", pawnish), {"P": 1, "p": 2})
        for k in range(15)
    ]
    return decisions(feed(reconciler, frames))


def test_stand_change_counts_when_the_stand_reader_miscounts_as_usual() -> None:
    """Gote's stand of three pawns always reads two (seen so while the board showed the position); after the drop
    it still reads two pawns and no lance: the stand's change says the lance left, so the board's pawn read is
    not committed as P*5e: the kind is asked."""
    results = _lance_read_as_pawn({"P": 1, "l": 1, "p": 2})
    assert results and not any(isinstance(r, MoveCommitted) for r in results)
    assert {c.text for c in results[-1].candidates} >= {"L*5e", "P*5e"}
