"""Move planning: plain moves, captures (also of promoted pieces), drops, promotions, owner changes."""

from __future__ import annotations

from collections import Counter

import cshogi
import pytest

from controller.planning.errors import PlanningError
from controller.planning.model import FlipStationLoc, HumanTask, Piece, SlotLoc, SquareLoc, TransferKind
from controller.planning.planner import Capabilities, plan_move
from controller.planning.state import PhysicalState
from controller.rules.positions import STARTPOS_SFEN
from hardware.geometry import Side

BARE = Capabilities(flip_station=False, rotation_axis=False)
FULL = Capabilities(flip_station=True, rotation_axis=True)
# Gote's dragon on 2b can be taken by sente's silver on 3c (a position made for the test).
DRAGON = "lnsgkgsnl/7+r1/ppppppSpp/9/9/9/PPPPPPPPP/1B5R1/LN1GKGSNL b - 1"


def _hands(board: cshogi.Board) -> Counter[tuple[Side, str]]:
    """Pieces in hand by (side, kind) as cshogi counts them (its order is P L N S G B R)."""
    counts: Counter[tuple[Side, str]] = Counter()
    for side, hand in zip((Side.BLACK, Side.WHITE), board.pieces_in_hand, strict=True):
        for kind, n in zip("PLNSGBR", hand, strict=True):
            if n:
                counts[(side, kind)] = n
    return counts


def _kinds(plan) -> list[str]:  # type: ignore[no-untyped-def]
    return [t.kind.value for t in plan.transfers]


def test_plain_move_is_one_transfer() -> None:
    """7g7f carries the pawn from 7g to 7f and nothing else."""
    state = PhysicalState.from_sfen(STARTPOS_SFEN)
    plan = plan_move(state, STARTPOS_SFEN, "7g7f", BARE)
    assert [(t.kind, str(t.src), str(t.dst)) for t in plan.transfers] == [(TransferKind.MOVE, "7g", "7f")]
    assert state.at(SquareLoc("7f")) == Piece("P", False, Side.BLACK)


def test_captured_dragon_goes_to_the_rook_row_first() -> None:
    """The captured dragon is carried to sente's first free rook slot before the silver moves in."""
    state = PhysicalState.from_sfen(DRAGON)
    plan = plan_move(state, DRAGON, "3c2b", BARE)
    first, second = plan.transfers
    assert first.kind is TransferKind.CAPTURE_TO_STAND and first.dst == SlotLoc(Side.BLACK, "R", 0)
    assert first.label == "+r"
    assert (second.src, second.dst) == (SquareLoc("3c"), SquareLoc("2b"))


def test_captured_dragon_is_demoted_by_the_flip_station() -> None:
    """With a flip station the dragon is flipped on its way and stored as a rook facing its new owner."""
    state = PhysicalState.from_sfen(DRAGON)
    plan = plan_move(state, DRAGON, "3c2b", FULL)
    assert _kinds(plan) == ["flip", "capture_to_stand", "move"]
    assert plan.transfers[1].src == FlipStationLoc() and plan.transfers[1].half_turn
    assert state.at(SlotLoc(Side.BLACK, "R", 0)) == Piece("R", False, Side.BLACK)


def test_without_machines_the_stand_keeps_the_dragon_face_until_dropped() -> None:
    """No flip station, no axis: the dragon sits in the rook slot as it was; its drop asks a person first."""
    board = cshogi.Board(DRAGON)
    state = PhysicalState.from_sfen(DRAGON)
    for usi in ("3c2b", "1c1d"):
        plan_move(state, board, usi, BARE)
        board.push_usi(usi)
    assert state.at(SlotLoc(Side.BLACK, "R", 0)) == Piece("R", True, Side.WHITE)
    plan = plan_move(state, board, "R*5e", BARE)
    assert [(t.kind, t.task) for t in plan.transfers] == [
        (TransferKind.HUMAN_ACTION, HumanTask.TURN_OVER_AND_AROUND),
        (TransferKind.DROP, None),
    ]
    assert state.at(SquareLoc("5e")) == Piece("R", False, Side.BLACK)


def test_drop_takes_the_highest_occupied_slot() -> None:
    """With three pawns in hand, P*2e takes slot 2."""
    sfen = "lnsgkgsnl/1r5b1/pppppp3/9/9/9/PPPPPP3/1B5R1/LNSGKGSNL b 3P3p 1"
    state = PhysicalState.from_sfen(sfen)
    plan = plan_move(state, sfen, "P*2e", BARE)
    assert [(t.kind, t.src) for t in plan.transfers] == [(TransferKind.DROP, SlotLoc(Side.BLACK, "P", 2))]
    assert state.at(SlotLoc(Side.BLACK, "P", 1)) is not None and state.at(SlotLoc(Side.BLACK, "P", 2)) is None


