"""Pieces moved onto empty squares for calibration examples (vision.relocate)."""

from __future__ import annotations

import numpy as np

from vision.relocate import move_pieces, square_box
from vision.squares import CELL, MARGIN


def _board() -> np.ndarray:
    """A rectified board whose every square is filled with its own grey level (square index + 10)."""
    side = round(9 * CELL + 2 * MARGIN * CELL)
    board = np.zeros((side, side, 3), np.uint8)
    for square in range(81):
        board[square_box(square)] = square + 10
    return board


def test_each_piece_lands_on_an_empty_square_in_its_middle_only() -> None:
    """Every piece is moved twice, onto distinct empty squares per copy: the target's middle becomes the piece's,
    its edge (grid lines, rim) stays the target's, and no other square changes."""
    board, pieces, empties = _board(), [0, 8, 40], [30, 31, 32, 33]
    copies = move_pieces(board, pieces, empties, np.random.default_rng(1))
    moved = sorted(s for _, _, sources in copies for s in sources)
    assert moved == sorted(pieces * 2)
    for copy, targets, sources in copies:
        assert len(set(targets)) == len(targets) and set(targets) <= set(empties)
        for target, source in zip(targets, sources, strict=True):
            cell = copy[square_box(target)]
            middle = cell.shape[0] // 2
            assert cell[middle, middle, 0] == source + 10
            assert cell[0, 0, 0] == target + 10
        untouched = [s for s in range(81) if s not in targets]
        assert all(np.array_equal(copy[square_box(s)], board[square_box(s)]) for s in untouched)


def test_nothing_to_move_or_nowhere_to_move_gives_no_copy() -> None:
    """No pieces, or no empty square: no copies."""
    rng = np.random.default_rng(2)
    assert move_pieces(_board(), [], [30], rng) == [] and move_pieces(_board(), [0], [], rng) == []


def test_more_pieces_than_empty_squares_take_several_copies() -> None:
    """Five pieces and two empty squares: each round needs three copies."""
    copies = move_pieces(_board(), [0, 1, 2, 3, 4], [40, 41], np.random.default_rng(3), rounds=1)
    assert [len(targets) for _, targets, _ in copies] == [2, 2, 1]
