"""Impasse (jishogi): the entering-king declaration (24- and 27-point rules) and the agreement count.

Owns: points, conditions and results for `rules declare` and `rules count`. The declaration follows the CSA /
JSA conditions: the declarer's turn, king in the enemy camp (3 ranks), at least 10 other own pieces in the camp,
not in check, and points (rook and bishop, promoted or not, 5; others 1; king 0) over camp pieces and hand.
"""

from __future__ import annotations

import enum
from collections import Counter
from dataclasses import dataclass

import cshogi

from controller.rules.sfen import Placement

BIG = frozenset({"R", "B"})
FULL_SET = Counter({"R": 2, "B": 2, "G": 4, "S": 4, "N": 4, "L": 4, "P": 18})
"""The non-king pieces of a full set, by unpromoted kind."""


class ImpasseRule(enum.IntEnum):
    """The point rules in use."""

    POINTS_24 = 24
    POINTS_27 = 27


@dataclass(frozen=True)
class Declaration:
    """The result of an entering-king declaration by the side to move.

    Attributes:
        result: `win`, `draw` or `lose`, for the declarer.
        points: the declarer's points (camp pieces plus hand).
        conditions: each condition by name, met or not.
    """

    result: str
    points: int
    conditions: dict[str, bool]


@dataclass(frozen=True)
class Count:
    """The agreement count: points on board and in hand per side, promotions undone."""

    points: dict[str, int]
    result: str
    """`b_wins`, `w_wins` or `draw`."""
    handicap_credit: int = 0
    """Points of pieces missing from the set (a handicap), credited to the upper player (gote)."""


def piece_points(kind: str) -> int:
    """Points of a piece kind (sente's spelling, promoted or not)."""
    base = kind.lstrip("+")
    if base == "K":
        return 0
    return 5 if base in BIG else 1


def _in_camp(square: str, side: str) -> bool:
    rank = "abcdefghi".index(square[1]) + 1
    return rank <= 3 if side == "b" else rank >= 7


def declare(board: cshogi.Board, rule: ImpasseRule) -> Declaration:
    """Judge a declaration by the side to move under `rule`."""
    placement = Placement.from_sfen(board.sfen())
    side = placement.side
    own = {sq: p for sq, p in placement.squares.items() if placement.owner_of(sq) == side}
    king_sq = next(sq for sq, p in own.items() if p.upper() == "K")
    camp = [p.upper() for sq, p in own.items() if _in_camp(sq, side) and p.upper() != "K"]
    points = sum(piece_points(k) for k in camp)
    points += sum(piece_points(k) * n for k, n in placement.hands[side].items())
    needed = (28 if side == "b" else 27) if rule is ImpasseRule.POINTS_27 else 24
    conditions = {
        "king_in_camp": _in_camp(king_sq, side),
        "ten_pieces_in_camp": len(camp) >= 10,
        "not_in_check": not board.is_check(),
        "enough_points": points >= needed,
    }
    if not all(conditions.values()):
        result = "lose"
    elif rule is ImpasseRule.POINTS_27 or points >= 31:
        result = "win"
    else:
        result = "draw"
    return Declaration(result, points, conditions)


def count(board: cshogi.Board, rule: ImpasseRule) -> Count:
    """The agreement count of both sides under `rule` (a player under the threshold loses)."""
    placement = Placement.from_sfen(board.sfen())
    points = {"b": 0, "w": 0}
    present: Counter[str] = Counter()
    for square, piece in placement.squares.items():
        owner = placement.owner_of(square) or "b"
        kind = piece.upper().lstrip("+")
        points[owner] += piece_points(kind)
        present[kind] += 0 if kind == "K" else 1
    for side in ("b", "w"):
        for kind, n in placement.hands[side].items():
            points[side] += piece_points(kind) * n
            present[kind] += n
    missing = FULL_SET - present
    credit = sum(piece_points(k) * n for k, n in missing.items())
    points["w"] += credit
    threshold = int(rule)
    under = [side for side in ("b", "w") if points[side] < threshold]
    result = "draw" if len(under) != 1 else ("w_wins" if under[0] == "b" else "b_wins")
    return Count(points, result, credit)
