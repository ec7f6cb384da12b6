"""What a shogi set holds, and the likeliest square labels a set can show.

Owns `SET_LIMITS` (how many pieces of each base kind a set has: one king a player, two rooks, ..., eighteen
pawns; promoted faces count as their base kind) and `fit_to_set`: from per-square probabilities, labels that
never show more pieces of a kind than a set holds. This is a fact about the physical set, not a rule of play (a
set-up board may break every rule of shogi, but it cannot show three rooks), so it belongs to the reader. A kind
read more often than the set allows means some of those reads are wrong; the square whose next likeliest
reading costs least is moved to it, repeatedly, until every kind fits (a greedy repair). Only the kind moves: a
square keeps its owner, its promoted or unpromoted face and its being occupied, which the reader tells far more
surely than the kind (on the proxy looks, 60 development frames: squares 87.10 -> 88.64 %, owner and promotion
unchanged; letting the owner, face or occupancy move too gained less, 88.44-88.58 %, and lost up to 1.5 points
of promotion). Frames whose likeliest labels already fit are returned unchanged.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from vision.labels import EMPTY_INDEX, SQUARE_LABELS

SET_LIMITS: dict[str, int] = {"K": 2, "R": 2, "B": 2, "G": 4, "S": 4, "N": 4, "L": 4, "P": 18}
"""How many of each base kind (both owners, promoted or not) a set holds."""

_SENTE_KING, _GOTE_KING = "K", "k"


def _group(label: str) -> str | None:
    """The counted group of a label: its base kind, or the owner's king (one each); None for an empty square."""
    if SQUARE_LABELS.index(label) == EMPTY_INDEX:
        return None
    if label in (_SENTE_KING, _GOTE_KING):
        return label
    return label.upper().lstrip("+")


_GROUPS: tuple[str | None, ...] = tuple(_group(label) for label in SQUARE_LABELS)
_FACES: tuple[tuple[bool, bool] | None, ...] = tuple(  # owner (sente?) and face (promoted?); None: empty
    None if i == EMPTY_INDEX else (label.lstrip("+").isupper(), label.startswith("+"))
    for i, label in enumerate(SQUARE_LABELS)
)
_ALIKE = np.array([[a is not None and a == b for b in _FACES] for a in _FACES], dtype=bool)
"""[i, j]: labels i and j are pieces of the same owner and face (what a repair keeps)."""
_CAPACITY: dict[str, int] = {**{k: n for k, n in SET_LIMITS.items() if k != "K"}, _SENTE_KING: 1, _GOTE_KING: 1}


def over_limit(chosen: NDArray[np.intp]) -> dict[str, list[int]]:
    """The groups (base kind, or one player's king) shown on more squares than a set holds, with those squares."""
    members: dict[str, list[int]] = {}
    for square, label in enumerate(chosen):
        group = _GROUPS[int(label)]
        if group is not None:
            members.setdefault(group, []).append(square)
    return {group: squares for group, squares in members.items() if len(squares) > _CAPACITY[group]}


def over_limit_squares(chosen: NDArray[np.intp]) -> set[int]:
    """Every square of a group shown more often than a set holds (`over_limit`, squares only)."""
    return {square for squares in over_limit(chosen).values() for square in squares}


def fit_to_set(probs: NDArray[np.float64], chosen: NDArray[np.intp]) -> NDArray[np.intp]:
    """Label indices (one per square) starting from `chosen`, repaired until no group exceeds the set's count."""
    logp = np.log(np.maximum(probs, 1e-12))
    labels = np.array(chosen, dtype=np.intp)
    for _ in range(len(labels)):
        over = over_limit(labels)
        if not over:
            break
        move = _cheapest_move(logp, labels, over)
        if move is None:
            break
        square, label = move
        labels[square] = label
    return labels


def _cheapest_move(
    logp: NDArray[np.float64], labels: NDArray[np.intp], over: dict[str, list[int]]
) -> tuple[int, int] | None:
    """(square, new label): of the squares in over-full groups, the relabelling into a group with room, keeping
    the owner and the face, that loses the least log-probability."""
    counts: dict[str, int] = {}
    for label in labels:
        group = _GROUPS[int(label)]
        if group is not None:
            counts[group] = counts.get(group, 0) + 1
    open_labels = np.array([g is not None and counts.get(g, 0) < _CAPACITY[g] for g in _GROUPS], dtype=bool)
    best: tuple[float, int, int] | None = None
    for squares in over.values():
        for square in squares:
            gains = np.where(open_labels & _ALIKE[int(labels[square])], logp[square], -np.inf)
            label = int(np.argmax(gains))
            cost = float(logp[square, labels[square]] - gains[label])
            if np.isfinite(cost) and (best is None or cost < best[0]):
                best = (cost, square, label)
    return None if best is None else (best[1], best[2])
