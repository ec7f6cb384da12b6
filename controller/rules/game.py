"""Replaying move lists with checked legality, and the position history a game needs (repetition keys).

Owns: turning (start position, USI moves) into a cshogi board, move by move, refusing the first illegal move
with its ply and reason.
"""

from __future__ import annotations

from collections.abc import Iterable

import cshogi

from controller.rules.errors import IllegalMoveError
from controller.rules.referee import check_move, legal_usi_moves


def push_checked(board: cshogi.Board, usi: str, ply: int | None = None) -> int:
    """Play `usi` on `board` if it is legal; returns the cshogi move.

    Raises:
        IllegalMoveError: with the reason code and a sentence; the board is unchanged.
    """
    if usi not in legal_usi_moves(board):
        verdict = check_move(board, usi)
        where = f"ply {ply}: " if ply is not None else ""
        raise IllegalMoveError(f"{where}{verdict.explanation}", usi=usi, reason=str(verdict.reason), ply=ply)
    move: int = board.move_from_usi(usi)
    board.push(move)
    return move


def replay(board: cshogi.Board, moves: Iterable[str], first_ply: int = 1) -> cshogi.Board:
    """Play `moves` on `board` in place (each checked) and return it."""
    for offset, usi in enumerate(moves):
        push_checked(board, usi, ply=first_ply + offset)
    return board


def position_key(board: cshogi.Board) -> str:
    """Board, hands and side to move: the identity used for repetition (the move number is left out)."""
    return " ".join(board.sfen().split()[:3])