def test_drop_of_a_captured_piece_asks_for_the_turn_without_an_axis() -> None:
    """A piece captured without a rotation axis still points at its old owner: a person turns it before the drop."""
    sfen = "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 1"
    board = cshogi.Board(sfen)
    state = PhysicalState.from_sfen(sfen)
    for usi in ("8h2b+", "3a2b"):
        plan_move(state, board, usi, BARE)
        board.push_usi(usi)
    plan = plan_move(state, board, "B*5e", BARE)
    assert [(t.kind, t.task) for t in plan.transfers] == [
        (TransferKind.HUMAN_ACTION, HumanTask.TURN_AROUND),
        (TransferKind.DROP, None),
    ]
    assert state.at(SquareLoc("5e")) == Piece("B", False, Side.BLACK)


def test_owner_change_uses_the_rotation_axis() -> None:
    """With an axis the captured piece is turned while it is carried to the stand; its drop needs nothing else."""
    sfen = "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 1"
    board = cshogi.Board(sfen)
    state = PhysicalState.from_sfen(sfen)
    caps = Capabilities(flip_station=False, rotation_axis=True)
    capture = plan_move(state, board, "8h2b+", caps)
    assert capture.transfers[0].half_turn and capture.transfers[0].kind is TransferKind.CAPTURE_TO_STAND
    board.push_usi("8h2b+")
    board.push_usi("3a2b")
    drop = plan_move(state, board, "B*5e", caps)
    assert _kinds(drop) == ["drop"]


def test_promotion_with_a_flip_station() -> None:
    """A promoting pawn goes through the flip station and arrives face down."""
    sfen = "lnsgkgsnl/1r5b1/pppppp2p/6pP1/9/9/PPPPPPP1P/1B5R1/LNSGKGSNL b - 1"
    state = PhysicalState.from_sfen(sfen)
    plan = plan_move(state, sfen, "2d2c+", FULL)
    assert [(t.kind, str(t.src), str(t.dst)) for t in plan.transfers] == [
        (TransferKind.FLIP, "2d", "flip station"),
        (TransferKind.MOVE, "flip station", "2c"),
    ]
    assert state.at(SquareLoc("2c")) == Piece("P", True, Side.BLACK)


def test_promotion_without_a_flip_station_asks_a_person() -> None:
    """Without a flip station the pawn moves, then a person turns the piece on 2c over."""
    sfen = "lnsgkgsnl/1r5b1/pppppp2p/6pP1/9/9/PPPPPPP1P/1B5R1/LNSGKGSNL b - 1"
    state = PhysicalState.from_sfen(sfen)
    plan = plan_move(state, sfen, "2d2c+", BARE)
    human = plan.transfers[-1]
    assert human.kind is TransferKind.HUMAN_ACTION and human.src == SquareLoc("2c")
    assert human.describe() == "HUMAN: turn over the piece P at 2c"
    assert state.at(SquareLoc("2c")) == Piece("P", True, Side.BLACK)


def test_illegal_move_is_refused_and_changes_nothing() -> None:
    """An illegal move raises and leaves the state as it was."""
    state = PhysicalState.from_sfen(STARTPOS_SFEN)
    before = state.board_field()
    for bad in ("7g7e", "P*5e", "zz", "7g7f++"):
        with pytest.raises(PlanningError):
            plan_move(state, STARTPOS_SFEN, bad, BARE)
    assert state.board_field() == before


@pytest.mark.parametrize("caps", [BARE, FULL, Capabilities(True, False), Capabilities(False, True)])
def test_physical_state_follows_real_games(caps: Capabilities) -> None:
    """Over 20 real games the pieces on the board and the stand counts always equal the rules' position."""
    with open("../shared/data/games/lishogi-500.usi", encoding="utf-8") as handle:
        games = [line.split() for line in handle][:20]
    for game in games:
        board, state = cshogi.Board(), PhysicalState.from_sfen(STARTPOS_SFEN)
        for usi in game:
            plan_move(state, board, usi, caps)
            board.push_usi(usi)
            assert state.board_field() == board.sfen().split()[0]
            assert state.hands() == _hands(board)
