"""Follows the position through a record with cshogi, so readers can check and writers can describe moves.

Owns: playing a record's moves with exact legality (`move in set(board.legal_moves)`; cshogi's `push_usi` and
`is_legal` accept dead drops), the facts a notation needs about a move (moving piece, capture, whether it
could have promoted, `同`), and the move candidates that KI2's relative notation chooses between.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import cshogi

from controller.records.errors import IllegalRecordMoveError
from controller.records.notation import CSHOGI_HAND_ORDER, CSHOGI_TYPE_CODES, square_of_usi, usi_square
from controller.rules.referee import check_move
from controller.rules.types import Color

Square = tuple[int, int]
_SLIDERS = frozenset({"L", "B", "R", "+B", "+R"})
_USI = re.compile(r"^(?:[1-9][a-i][1-9][a-i]\+?|[PLNSGBR]\*[1-9][a-i])$")


@dataclass(frozen=True)
class MoveFacts:
    """What notations say about one move.

    Attributes:
        usi: the move in USI.
        turn: the side making it.
        piece: the moving piece's code before the move (the dropped piece for a drop).
        src: the origin square, or None for a drop.
        dst: the destination square.
        promotion: whether the piece promotes.
        optional_promotion: whether both the promoting and the non-promoting move are legal.
        same: whether `dst` is the previous move's destination (KIF `同`).
        captured: the code of the captured piece (as it stood on the board), or None.
    """

    usi: str
    turn: Color
    piece: str
    src: Square | None
    dst: Square
    promotion: bool
    optional_promotion: bool
    same: bool
    captured: str | None


def _index(square: Square) -> int:
    return (square[0] - 1) * 9 + square[1] - 1


def _square(index: int) -> Square:
    return index // 9 + 1, index % 9 + 1


class Tracker:
    """A cshogi board following a record from its start position."""

    def __init__(self, start_sfen: str) -> None:
        self.board = cshogi.Board(start_sfen)
        self.last_dst: Square | None = None
        self.ply = 0
        self._legal: set[int] | None = None

    @property
    def turn(self) -> Color:
        """The side to move."""
        return Color.from_cshogi(self.board.turn)

    def legal(self) -> set[int]:
        """The legal moves of the current position (cached until the next move)."""
        if self._legal is None:
            self._legal = set(self.board.legal_moves)
        return self._legal

    def piece_at(self, square: Square) -> tuple[Color, str] | None:
        """The owner and code of the piece on `square`, or None when empty."""
        piece = self.board.piece(_index(square))
        if piece == 0:
            return None
        owner = Color.BLACK if piece < 16 else Color.WHITE
        return owner, CSHOGI_TYPE_CODES[piece & 15]

    def is_legal(self, usi: str) -> bool:
        """Whether the USI move is legal here (exact, unlike cshogi's `is_legal`)."""
        move = self.board.move_from_usi(usi)
        return move != 0 and move in self.legal()

    def facts(self, usi: str) -> MoveFacts:
        """Describe a legal move of the current position (the board is not changed)."""
        promotion = usi.endswith("+")
        dst = square_of_usi(usi[2:4])
        if usi[1] == "*":
            src, piece = None, usi[0]
        else:
            src = square_of_usi(usi[0:2])
            found = self.piece_at(src)
            piece = found[1] if found else "?"
        alternative = usi[:-1] if promotion else usi + "+"
        target = self.piece_at(dst)
        return MoveFacts(
            usi=usi,
            turn=self.turn,
            piece=piece,
            src=src,
            dst=dst,
            promotion=promotion,
            optional_promotion=src is not None and self.is_legal(alternative),
            same=dst == self.last_dst,
            captured=target[1] if target else None,
        )

    def play(self, usi: str, *, line: int | None = None) -> None:
        """Check and play the next move of the record.

        Raises:
            IllegalRecordMoveError: naming the ply, the move and why it is illegal.
        """
        move = self.board.move_from_usi(usi) if _USI.match(usi) else 0
        legal = self._legal if self._legal is not None else self.board.legal_moves
        if move == 0 or move not in legal:
            verdict = check_move(self.board, usi)
            side = "sente" if self.turn is Color.BLACK else "gote"
            raise IllegalRecordMoveError(
                f"{side}'s {usi} is illegal: {verdict.explanation}", ply=self.ply + 1, line=line
            )
        self.board.push(move)
        self.ply += 1
        self.last_dst = square_of_usi(usi[2:4])
        self._legal = None

    def candidates(self, dst: Square, piece: str) -> list[MoveFacts]:
        """Every legal move of a `piece` (its code before moving) to `dst`, board moves and drops, described."""
        found = []
        if piece in CSHOGI_HAND_ORDER and self.is_legal(drop_usi(piece, dst)):
            found.append(self.facts(drop_usi(piece, dst)))
        wanted = CSHOGI_TYPE_CODES.index(piece) + (16 if self.board.turn else 0)
        slider = piece in _SLIDERS
        for index, on_square in enumerate(self.board.pieces):
            if on_square != wanted:
                continue
            src = _square(index)
            if not slider and max(abs(src[0] - dst[0]), abs(src[1] - dst[1])) > 2:
                continue  # a stepping piece (knights included) only reaches squares within two steps
            for promotion in (False, True):
                usi = board_usi(src, dst, promotion)
                if self.is_legal(usi):
                    found.append(self.facts(usi))
        return found


def drop_usi(piece: str, dst: Square) -> str:
    """`P*5e` for a pawn dropped on (5, 5)."""
    return f"{piece}*{usi_square(*dst)}"


def board_usi(src: Square, dst: Square, promotion: bool) -> str:
    """`7g7f`, `8h2b+`."""
    return usi_square(*src) + usi_square(*dst) + ("+" if promotion else "")


def square_from_index(index: int) -> Square:
    """cshogi's square index (0 = 1a) to (file, rank)."""
    return _square(index)
