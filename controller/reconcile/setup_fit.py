"""One read of a board with no game behind it, fitted to a position the rules allow.

The reconciler needs no such fit in a game: it only ever scores legal successors of the known position. A photo
read on its own (`shogi-robot vision read`) has no history, and the reader, which knows pixels and not rules,
may put two of a side's unpromoted pawns on one file (nifu), a pawn or lance on its owner's last rank, a knight
on its last two, a second king of one side, or more pieces of a kind on the board than a set holds. This module
changes the cheapest squares' kinds so that none of that remains (never whether a square is occupied nor who owns
its piece, which the reader reads far more surely than kinds; nor the stands, whose counts the reader gets wrong
far more often than the board's: counted in, they pushed right board pieces out, see
docs/experiments/s49/RULE.txt): the likeliest labels under the reader's probabilities
that break no rule of a set-up, found greedily (each step the single change of least log-probability that
mends a broken rule without breaking another; a step never adds a broken rule, so it ends). What it cannot
know from one picture (whose turn it is, and so whether the side not to move stands in check) it leaves alone.

Owns: `fit_setup`, `SetupFit`, `broken_rules`, `SET_LIMITS`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from controller.reconcile.labels import EMPTY_INDEX, LABEL_INDEX, N_LABELS, SQUARE_LABELS, square_name

SET_LIMITS: dict[str, int] = {"R": 2, "B": 2, "G": 4, "S": 4, "N": 4, "L": 4, "P": 18}
"""Pieces of each base kind a set holds (kings: one a side, apart); the fit counts the board's alone."""
_FLOOR = 1e-12
_BASE = tuple(label.lstrip("+").upper() if i != EMPTY_INDEX else "" for i, label in enumerate(SQUARE_LABELS))
_SIDE = tuple(
    -1 if i == EMPTY_INDEX else (0 if label.lstrip("+").isupper() else 1) for i, label in enumerate(SQUARE_LABELS)
)
_PAWN = (SQUARE_LABELS.index("P"), SQUARE_LABELS.index("p"))
_KING = (SQUARE_LABELS.index("K"), SQUARE_LABELS.index("k"))
_WHO = ("sente", "gote")


@dataclass(frozen=True)
class SetupFit:
    """A read fitted to the rules of a set-up.

    Attributes:
        labels: 81 labels in SFEN order (the reader's order of `SQUARE_LABELS`), breaking no rule it checks.
        changed: (square name, label read, label fitted) for each square the fit changed.
        broken: the rules the read broke before the fit (`broken_rules`' sentences).
    """

    labels: tuple[str, ...]
    changed: tuple[tuple[str, str, str], ...]
    broken: tuple[str, ...]

    def board_field(self) -> str:
        """The fitted board as an SFEN board field."""
        rows = []
        for r in range(9):
            row, gap = "", 0
            for label in self.labels[9 * r : 9 * r + 9]:
                if label == SQUARE_LABELS[EMPTY_INDEX]:
                    gap += 1
                    continue
                row += (str(gap) if gap else "") + label
                gap = 0
            rows.append(row + (str(gap) if gap else ""))
        return "/".join(rows)


def _dead(index: int, label: int) -> bool:
    """True when `label` may never stand on square `index` (SFEN order: row 0 is rank a, sente's far side)."""
    row = index // 9
    base, side = SQUARE_LABELS[label], _SIDE[label]
    if base not in ("P", "L", "N", "p", "l", "n"):
        return False
    far = row if side == 0 else 8 - row  # ranks from the owner's last rank
    return far == 0 or (base in ("N", "n") and far == 1)


_DEAD: npt.NDArray[np.bool_] = np.array([[_dead(i, j) for j in range(N_LABELS)] for i in range(81)])
"""81×29: the labels a square can never hold."""


def _broken(labels: npt.NDArray[np.int64]) -> list[tuple[str, list[int]]]:
    """Each rule of a set-up the labels break: its sentence and the squares one of which must change to mend it."""
    out = [
        (f"{SQUARE_LABELS[int(label)]} on {square_name(i)} can never move", [i])
        for i, label in enumerate(labels)
        if _DEAD[i, int(label)]
    ]
    for side, pawn in enumerate(_PAWN):
        for file in range(9):
            on_file = [9 * r + file for r in range(9) if labels[9 * r + file] == pawn]
            if len(on_file) > 1:
                names = " and ".join(square_name(i) for i in on_file)
                out.append((f"nifu: {_WHO[side]}'s unpromoted pawns on {names}", on_file))
    for side, king in enumerate(_KING):
        kings = [int(i) for i in np.flatnonzero(labels == king)]
        if len(kings) > 1:
            out.append((f"{_WHO[side]} has more than one king", kings))
    for kind, room in _room(labels).items():
        if room < 0:
            squares = [i for i in range(81) if _BASE[int(labels[i])] == kind]
            out.append((f"{len(squares)} pieces of kind {kind} (a set holds {SET_LIMITS[kind]})", squares))
    return out


