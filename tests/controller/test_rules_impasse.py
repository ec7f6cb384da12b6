"""Entering-king declarations (24 and 27 points) and the agreement count."""

from __future__ import annotations

import cshogi
import pytest
from rules_rotation import rotate_sfen

from controller.rules.impasse import ImpasseRule, count, declare
from controller.rules.positions import STARTPOS_SFEN, board_from_sfen

CAMP_28 = "RBBRGG3/GG2K4/SS7/9/9/9/9/9/8k b 2P 1"
"""Sente's king in the camp with 10 pieces: 26 points on the board + 2 pawns in hand = 28."""


def _declare(sfen: str, rule: int) -> tuple[str, int, dict[str, bool]]:
    result = declare(board_from_sfen(sfen), ImpasseRule(rule))
    return result.result, result.points, result.conditions


@pytest.mark.parametrize(
    ("sfen", "rule", "expected", "points"),
    [
        (CAMP_28, 27, "win", 28),
        (CAMP_28, 24, "draw", 28),
        (CAMP_28.replace("2P", "P"), 27, "lose", 27),
        (CAMP_28.replace("2P", "5P"), 24, "win", 31),
        (CAMP_28.replace("2P", "4P"), 24, "draw", 30),
        ("RBBRGG3/GG2K4/SS7/9/9/9/9/9/8k b - 1", 24, "draw", 26),
        ("RBBRGG3/GG2K4/S8/9/9/9/9/9/8k b 2P 1", 24, "lose", 27),
    ],
)
def test_sente_declaration(sfen: str, rule: int, expected: str, points: int) -> None:
    """It should count sente's points and rule win/draw/lose by the chosen rule."""
    result, got_points, _ = _declare(sfen, rule)
    assert (result, got_points) == (expected, points)


def test_gote_needs_one_point_less_under_27() -> None:
    """It should let gote win with 27 points under the 27-point rule (sente needs 28)."""
    gote_27 = rotate_sfen(CAMP_28.replace("2P", "P"))
    assert _declare(gote_27, 27)[:2] == ("win", 27)
    assert _declare(rotate_sfen(CAMP_28.replace("2P", "")), 27)[:2] == ("lose", 26)


def test_nine_pieces_in_the_camp_fail() -> None:
    """It should fail the declaration with nine pieces in the camp, whatever the points."""
    result, _, conditions = _declare("RBBRGG3/GG2K4/S8/9/9/9/9/9/8k b 9P 1", 27)
    assert result == "lose"
    assert conditions["ten_pieces_in_camp"] is False


def test_declaring_in_check_fails() -> None:
    """It should fail the declaration while the declarer is in check."""
    result, _, conditions = _declare("RBBRGG3/GG2K4/SS7/9/9/9/9/9/4r3k b 2P 1", 27)
    assert result == "lose"
    assert conditions["not_in_check"] is False


def test_king_outside_the_camp_fails() -> None:
    """It should fail when the king has not entered."""
    assert _declare(STARTPOS_SFEN, 27)[0] == "lose"


def test_agrees_with_cshogi_where_cshogi_judges() -> None:
    """It should agree with cshogi's own 27-point test on the sample positions."""
    for sfen in (CAMP_28, CAMP_28.replace("2P", "P"), rotate_sfen(CAMP_28)):
        board = board_from_sfen(sfen)
        ours = declare(board, ImpasseRule.POINTS_27).result == "win"
        assert ours == bool(board.is_nyugyoku(cshogi.LAW_27))


@pytest.mark.parametrize(
    ("sfen", "rule", "expected", "points"),
    [
        (STARTPOS_SFEN, 24, "draw", {"b": 27, "w": 27}),
        (STARTPOS_SFEN, 27, "draw", {"b": 27, "w": 27}),
        ("4k4/9/9/9/9/9/9/9/4K4 b 2R2B3Pg4s4n4l15p 1", 24, "w_wins", {"b": 23, "w": 31}),
        ("4k4/9/9/9/9/9/9/9/4K4 b 2R2B6P4g4s4n4l12p 1", 24, "draw", {"b": 26, "w": 28}),
        ("4k4/9/9/9/9/9/9/9/4K4 b 2R2B6P4g4s4n4l12p 1", 27, "w_wins", {"b": 26, "w": 28}),
        ("4K4/9/9/9/9/9/9/9/4k4 b 2r2b7p4G4S4N4L11P 1", 27, "draw", {"b": 27, "w": 27}),
    ],
)
def test_count(sfen: str, rule: int, expected: str, points: dict[str, int]) -> None:
    """It should count both sides (promotions undone, king 0) and apply the threshold."""
    result = count(board_from_sfen(sfen), ImpasseRule(rule))
    assert (result.result, result.points) == (expected, points)


def test_count_undoes_promotions() -> None:
    """It should count a dragon as a rook and a tokin as a pawn."""
    plain = count(board_from_sfen("4k4/9/9/9/4R4/4P4/9/9/4K4 b - 1"), ImpasseRule.POINTS_24)
    promoted = count(board_from_sfen("4k4/9/9/9/4+R4/4+P4/9/9/4K4 b - 1"), ImpasseRule.POINTS_24)
    assert plain.points["b"] == promoted.points["b"] == 6
