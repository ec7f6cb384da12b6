"""VirtualBoard: the gantry's head events move the simulated pieces, and the scene draws what is there."""

from __future__ import annotations

import dataclasses

import pytest

from controller.reconcile.labels import square_index
from controller.sim import InGripper, Loose, SimError, VirtualBoard
from hardware.geometry import BoardGeometry, Side
from hardware.settings import load_settings

GEOMETRY = load_settings(None).geometry
SFEN = "4k4/9/9/9/9/9/2P6/9/4K4 b - 1"


def _at(geometry: BoardGeometry, square: str, z: float | None = None) -> tuple[float, float, float]:
    x, y = geometry.square_xy(square)
    return x, y, geometry.pick_z_mm if z is None else z


def _transfer(board: VirtualBoard, src: tuple[float, float, float], dst: tuple[float, float, float]) -> None:
    board.on_head_event("move", *src)
    board.on_head_event("grip", *src)
    board.on_head_event("move", *dst)
    board.on_head_event("release", *dst)


def test_grip_and_release_move_a_piece() -> None:
    """A grip over 7g lifts the pawn into the gripper; a release over 7f sets it down there."""
    board = VirtualBoard(GEOMETRY, SFEN, seed=1)
    board.on_head_event("grip", *_at(GEOMETRY, "7g"))
    labels, _ = board.ground_truth()
    assert labels[square_index("7g")] == "empty"
    assert any(isinstance(p.place, InGripper) for p in board.pieces().values())
    assert any(piece.lifted for piece in board.scene().pieces)
    board.on_head_event("release", *_at(GEOMETRY, "7f"))
    labels, _ = board.ground_truth()
    assert labels[square_index("7f")] == "P"
    assert not board.misses and not board.lost


def test_release_sits_slightly_off_centre() -> None:
    """A piece set down by the gantry is off centre by the head's error plus a little, never by much."""
    board = VirtualBoard(GEOMETRY, SFEN, seed=2)
    x, y, z = _at(GEOMETRY, "7f")
    _transfer(board, _at(GEOMETRY, "7g"), (x + 1.5, y, z))
    placed = next(p for p in board.scene().pieces if p.square == square_index("7f"))
    assert 0.0 < abs(placed.dx) < 0.14 and abs(placed.dy) < 0.14


def test_capture_to_a_stand_slot() -> None:
    """A gote pawn carried to sente's pawn slot counts in sente's hand; turned by the axis it is a regular
    stand piece for the renderer, unturned it is drawn where it lies."""
    sfen = "4k4/9/9/9/9/2p6/2P6/9/4K4 b - 1"
    for turn in (False, True):
        board = VirtualBoard(GEOMETRY, sfen, seed=3)
        board.on_head_event("grip", *_at(GEOMETRY, "7f"))
        if turn:
            board.on_head_event("half_turn", *_at(GEOMETRY, "7f", GEOMETRY.travel_z_mm))
        slot = GEOMETRY.slot_xy(Side.BLACK, "P", 0)
        board.on_head_event("release", *slot, GEOMETRY.pick_z_mm)
        labels, hands = board.ground_truth()
        assert labels[square_index("7f")] == "empty" and hands == {"P": 1}
        assert board.scene().hands == ({"P": 1} if turn else {})


def test_grip_from_a_stand_slot_drops_a_piece() -> None:
    """A piece in hand is gripped from its slot and released on a square (a drop)."""
    board = VirtualBoard(GEOMETRY, "4k4/9/9/9/9/9/9/9/4K4 b G 1", seed=4)
    assert board.ground_truth()[1] == {"G": 1}
    _transfer(board, (*GEOMETRY.slot_xy(Side.BLACK, "G", 0), GEOMETRY.pick_z_mm), _at(GEOMETRY, "5e"))
    labels, hands = board.ground_truth()
    assert labels[square_index("5e")] == "G" and hands == {}


