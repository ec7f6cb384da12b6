"""Test helper: the same position and moves seen from the other side (colours swapped, board turned 180°)."""

from __future__ import annotations


def _swap(text: str) -> str:
    return text.swapcase()


def rotate_sfen(sfen: str) -> str:
    """The position with sente and gote exchanged (board turned, piece colours and side to move swapped)."""
    fields = sfen.split()
    rows = fields[0].split("/")
    turned = []
    for row in reversed(rows):
        tokens: list[str] = []
        i = 0
        while i < len(row):
            if row[i] == "+":
                tokens.append(row[i : i + 2])
                i += 2
            else:
                tokens.append(row[i])
                i += 1
        turned.append("".join(_swap(t) for t in reversed(tokens)))
    side = "w" if fields[1] == "b" else "b"
    hands = fields[2] if len(fields) > 2 else "-"
    return f"{'/'.join(turned)} {side} {_swap(hands) if hands != '-' else '-'} {fields[3] if len(fields) > 3 else 1}"


def _rotate_square(square: str) -> str:
    if square[0] not in "123456789" or square[1] not in "abcdefghi":
        return square
    return f"{10 - int(square[0])}{'abcdefghi'[8 - 'abcdefghi'.index(square[1])]}"


def rotate_move(usi: str) -> str:
    """The move mirrored through the board's centre (well-formed USI moves only)."""
    if len(usi) >= 4 and usi[1] == "*":
        return usi[:2] + _rotate_square(usi[2:4])
    if len(usi) >= 4 and usi[0].isdigit() and usi[2].isdigit():
        return _rotate_square(usi[0:2]) + _rotate_square(usi[2:4]) + usi[4:]
    return usi
