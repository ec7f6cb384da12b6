"""Perft: count the leaf nodes of the legal-move tree, the standard check of a move generator."""

from __future__ import annotations

import cshogi


def perft(board: cshogi.Board, depth: int) -> int:
    """Leaf nodes at `depth` plies from the position on `board` (bulk-counted at the last ply)."""
    if depth < 0:
        raise ValueError(f"perft depth must be >= 0, got {depth}")
    if depth == 0:
        return 1
    moves = list(board.legal_moves)
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        board.push(move)
        total += perft(board, depth - 1)
        board.pop()
    return total
