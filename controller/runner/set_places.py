"""Which squares of a confirmed position are worth learning the piece set from, given what was learnt already.

A set learnt from one frame learns "what a piece on this square looks like in this pose" (perspective, tilt
parallax, the piece's place in the picture) as much as the face: the start shows a rook and a bishop on one
square each a side, and never a promoted face. Every position the game confirms is a labelled photo of the set,
so the reader learns again from the squares that add most: a piece of a kind (or face) never learnt near that
square (`RADIUS`), and any square the reader gave less than `MISREAD_P` for what the game says stands there.

Owns: `Places`, the learnt (label, square) places with the learning ("part") they came from and the moves after
which that position stood (so a takeback, which shows those moves were not all real, forgets them: `forget_off`),
the choice of squares (`choose`) and the bound on how many later squares are kept (`over_bound`). A piece learnt
on a square also counts, turned by 180°, as the other owner's piece on the point-symmetric square (the learning
adds the turned crops). Pure bookkeeping: no pixels here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from vision.labels import EMPTY, SQUARE_LABELS, labels_from_board_field

RADIUS = 1
"""A piece is new on a square when no piece of its label and owner was learnt within this many squares (king's
moves) of it."""
MISREAD_P = 0.6
"""A square whose read gave the confirmed label less than this is learnt from (a piece or an empty square)."""
MIN_NEW = 2
"""Learn from a position when it shows at least this many new places, or one farther than `FAR` from any
learnt place of its label (a face never learnt is infinitely far), or any misread square."""
FAR = 2
MAX_SQUARES = 8
"""Squares learnt from one position at most (misread ones first, then the newest places)."""
MAX_LATER_SQUARES = 80
"""Squares of later positions kept at most (oldest learnings forgotten first); with `vision.calibration`'s
`LATER_VARIANTS` = 24 crops of each, turned too, 3840 examples (about 16 MB of features, beside the start's 9)."""


START_SQUARES: tuple[int, ...] = tuple(range(27)) + tuple(range(54, 81))
"""The squares the start's learning learnt from: every square of ranks a-c and g-i (the empty ones too, but only
pieces count as places)."""


@dataclass(frozen=True)
class Place:
    """One learnt square: which learning, after which moves, what label where."""

    part: int
    moves: tuple[str, ...]
    label: str
    square: int


def _turned(label: str) -> str:
    return label if label == EMPTY else label.swapcase()


_ROWS, _COLS = np.divmod(np.arange(81), 9)
_DISTANCE = np.maximum(abs(_ROWS[:, None] - _ROWS[None, :]), abs(_COLS[:, None] - _COLS[None, :]))
"""Squares apart, in king's moves (81×81)."""


class Places:
    """The places a game's set was learnt from (see the module)."""

    def __init__(self) -> None:
        self._places: list[Place] = []

    def __len__(self) -> int:
        return len(self._places)

    @property
    def parts(self) -> list[int]:
        """The learnings whose places are kept, oldest first."""
        return sorted({place.part for place in self._places})

    def add(self, part: int, moves: Sequence[str], board_field: str, squares: Sequence[int]) -> None:
        """The occupied `squares` of `board_field` were (or are being) learnt by learning `part`."""
        labels = labels_from_board_field(board_field)
        self._places += [Place(part, tuple(moves), labels[s], s) for s in squares if labels[s] != EMPTY]

    def drop(self, part: int) -> None:
        """Forget learning `part` (it failed, or is forgotten)."""
        self._places = [place for place in self._places if place.part != part]

    def forget_off(self, moves: Sequence[str]) -> list[int]:
        """Forget the learnings of positions that the game's moves no longer pass through (a takeback, or a move
        replaced); returns their parts."""
        played = tuple(moves)
        gone = sorted({p.part for p in self._places if played[: len(p.moves)] != p.moves})
        for part in gone:
            self.drop(part)
        return gone

    def over_bound(self, later_squares: int = MAX_LATER_SQUARES) -> list[int]:
        """The oldest later learnings (not the start's, part 0) to forget so that at most `later_squares`
        squares of later positions are kept."""
        sizes: dict[int, int] = {}
        for place in self._places:
            if place.part:
                sizes[place.part] = sizes.get(place.part, 0) + 1
        excess, gone = sum(sizes.values()) - later_squares, []
        for part in sorted(sizes):
            if excess <= 0:
                break
            gone.append(part)
            excess -= sizes[part]
        return gone

    def choose(self, board_field: str, probs: NDArray[np.float64] | None, hidden: Sequence[int]) -> list[int]:
        """The squares of the confirmed `board_field` to learn from now (empty: nothing worth a learning), given
        the read's 81×29 probabilities (None: not known) and the squares it could not see."""
        labels, unseen = labels_from_board_field(board_field), set(hidden)
        visible = [s for s in range(81) if s not in unseen]
        misread = [] if probs is None else [s for s in visible if probs[s, SQUARE_LABELS.index(labels[s])] < MISREAD_P]
        known = self._known()
        far = {s: self._nearest(known.get(labels[s]), s) for s in visible if labels[s] != EMPTY}
        new = sorted((s for s, d in far.items() if d > RADIUS and s not in misread), key=lambda s: (-far[s], s))
        if not misread and len(new) < MIN_NEW and not any(far[s] > FAR for s in new):
            return []
        return (misread + new)[:MAX_SQUARES]

    def _known(self) -> dict[str, NDArray[np.bool_]]:
        """Per label, the squares it was learnt on (a piece learnt on a square also as the other owner's, turned)."""
        known: dict[str, NDArray[np.bool_]] = {}
        for place in self._places:
            known.setdefault(place.label, np.zeros(81, dtype=bool))[place.square] = True
            known.setdefault(_turned(place.label), np.zeros(81, dtype=bool))[80 - place.square] = True
        return known

    @staticmethod
    def _nearest(squares: NDArray[np.bool_] | None, square: int) -> int:
        return 99 if squares is None or not squares.any() else int(_DISTANCE[square, squares].min())
