"""Board setup planning: resets after real games, swaps that need a buffer, in-place fixes, count mismatches."""

from __future__ import annotations

import cshogi
import pytest

from controller.planning.errors import PlanningError
from controller.planning.model import HumanTask, Piece, SquareLoc, TransferKind
from controller.planning.planner import Capabilities, plan_move
from controller.planning.setup import plan_setup
from controller.planning.state import PhysicalState
from controller.rules.positions import HANDICAPS, STARTPOS_SFEN
from hardware.geometry import Side

BARE = Capabilities(flip_station=False, rotation_axis=False)
FULL = Capabilities(flip_station=True, rotation_axis=True)


def _played(game: list[str], caps: Capabilities) -> PhysicalState:
    board, state = cshogi.Board(), PhysicalState.from_sfen(STARTPOS_SFEN)
    for usi in game:
        plan_move(state, board, usi, caps)
        board.push_usi(usi)
    return state


@pytest.mark.parametrize("caps", [BARE, FULL])
def test_reset_after_real_games_restores_the_start(caps: Capabilities) -> None:
    """After each of 30 real games every piece is carried back (no collision on the way) and hands are empty."""
    with open("../shared/data/games/lishogi-500.usi", encoding="utf-8") as handle:
        games = [line.split() for line in handle][:30]
    for game in games:
        state = _played(game, caps)
        plan_setup(state, STARTPOS_SFEN, caps)
        assert state.board_field() == STARTPOS_SFEN.split()[0]
        assert not state.hands()
        assert state.flip_station_piece() is None


def test_swapped_rook_and_bishop_use_a_buffer_square() -> None:
    """Rook and bishop on each other's squares form a cycle: one goes to a free square first."""
    state = PhysicalState.from_sfen("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1R5B1/LNSGKGSNL b - 1")
    plan = plan_setup(state, STARTPOS_SFEN, BARE)
    moves = [(str(t.src), str(t.dst)) for t in plan.transfers]
    assert len(moves) == 3
    first_src, buffer = moves[0]
    assert buffer not in ("8h", "2h")
    assert moves[-1] == (buffer, "8h" if first_src == "2h" else "2h")
    assert state.board_field() == STARTPOS_SFEN.split()[0]


def test_three_cycle_of_lance_knight_silver() -> None:
    """Lance, knight and silver each on another's square (a 3-cycle) resolve through one buffer square."""
    source = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/SLNGKGSNL b - 1"
    state = PhysicalState.from_sfen(source)
    plan = plan_setup(state, STARTPOS_SFEN, BARE)
    assert len(plan.transfers) == 4
    assert state.board_field() == STARTPOS_SFEN.split()[0]


def test_setup_from_the_start_to_a_position_with_hands() -> None:
    """Pieces the target has in hand go to their owner's stand."""
    target = "lnsgkgsnl/1r5b1/pppppp1pp/9/9/9/PPPPPPP1P/1B5R1/LNSGKGSNL b Pp 1"
    state = PhysicalState.from_sfen(STARTPOS_SFEN)
    plan = plan_setup(state, target, BARE)
    assert {t.kind for t in plan.transfers} == {TransferKind.STORE}
    assert state.board_field() == target.split(maxsplit=1)[0]
    assert sum(state.hands().values()) == 2


def test_promoted_piece_in_place_is_turned_over() -> None:
    """A tokin on a pawn's start square needs no carrying: a person turns it over, or the flip station does."""
    source = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPP+PPPPP/1B5R1/LNSGKGSNL b - 1"
    bare = plan_setup(PhysicalState.from_sfen(source), STARTPOS_SFEN, BARE)
    assert [(t.kind, t.task, t.src) for t in bare.transfers] == [
        (TransferKind.HUMAN_ACTION, HumanTask.TURN_OVER, SquareLoc("5g"))
    ]
    state = PhysicalState.from_sfen(source)
    full = plan_setup(state, STARTPOS_SFEN, FULL)
    assert [t.kind for t in full.transfers] == [TransferKind.FLIP, TransferKind.MOVE]
    assert state.at(SquareLoc("5g")) == Piece("P", False, Side.BLACK)


def test_handicap_target_with_fewer_pieces_is_refused() -> None:
    """A target that needs other pieces than the board holds names the kind and the counts."""
    state = PhysicalState.from_sfen(STARTPOS_SFEN)
    with pytest.raises(PlanningError, match="R: have 2, need 1"):
        plan_setup(state, HANDICAPS["rook"].sfen, BARE)
