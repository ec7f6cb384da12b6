"""Perft: the move generator against the published node counts."""

from __future__ import annotations

import pytest

from controller.rules.perft import perft
from controller.rules.positions import HANDICAPS, STARTPOS_SFEN, board_from_sfen

MATSURI = "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1"


@pytest.mark.parametrize(("depth", "nodes"), [(1, 30), (2, 900), (3, 25_470), (4, 719_731)])
def test_startpos(depth: int, nodes: int) -> None:
    """It should match the published counts from the start position."""
    assert perft(board_from_sfen(STARTPOS_SFEN), depth) == nodes


@pytest.mark.parametrize(("depth", "nodes"), [(1, 207), (2, 28_684), (3, 4_809_015)])
def test_matsuri(depth: int, nodes: int) -> None:
    """It should match the published counts from the 'matsuri' position."""
    assert perft(board_from_sfen(MATSURI), depth) == nodes


def test_every_handicap_start_is_usable() -> None:
    """It should generate moves for gote first in every handicap start."""
    for handicap in HANDICAPS.values():
        board = board_from_sfen(handicap.sfen)
        assert perft(board, 1) > 0, handicap.name
        assert board.turn == (0 if handicap.name == "even" else 1)
