"""A plain, editable position (board squares, hands, side to move) for building and printing start positions.

Owns: SFEN text <-> `Position`, and the full piece set used to check piece counts (`00AL` in CSA). Readers of
board diagrams (KIF BOD, CSA `P1..P9`, JKF `initial.data`) fill a `Position`; writers print one. Whether the
position is playable is then checked once by `controller.rules.positions.board_from_sfen`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from controller.records.errors import RecordSyntaxError
from controller.records.notation import HAND_CODES, unpromote
from controller.rules.errors import PositionError
from controller.rules.positions import board_from_sfen
from controller.rules.types import Color

Square = tuple[int, int]
"""(file 1..9, rank 1..9): file 1 is sente's right, rank 1 is gote's back rank."""

FULL_SET: dict[str, int] = {"K": 2, "R": 2, "B": 2, "G": 4, "S": 4, "N": 4, "L": 4, "P": 18}
"""How many of each piece a complete set has (both sides together)."""


def _empty_hands() -> dict[Color, dict[str, int]]:
    return {Color.BLACK: {}, Color.WHITE: {}}


@dataclass
class Position:
    """A position being read or written.

    Attributes:
        board: occupied squares to (owner, piece code).
        hands: each side's pieces in hand, code to count.
        turn: the side to move.
    """

    board: dict[Square, tuple[Color, str]] = field(default_factory=dict)
    hands: dict[Color, dict[str, int]] = field(default_factory=_empty_hands)
    turn: Color = Color.BLACK

    @classmethod
    def from_sfen(cls, sfen: str) -> Position:
        """Parse a full SFEN (assumed valid, as `GameRecord.start_sfen` is)."""
        fields = sfen.split()
        position = cls(turn=Color(fields[1]))
        for rank, row in enumerate(fields[0].split("/"), start=1):
            file = 9
            promoted = ""
            for char in row:
                if char.isdigit():
                    file -= int(char)
                elif char == "+":
                    promoted = "+"
                else:
                    owner = Color.BLACK if char.isupper() else Color.WHITE
                    position.board[(file, rank)] = (owner, promoted + char.upper())
                    file -= 1
                    promoted = ""
        hand_text = fields[2] if len(fields) > 2 else "-"
        count = ""
        for char in "" if hand_text == "-" else hand_text:
            if char.isdigit():
                count += char
                continue
            owner = Color.BLACK if char.isupper() else Color.WHITE
            position.hands[owner][char.upper()] = int(count or "1")
            count = ""
        return position

    def to_sfen(self) -> str:
        """The full SFEN (move number 1)."""
        rows = []
        for rank in range(1, 10):
            row, empty = "", 0
            for file in range(9, 0, -1):
                piece = self.board.get((file, rank))
                if piece is None:
                    empty += 1
                    continue
                row += str(empty) if empty else ""
                empty = 0
                owner, code = piece
                row += code if owner is Color.BLACK else code.lower()
            rows.append(row + (str(empty) if empty else ""))
        hands = ""
        for owner in (Color.BLACK, Color.WHITE):
            for code in HAND_CODES:
                count = self.hands[owner].get(code, 0)
                letter = code if owner is Color.BLACK else code.lower()
                hands += (str(count) if count > 1 else "") + letter if count else ""
        return f"{'/'.join(rows)} {self.turn.value} {hands or '-'} 1"

    def piece_counts(self) -> dict[str, int]:
        """How many of each (unpromoted) piece kind the position holds, board and hands together."""
        counts: dict[str, int] = {}
        for _, code in self.board.values():
            counts[unpromote(code)] = counts.get(unpromote(code), 0) + 1
        for hand in self.hands.values():
            for code, count in hand.items():
                counts[code] = counts.get(code, 0) + count
        return counts

    def checked_sfen(self, *, line: int | None) -> str:
        """The SFEN after checking piece counts and playability; RecordSyntaxError naming the line otherwise."""
        for code, count in self.piece_counts().items():
            if count > FULL_SET[code]:
                raise RecordSyntaxError(
                    f"the position has {count} pieces of kind {code}, a set has {FULL_SET[code]}", line=line
                )
        sfen = self.to_sfen()
        try:
            board_from_sfen(sfen)
        except PositionError as exc:
            raise RecordSyntaxError(f"the starting position is not usable: {exc}", line=line) from exc
        return sfen
