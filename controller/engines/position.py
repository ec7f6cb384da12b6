"""The position an engine is asked about: a start SFEN plus the moves played since, checked for legality.

Owns: the `position ...` command text and the legality check of an engine's answer (cshogi `legal_moves`, via
`controller.rules`), so that an engine can never put an illegal move into the game.
"""

from __future__ import annotations

from dataclasses import dataclass

import cshogi

from controller.rules.game import replay
from controller.rules.positions import STARTPOS_SFEN, board_from_sfen
from controller.rules.referee import legal_usi_moves


@dataclass(frozen=True)
class EnginePosition:
    """A start position and the moves played from it.

    Attributes:
        start_sfen: the starting position (full SFEN); the even start is sent as `startpos`.
        moves: USI moves played since the start, in order.
    """

    start_sfen: str = STARTPOS_SFEN
    moves: tuple[str, ...] = ()

    def command(self) -> str:
        """The `position ...` line."""
        start = "startpos" if self.start_sfen == STARTPOS_SFEN else f"sfen {self.start_sfen}"
        if self.moves:
            return f"position {start} moves {' '.join(self.moves)}"
        return f"position {start}"

    def push(self, *moves: str) -> EnginePosition:
        """This position with `moves` appended (not checked here; `board()` checks)."""
        return EnginePosition(self.start_sfen, (*self.moves, *moves))

    def board(self) -> cshogi.Board:
        """A cshogi board of the position.

        Raises:
            PositionError: the start SFEN is unusable.
            IllegalMoveError: one of the moves is illegal (with its ply).
        """
        return replay(board_from_sfen(self.start_sfen), self.moves)

    def black_to_move(self) -> bool:
        """True when sente (black) is to move."""
        return bool(self.board().turn == cshogi.BLACK)


def legal_moves(board: cshogi.Board) -> frozenset[str]:
    """The legal moves on `board` as USI strings."""
    return frozenset(legal_usi_moves(board))
