"""Square labels and positions as the reconciler sees them: 81 label indices in SFEN order plus 14 hand counts.

Owns: the copy of the reader's label order (kept identical to `vision/labels.py` `SQUARE_LABELS`, which the
controller may not import), the mapping between cshogi's squares and pieces and those indices, and the effect
of one cshogi move on the labels and hands (so candidate positions are scored without playing every move).
"""

from __future__ import annotations

from collections.abc import Mapping

import cshogi
import numpy as np
import numpy.typing as npt

from controller.rules.referee import KIND_NAMES, SIDE_NAMES

KINDS: tuple[str, ...] = ("K", "R", "B", "G", "S", "N", "L", "P", "+R", "+B", "+S", "+N", "+L", "+P")
EMPTY = "empty"
SQUARE_LABELS: tuple[str, ...] = (*KINDS, *(k.lower() for k in KINDS), EMPTY)
"""The 29 columns of an observation's probabilities, in the reader's order (copy of vision.labels)."""
N_LABELS = len(SQUARE_LABELS)
EMPTY_INDEX = SQUARE_LABELS.index(EMPTY)
LABEL_INDEX: dict[str, int] = {label: i for i, label in enumerate(SQUARE_LABELS)}

OCCUPANCY: npt.NDArray[np.int64] = np.array([0] * 14 + [1] * 14 + [2], dtype=np.int64)
"""Label index to its occupancy class: 0 a sente piece, 1 a gote piece, 2 empty."""

HAND_KINDS: tuple[str, ...] = ("R", "B", "G", "S", "N", "L", "P")
HAND_LABELS: tuple[str, ...] = (*HAND_KINDS, *(k.lower() for k in HAND_KINDS))
"""The 14 hand slots: sente's seven kinds then gote's, keyed by SFEN letter."""
HAND_INDEX: dict[str, int] = {label: i for i, label in enumerate(HAND_LABELS)}

RANKS = "abcdefghi"
Hands = tuple[int, ...]
Pairs = tuple[tuple[int, int], ...]
Labels = npt.NDArray[np.int64]

# cshogi piece types 1..14 (sente; gote adds 16) and hand pieces 0..6 (p l n s g b r).
_CS_TYPE_KIND = ("", "P", "L", "N", "S", "B", "R", "G", "K", "+P", "+L", "+N", "+S", "+B", "+R")
_CS_HAND_KIND = ("P", "L", "N", "S", "G", "B", "R")


def _piece_table() -> Labels:
    table = np.full(32, EMPTY_INDEX, dtype=np.int64)
    for code, kind in enumerate(_CS_TYPE_KIND):
        if kind:
            table[code] = LABEL_INDEX[kind]
            table[code + 16] = LABEL_INDEX[kind.lower()]
    return table


PIECE_TO_LABEL = _piece_table()
"""cshogi piece code to label index."""
SFEN_TO_CS: Labels = np.array([(8 - i % 9) * 9 + i // 9 for i in range(81)], dtype=np.int64)
"""SFEN-order index to cshogi square (cshogi: 0 = 1a, 1 = 1b, ..., 80 = 9i)."""
CS_TO_SFEN: tuple[int, ...] = tuple(int(np.flatnonzero(cs == SFEN_TO_CS)[0]) for cs in range(81))
_PIECE_TO_LABEL_LIST: tuple[int, ...] = tuple(int(v) for v in PIECE_TO_LABEL)


def square_name(index: int) -> str:
    """USI name (`7g`) of an SFEN-order index."""
    rank, col = divmod(index, 9)
    return f"{9 - col}{RANKS[rank]}"


def square_index(name: str) -> int:
    """SFEN-order index of a USI square name (`7g`)."""
    return RANKS.index(name[1]) * 9 + 9 - int(name[0])


def board_labels(board: cshogi.Board) -> Labels:
    """The 81 label indices of a cshogi board, in SFEN order."""
    pieces = np.asarray(board.pieces, dtype=np.int64)
    labels: Labels = PIECE_TO_LABEL[pieces][SFEN_TO_CS]
    return labels


def board_hands(board: cshogi.Board) -> Hands:
    """The 14 hand counts of a cshogi board (sente R..P, gote r..p)."""
    counts = [0] * 14
    for side, hand in enumerate(board.pieces_in_hand):
        for cs_index, n in enumerate(hand):
            counts[HAND_INDEX[_CS_HAND_KIND[cs_index]] + 7 * side] = int(n)
    return tuple(counts)


def hands_from_mapping(hands: Mapping[str, int]) -> Hands:
    """14 hand counts from counts keyed by SFEN letter (`P` sente pawns, `p` gote pawns); absent keys are 0."""
    counts = [0] * 14
    for letter, n in hands.items():
        counts[HAND_INDEX[letter]] = int(n)
    return tuple(counts)


def describe_label(label: int) -> str:
    """`sente's pawn`, `gote's dragon` or `nothing`."""
    text = SQUARE_LABELS[label]
    if text == EMPTY:
        return "nothing"
    side = "b" if text.lstrip("+").isupper() else "w"
    return f"{SIDE_NAMES[side]}'s {KIND_NAMES[text.upper()]}"


def kind_name(label: int) -> str:
    """`pawn`, `dragon` (owner left out)."""
    return KIND_NAMES[SQUARE_LABELS[label].upper()]


def owner(label: int) -> int | None:
    """0 for sente, 1 for gote, None for an empty square."""
    if label == EMPTY_INDEX:
        return None
    return 0 if label < 14 else 1


def stand_slots(side: int) -> slice:
    """The hand slots (`HAND_LABELS` order) of one player's stand: 0 sente, 1 gote."""
    return slice(len(HAND_KINDS) * side, len(HAND_KINDS) * (side + 1))


def slot_side(slot: int) -> int:
    """The player (0 sente, 1 gote) whose stand holds hand slot `slot`."""
    return slot // len(HAND_KINDS)


def move_primary_square(move: int) -> int:
    """The square a move cannot leave unchanged: the source of a board move, the target of a drop (SFEN index)."""
    square: int = cshogi.move_to(move) if cshogi.move_is_drop(move) else cshogi.move_from(move)
    return CS_TO_SFEN[square]


def move_effect(pieces: list[int], turn: int, move: int) -> tuple[Pairs, Pairs]:
    """What `move` changes: ((square, new label), ...) and ((hand slot, +1/-1), ...).

    Args:
        pieces: `board.pieces` of the position before the move (cshogi square order).
        turn: the mover (0 sente, 1 gote).
        move: a cshogi move of that position.
    """
    to_cs = cshogi.move_to(move)
    to = CS_TO_SFEN[to_cs]
    if cshogi.move_is_drop(move):
        kind = _CS_HAND_KIND[cshogi.move_drop_hand_piece(move)]
        label = LABEL_INDEX[kind if turn == 0 else kind.lower()]
        return ((to, label),), ((HAND_INDEX[kind] + 7 * turn, -1),)
    from_cs = cshogi.move_from(move)
    piece = pieces[from_cs] + (8 if cshogi.move_is_promotion(move) else 0)
    changes = ((CS_TO_SFEN[from_cs], EMPTY_INDEX), (to, _PIECE_TO_LABEL_LIST[piece]))
    captured = pieces[to_cs] & 15
    if not captured:
        return changes, ()
    base = _CS_TYPE_KIND[captured - 8 if captured > 8 else captured]
    return changes, ((HAND_INDEX[base] + 7 * turn, 1),)
