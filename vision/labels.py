"""Piece labels and square numbering shared by the reader, the renderer and the classifier.

Labels follow SFEN: uppercase is sente (the piece points towards the far side, rank a), lowercase gote, `+`
marks the promoted face. Squares are numbered in SFEN order: index 0 is 9a (top left seen from sente), index 8
is 1a, index 80 is 1i; `index = (rank - 1) * 9 + (9 - file)`.
"""

from __future__ import annotations

KINDS: tuple[str, ...] = ("K", "R", "B", "G", "S", "N", "L", "P", "+R", "+B", "+S", "+N", "+L", "+P")
"""The 14 piece kinds, sente's spelling."""

EMPTY = "empty"
PIECE_LABELS: tuple[str, ...] = (*KINDS, *(k.lower() for k in KINDS))
"""28 owner-and-kind labels: sente's 14 then gote's 14."""
SQUARE_LABELS: tuple[str, ...] = (*PIECE_LABELS, EMPTY)
"""The 29 classes a square can be."""
EMPTY_INDEX = SQUARE_LABELS.index(EMPTY)
"""The empty class's index (the last)."""

HAND_KINDS: tuple[str, ...] = ("R", "B", "G", "S", "N", "L", "P")
"""Kinds that can be in hand, in SFEN hand order."""

CSA_CODES: dict[str, str] = {
    "K": "OU", "R": "HI", "B": "KA", "G": "KI", "S": "GI", "N": "KE", "L": "KY", "P": "FU",
    "+R": "RY", "+B": "UM", "+S": "NG", "+N": "NK", "+L": "NY", "+P": "TO",
}  # fmt: skip
"""Kind to CSA piece code (the names of the piece-set artwork files)."""

RANKS = "abcdefghi"


def square_index(file: int, rank: int) -> int:
    """SFEN-order index of the square at file 1..9 and rank 1..9 (1 = a)."""
    if not (1 <= file <= 9 and 1 <= rank <= 9):
        raise ValueError(f"no square at file {file}, rank {rank}")
    return (rank - 1) * 9 + (9 - file)


def square_name(index: int) -> str:
    """USI name (`7g`) of an SFEN-order index."""
    if not 0 <= index < 81:
        raise ValueError(f"square index {index} out of range 0..80")
    rank, col = divmod(index, 9)
    return f"{9 - col}{RANKS[rank]}"


def is_sente(label: str) -> bool:
    """True for sente's labels (uppercase), False for gote's; ValueError for `empty`."""
    if label == EMPTY:
        raise ValueError("an empty square has no owner")
    return label.lstrip("+").isupper()


def kind_of(label: str) -> str:
    """The kind of a label in sente's spelling (`+p` -> `+P`)."""
    return label.upper()


def board_field_from_labels(labels: list[str]) -> str:
    """The SFEN board field for 81 labels in SFEN order."""
    if len(labels) != 81:
        raise ValueError(f"need 81 square labels, got {len(labels)}")
    rows = []
    for rank in range(9):
        row, gap = "", 0
        for label in labels[rank * 9 : rank * 9 + 9]:
            if label == EMPTY:
                gap += 1
                continue
            row += (str(gap) if gap else "") + label
            gap = 0
        rows.append(row + (str(gap) if gap else ""))
    return "/".join(rows)


def labels_from_board_field(field: str) -> list[str]:
    """81 labels in SFEN order from an SFEN board field."""
    labels: list[str] = []
    promoted = False
    for ch in field:
        if ch == "/":
            continue
        if ch == "+":
            promoted = True
        elif ch.isdigit():
            labels.extend([EMPTY] * int(ch))
        else:
            labels.append(("+" if promoted else "") + ch)
            promoted = False
    if len(labels) != 81:
        raise ValueError(f"SFEN board field covers {len(labels)} squares, not 81: {field!r}")
    return labels