def test_flip_station_turns_a_piece_over() -> None:
    """Set down on the flip station and picked up again, a pawn comes back as a tokin."""
    geometry = dataclasses.replace(GEOMETRY, flip_station_uv=(-60.0, 200.0))
    board = VirtualBoard(geometry, SFEN, seed=5)
    station = (*geometry.flip_station_xy(), geometry.pick_z_mm)
    _transfer(board, _at(geometry, "7g"), station)
    assert any(piece.label == "+P" for piece in board.pieces().values())
    _transfer(board, station, _at(geometry, "7c"))
    assert board.ground_truth()[0][square_index("7c")] == "+P"


def test_grip_over_nothing_is_a_miss() -> None:
    """A grip over an empty square (or too high) takes nothing and is recorded as a miss."""
    board = VirtualBoard(GEOMETRY, SFEN, seed=6)
    before = board.ground_truth()
    board.on_head_event("grip", *_at(GEOMETRY, "5e"))
    board.on_head_event("grip", *_at(GEOMETRY, "7g", GEOMETRY.travel_z_mm))
    board.on_head_event("release", *_at(GEOMETRY, "5e"))
    assert len(board.misses) == 2
    assert board.ground_truth() == before


def test_release_over_nothing_loses_the_piece() -> None:
    """Released between squares or onto an occupied one, the piece lies loose and is reported lost."""
    board = VirtualBoard(GEOMETRY, SFEN, seed=7)
    x, y, z = _at(GEOMETRY, "7f")
    _transfer(board, _at(GEOMETRY, "7g"), (x + GEOMETRY.file_spacing_mm / 2, y, z))
    _transfer(board, _at(GEOMETRY, "5a"), _at(GEOMETRY, "5i"))
    assert [lost.label for lost in board.lost] == ["P", "k"]
    assert sum(isinstance(p.place, Loose) for p in board.pieces().values()) == 2
    labels, _ = board.ground_truth()
    assert labels[square_index("5i")] == "K" and labels.count("empty") == 80


def test_reset_drops_the_held_piece() -> None:
    """A controller reset while carrying drops the piece where the head is (on a square: it lands there)."""
    board = VirtualBoard(GEOMETRY, SFEN, seed=8)
    board.on_head_event("grip", *_at(GEOMETRY, "7g"))
    board.on_head_event("reset", *_at(GEOMETRY, "7f"))
    assert board.ground_truth()[0][square_index("7f")] == "P"


def test_turn_over_in_place_promotes_and_demotes() -> None:
    """A person turning the pawn on 7g over shows a tokin on the same spot; turning it again shows the pawn."""
    board = VirtualBoard(GEOMETRY, SFEN, seed=7)
    square = square_index("7g")
    before = next(p for p in board.scene().pieces if p.square == square)
    assert board.turn_over(square) == "+P"
    after = next(p for p in board.scene().pieces if p.square == square)
    assert after.label == "+P" and (after.dx, after.dy, after.angle_deg) == (before.dx, before.dy, before.angle_deg)
    assert board.ground_truth()[0][square] == "+P"
    assert board.turn_over(square) == "P"


def test_turn_over_refuses_a_king_or_an_empty_square() -> None:
    """A king has no other face, and an empty square has nothing to turn: both are refused."""
    board = VirtualBoard(GEOMETRY, SFEN, seed=8)
    for name in ("5i", "5e"):
        with pytest.raises(SimError):
            board.turn_over(square_index(name))
    assert board.ground_truth()[0][square_index("5i")] == "K"


def test_turn_over_all_flips_every_piece_but_kings_and_golds() -> None:
    """The calibration's second picture: every piece on the board turned over where it lies."""
    board = VirtualBoard(GEOMETRY, "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", seed=9)
    turned = board.turn_over_all()
    labels, _ = board.ground_truth()
    assert len(turned) == 40 - 2 - 4
    assert labels[square_index("8h")] == "+B" and labels[square_index("2b")] == "+b"
    assert labels[square_index("5a")] == "k" and labels[square_index("6i")] == "G"
    assert labels[square_index("1a")] == "+l"
