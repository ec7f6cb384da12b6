"""A plain, mutable view of an SFEN position, for the questions cshogi does not answer directly.

Owns: parsing an SFEN into squares and hands, applying a move without legality checks, and writing SFEN back.
Used to ask "what would this move leave behind?" (is the mover's king attacked, is a pawn drop mate).
Squares are USI names (`7g`); pieces are SFEN letters (`+P`, `k`).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

FILES = "987654321"
RANKS = "abcdefghi"
HAND_ORDER = "RBGSNLP"
_DROP = re.compile(r"^([PLNSGBR])\*([1-9][a-i])$")
_BOARD_MOVE = re.compile(r"^([1-9][a-i])([1-9][a-i])(\+?)$")


@dataclass
class Placement:
    """Pieces on squares, pieces in hand and the side to move.

    Attributes:
        squares: square name to SFEN piece letter(s); empty squares are absent.
        hands: per side (`b`/`w`), counts of kinds in hand (uppercase letters).
        side: `b` or `w`.
    """

    squares: dict[str, str] = field(default_factory=dict)
    hands: dict[str, Counter[str]] = field(default_factory=lambda: {"b": Counter(), "w": Counter()})
    side: str = "b"

    @classmethod
    def from_sfen(cls, sfen: str) -> Placement:
        """Parse an SFEN already validated by `positions.board_from_sfen`."""
        fields = sfen.split()
        placement = cls(side=fields[1])
        for rank, row in zip(RANKS, fields[0].split("/"), strict=True):
            file_index, prefix = 0, ""
            for ch in row:
                if ch.isdigit():
                    file_index += int(ch)
                elif ch == "+":
                    prefix = "+"
                else:
                    placement.squares[f"{FILES[file_index]}{rank}"] = prefix + ch
                    file_index, prefix = file_index + 1, ""
        hands = fields[2] if len(fields) > 2 else "-"
        for count, letter in re.findall(r"(\d*)([RBGSNLPrbgsnlp])", hands if hands != "-" else ""):
            owner = "b" if letter.isupper() else "w"
            placement.hands[owner][letter.upper()] += int(count or 1)
        return placement

    def to_sfen(self, move_number: int = 1) -> str:
        """The position as SFEN."""
        rows = []
        for rank in RANKS:
            row, gap = "", 0
            for file in FILES:
                piece = self.squares.get(f"{file}{rank}")
                if piece is None:
                    gap += 1
                    continue
                row += (str(gap) if gap else "") + piece
                gap = 0
            rows.append(row + (str(gap) if gap else ""))
        return f"{'/'.join(rows)} {self.side} {self.hand_field()} {move_number}"

    def hand_field(self) -> str:
        """The SFEN hands field (`-` when both are empty)."""
        text = ""
        for owner in ("b", "w"):
            for kind in HAND_ORDER:
                n = self.hands[owner][kind]
                letter = kind if owner == "b" else kind.lower()
                text += "" if n == 0 else (letter if n == 1 else f"{n}{letter}")
        return text or "-"

    def owner_of(self, square: str) -> str | None:
        """`b`, `w`, or None for an empty square."""
        piece = self.squares.get(square)
        if piece is None:
            return None
        return "b" if piece[-1].isupper() else "w"

    def apply(self, usi: str) -> None:
        """Play a syntactically valid USI move for the side to move, with no legality checks."""
        mover = self.side
        drop = _DROP.match(usi)
        if drop:
            kind, to = drop.groups()
            self.hands[mover][kind] -= 1
            self.squares[to] = kind if mover == "b" else kind.lower()
        else:
            match = _BOARD_MOVE.match(usi)
            if match is None:
                raise ValueError(f"not a USI move: {usi!r}")
            src, to, promote = match.groups()
            piece = self.squares.pop(src)
            captured = self.squares.get(to)
            if captured is not None:
                self.hands[mover][captured[-1].upper()] += 1
            self.squares[to] = ("+" + piece) if promote else piece
        self.side = "w" if mover == "b" else "b"


def parse_usi(usi: str) -> tuple[str | None, str, str | None, bool] | None:
    """Split a USI move into (from square or None, to square, drop kind or None, promote), or None if malformed."""
    drop = _DROP.match(usi)
    if drop:
        return None, drop.group(2), drop.group(1), False
    match = _BOARD_MOVE.match(usi)
    if match:
        return match.group(1), match.group(2), None, bool(match.group(3))
    return None