def broken_rules(labels: npt.NDArray[np.int64]) -> list[str]:
    """Sentences for each rule of a set-up the labels break (empty when none)."""
    return [sentence for sentence, _ in _broken(labels)]


def _offenders(labels: npt.NDArray[np.int64]) -> set[int]:
    """The squares of every broken rule."""
    return {i for _, squares in _broken(labels) for i in squares}


def _room(labels: npt.NDArray[np.int64]) -> dict[str, int]:
    """How many more pieces of each base kind the set has left for the board (negative: over the set)."""
    counts = dict.fromkeys(SET_LIMITS, 0)
    for label in labels:
        if _BASE[int(label)] in counts:
            counts[_BASE[int(label)]] += 1
    return {kind: SET_LIMITS[kind] - n for kind, n in counts.items()}


def _allowed(labels: npt.NDArray[np.int64], index: int, new: int, room: Mapping[str, int]) -> bool:
    """True when square `index` may take label `new` without breaking a rule that holds now: a kind of the same
    owner only (occupancy and owner are read far more surely than kinds)."""
    if _DEAD[index, new] or _SIDE[new] != _SIDE[int(labels[index])]:
        return False
    others = np.delete(labels, index)
    if new in _KING:
        return not np.any(others == new)
    if new in _PAWN and np.any(labels[index % 9 :: 9] == new):
        return False
    base = _BASE[new]
    return not base or base == _BASE[int(labels[index])] or room[base] > 0


def _mends(labels: npt.NDArray[np.int64], index: int, new: int, offenders: int) -> bool:
    """True when square `index` taking label `new` leaves fewer than `offenders` squares in broken rules."""
    trial = labels.copy()
    trial[index] = new
    return len(_offenders(trial)) < offenders


def _cheapest_change(logp: npt.NDArray[np.float64], labels: npt.NDArray[np.int64]) -> tuple[int, int] | None:
    """The (square, label) among the broken rules' squares whose change costs the least log-probability, mends a
    broken rule and breaks none that holds (None: no single change mends one)."""
    room = _room(labels)
    offenders = _offenders(labels)
    best: tuple[float, int, int] | None = None
    for i in sorted(offenders):
        current = int(labels[i])
        for new in (int(j) for j in np.argsort(-logp[i])):
            if new != current and _allowed(labels, i, new, room) and _mends(labels, i, new, len(offenders)):
                cost = float(logp[i, current] - logp[i, new])
                if best is None or cost < best[0]:
                    best = (cost, i, new)
                break
    return None if best is None else (best[1], best[2])


def fit_setup(probs: npt.ArrayLike, labels: Sequence[str] | None = None) -> SetupFit:
    """The read's labels (`labels`, the reader's own, which it may already have fitted to a set's counts; else the
    likeliest of `probs`: 81×29 in SFEN order), changed greedily by `probs` until no rule of a set-up is broken
    on the board. Only a piece's kind is ever changed, never whether a square is occupied nor who owns its piece.
    A rule no single change can mend is left broken (its sentence stays in `broken`)."""
    table = np.asarray(probs, dtype=np.float64)
    if table.shape != (81, N_LABELS):
        raise ValueError(f"probabilities must be 81×{N_LABELS}, not {table.shape}")
    logp = np.log(np.maximum(table, _FLOOR))
    logp[_DEAD] = np.log(_FLOOR) * 2  # never chosen while anything else is left
    if labels is None:
        read = table.argmax(axis=1).astype(np.int64)
    elif len(labels) != 81:
        raise ValueError(f"81 labels are needed, not {len(labels)}")
    else:
        read = np.array([LABEL_INDEX[label] for label in labels], dtype=np.int64)
    fitted = read.copy()
    while (change := _cheapest_change(logp, fitted)) is not None:  # each change leaves fewer offenders: it ends
        fitted[change[0]] = change[1]
    changed = tuple(
        (square_name(i), SQUARE_LABELS[int(a)], SQUARE_LABELS[int(b)])
        for i, (a, b) in enumerate(zip(read, fitted, strict=True))
        if a != b
    )
    return SetupFit(tuple(SQUARE_LABELS[int(v)] for v in fitted), changed, tuple(broken_rules(read)))
