"""Game outcomes: mate, no legal moves, repetition, perpetual check (both sides), illegal moves."""

from __future__ import annotations

import pytest
from rules_rotation import rotate_move, rotate_sfen

from controller.rules.outcome import OutcomeKind, game_outcome
from controller.rules.positions import STARTPOS_SFEN, resolve_start
from controller.rules.types import Color

SHUFFLE = ["5i5h", "5a5b", "5h5i", "5b5a"]
ROOK_CHECKS = "8k/9/9/9/9/9/9/9/R3K4 b - 1"
ROOK_CYCLE = ["9a9b", "1b1a", "9b9a", "1a1b"]


def _both(sfen: str, moves: list[str], side: str) -> tuple[str, list[str]]:
    if side == "gote":
        return rotate_sfen(sfen), [rotate_move(m) for m in moves]
    return sfen, moves


def _flip(color: Color | None, side: str) -> Color | None:
    return color.opponent if (color is not None and side == "gote") else color


@pytest.mark.parametrize("side", ["sente", "gote"])
def test_checkmate(side: str) -> None:
    """It should find the mate and name the winner."""
    sfen, moves = _both("8k/9/8P/9/9/9/9/9/4K4 b G 1", ["G*1b"], side)
    outcome = game_outcome(sfen, moves)
    assert (outcome.kind, outcome.winner, outcome.ply) == (OutcomeKind.CHECKMATE, _flip(Color.BLACK, side), 1)


@pytest.mark.parametrize("side", ["sente", "gote"])
def test_no_legal_moves_without_check(side: str) -> None:
    """It should rule that a side with no legal move, not in check, loses."""
    sfen, _ = _both("8k/6G2/7G1/9/9/9/9/9/4K4 w - 1", [], side)
    outcome = game_outcome(sfen, [])
    assert (outcome.kind, outcome.winner) == (OutcomeKind.NO_LEGAL_MOVES, _flip(Color.BLACK, side))


def test_repetition_fourth_time_is_a_draw() -> None:
    """It should call sennichite on the fourth occurrence of the start position (ply 12)."""
    outcome = game_outcome(STARTPOS_SFEN, SHUFFLE * 3)
    assert (outcome.kind, outcome.winner, outcome.ply) == (OutcomeKind.REPETITION, None, 12)


def test_three_occurrences_are_still_ongoing() -> None:
    """It should keep the game going when a position has occurred only three times."""
    outcome = game_outcome(STARTPOS_SFEN, SHUFFLE * 2)
    assert (outcome.kind, outcome.ply) == (OutcomeKind.ONGOING, 8)


def test_repetition_stops_at_the_deciding_ply() -> None:
    """It should report the ply where the repetition happened and ignore later moves."""
    outcome = game_outcome(STARTPOS_SFEN, [*SHUFFLE * 3, "7g7f"])
    assert outcome.ply == 12
    assert "ignored" in outcome.detail


@pytest.mark.parametrize("side", ["sente", "gote"])
def test_perpetual_check_loses(side: str) -> None:
    """It should make the side that checked with every move lose."""
    sfen, moves = _both(ROOK_CHECKS, ["9i9a", "1a1b", *ROOK_CYCLE * 3], side)
    outcome = game_outcome(sfen, moves)
    assert outcome.kind == OutcomeKind.PERPETUAL_CHECK
    assert outcome.winner == _flip(Color.WHITE, side)
    assert outcome.ply == 13


@pytest.mark.parametrize("side", ["sente", "gote"])
def test_illegal_move_loses(side: str) -> None:
    """It should stop at an illegal move and give the game to the other side."""
    sfen, moves = _both(STARTPOS_SFEN, ["7g7f", "3c3d", "7f7d"], side)
    if side == "gote":
        sfen = rotate_sfen(STARTPOS_SFEN)
    outcome = game_outcome(sfen, moves)
    assert (outcome.kind, outcome.ply) == (OutcomeKind.ILLEGAL_MOVE, 3)
    assert outcome.winner == _flip(Color.WHITE, side)
    assert "cannot move" in outcome.detail


def test_handicap_start_white_moves_first() -> None:
    """It should accept a handicap start by name, with gote to move."""
    outcome = game_outcome(resolve_start("bishop"), ["5a4b", "7g7f"])
    assert (outcome.kind, outcome.ply) == (OutcomeKind.ONGOING, 2)
