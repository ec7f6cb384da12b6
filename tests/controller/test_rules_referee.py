"""The referee: every illegal-move reason, for both sides, and the tricky pawn-drop cases."""

from __future__ import annotations

import pytest
from rules_rotation import rotate_move, rotate_sfen

from controller.rules.positions import STARTPOS_SFEN, board_from_sfen
from controller.rules.referee import Reason, check_move

CASES: list[tuple[str, str, str, Reason | None]] = [
    ("nifu", "4k4/9/9/9/9/9/4P4/9/4K4 b P 1", "P*5e", Reason.NIFU),
    ("nifu only a tokin on the file", "4k4/9/9/9/4+P4/9/9/9/4K4 b P 1", "P*5f", None),
    ("uchifuzume", "7lk/7p1/7G1/9/9/9/9/9/4K4 b P 1", "P*1b", Reason.UCHIFUZUME),
    ("uchifuzume, the capturer is pinned", "R6gk/7p1/7G1/9/9/9/9/9/4K4 b P 1", "P*1b", Reason.UCHIFUZUME),
    ("pawn-drop check that is not mate", "7lk/7p1/9/9/9/9/9/9/4K4 b P 1", "P*1b", None),
    ("dead pawn drop", "4k4/9/9/9/9/9/9/9/4K4 b PLN 1", "P*3a", Reason.DEAD_DROP),
    ("dead lance drop", "4k4/9/9/9/9/9/9/9/4K4 b PLN 1", "L*3a", Reason.DEAD_DROP),
    ("dead knight drop", "4k4/9/9/9/9/9/9/9/4K4 b PLN 1", "N*3b", Reason.DEAD_DROP),
    ("knight drop on the third rank", "4k4/9/9/9/9/9/9/9/4K4 b PLN 1", "N*3c", None),
    ("pawn must promote", "k8/4P4/9/9/9/9/9/9/4K4 b - 1", "5b5a", Reason.FORCED_PROMOTION),
    ("pawn promotes", "k8/4P4/9/9/9/9/9/9/4K4 b - 1", "5b5a+", None),
    ("knight must promote", "k8/9/9/6N2/9/9/9/9/4K4 b - 1", "3d2b", Reason.FORCED_PROMOTION),
    ("lance must promote", "k8/9/9/6L2/9/9/9/9/4K4 b - 1", "3d3a", Reason.FORCED_PROMOTION),
    ("lance may stay unpromoted on rank b", "k8/9/9/6L2/9/9/9/9/4K4 b - 1", "3d3b", None),
    ("pinned gold", "k3r4/9/9/9/9/9/9/4G4/4K4 b - 1", "5h4h", Reason.SELF_CHECK),
    ("king walks into check", "k2r5/9/9/9/9/9/9/9/4K4 b - 1", "5i6i", Reason.SELF_CHECK),
    ("ignoring a check", "k3r4/9/9/9/9/9/9/9/4K3P b - 1", "1i1h", Reason.SELF_CHECK),
    ("onto an own piece", STARTPOS_SFEN, "6i5i", Reason.OCCUPIED),
    ("drop on an occupied square", "4k4/9/9/9/9/9/4P4/9/4K4 b G 1", "G*5g", Reason.OCCUPIED),
    ("pawn two squares", STARTPOS_SFEN, "7g7e", Reason.UNREACHABLE),
    ("blocked bishop", STARTPOS_SFEN, "8h3c", Reason.UNREACHABLE),
    ("from an empty square", STARTPOS_SFEN, "5e5d", Reason.UNREACHABLE),
    ("moving the opponent's piece", STARTPOS_SFEN, "3c3d", Reason.UNREACHABLE),
    ("gold cannot promote", "k8/9/4G4/9/9/9/9/9/4K4 b - 1", "5c5b+", Reason.UNREACHABLE),
    ("promotion outside the zone", STARTPOS_SFEN, "7g7f+", Reason.UNREACHABLE),
    ("nothing in hand", STARTPOS_SFEN, "P*5e", Reason.NOT_IN_HAND),
    ("opening move", STARTPOS_SFEN, "7g7f", None),
    ("text", STARTPOS_SFEN, "hello", Reason.MALFORMED),
    ("short", STARTPOS_SFEN, "7g7", Reason.MALFORMED),
    ("off the board", STARTPOS_SFEN, "P*5j", Reason.MALFORMED),
    ("unknown piece", STARTPOS_SFEN, "K*5e", Reason.MALFORMED),
]


@pytest.mark.parametrize("side", ["sente", "gote"])
@pytest.mark.parametrize(("name", "sfen", "move", "reason"), CASES, ids=[c[0] for c in CASES])
def test_reason(name: str, sfen: str, move: str, reason: Reason | None, side: str) -> None:
    """It should give the expected verdict and reason, for either side (the position turned around)."""
    if side == "gote":
        sfen, move = rotate_sfen(sfen), rotate_move(move)
    verdict = check_move(board_from_sfen(sfen), move)
    assert verdict.legal is (reason is None), verdict.explanation
    assert verdict.reason == reason
    assert verdict.explanation


def test_explanation_names_the_file_for_nifu() -> None:
    """It should explain nifu in a player's words, naming the file."""
    verdict = check_move(board_from_sfen("4k4/9/9/9/9/9/4P4/9/4K4 b P 1"), "P*5e")
    assert "file 5" in verdict.explanation


def test_board_is_unchanged_by_a_check() -> None:
    """It should leave the board as it was, legal or not."""
    board = board_from_sfen(STARTPOS_SFEN)
    for move in ("7g7f", "7g7e", "P*5e", "junk"):
        check_move(board, move)
    assert board.sfen() == STARTPOS_SFEN
