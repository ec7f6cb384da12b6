"""What one read of a frame says (`vision.reader.BoardReader.read`): each square's likeliest label, its probability,
the best three and whether the reader vouches for it (`SquareRead`); the frame's squares, probabilities, hands, grid
and timing (`BoardRead`), and their SFEN and JSON forms (`hands_field`, `BoardRead.sfen`, `BoardRead.to_json`).

Owns: `SquareRead`, `BoardRead`, `hands_field`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from vision.board import BoardGeometry
from vision.labels import EMPTY, board_field_from_labels, square_name
from vision.rim import RimView


@dataclass(frozen=True)
class SquareRead:
    """One square: the most likely label, its probability, the best three, and whether it is trusted."""

    label: str
    p: float
    top: tuple[tuple[str, float], ...]
    reliable: bool


@dataclass(frozen=True)
class BoardRead:
    """The result of reading one frame."""

    board_found: bool
    reason: str
    """Empty when the read is fine; otherwise why the frame (or some squares) cannot be trusted."""
    squares: tuple[SquareRead, ...] = ()
    probs: NDArray[np.float64] | None = None
    """81×29 probabilities over SQUARE_LABELS in SFEN order (None when no board was found)."""
    hands: dict[str, dict[str, int]] | None = None
    """Pieces on each stand read, per side: {"b": {kind: count}, "w": {...}}. Each stand is read on its own (with
    `ReaderSettings.complete_set`, fitted with the board to one set: `vision.hand_fit`): a side present with `{}`
    is an empty stand, a side absent is unknown (its stand out of view or covered), and None means neither stand
    could be read (unknown, not empty)."""
    geometry: BoardGeometry | None = None
    ms: float = 0.0
    hidden: tuple[int, ...] | None = None
    """Squares the reader could not see (a hand or blur over them, or the whole frame bad), whose probabilities
    say nothing; None when not told (the controller then guesses from the flags). A square flagged only for a
    low top probability, a piece lying sideways or more pieces of a kind than a set holds is not hidden: its
    probabilities still carry the evidence."""
    rim: RimView | None = None
    """The strip round the grid as this frame shows it (`vision.rim`): compared with an earlier frame's, it tells
    where something new is at the board's edge (a hand holding a piece over a square hides no square); None when
    no board was found."""

    @property
    def unreliable(self) -> list[str]:
        """Names of the squares the reader cannot vouch for (all 81 when no board was found)."""
        if not self.board_found:
            return [square_name(i) for i in range(81)]
        return [square_name(i) for i, sq in enumerate(self.squares) if not sq.reliable]

    @property
    def reliable(self) -> bool:
        """True when the board was found and every square is trusted."""
        return self.board_found and not self.reason and all(sq.reliable for sq in self.squares)

    @property
    def labels(self) -> list[str]:
        """The most likely label of every square (all empty when no board was found)."""
        return [sq.label for sq in self.squares] if self.squares else [EMPTY] * 81

    def sfen(self) -> str:
        """`<board> b <hands>` from the most likely labels (hands `-` when empty or unknown)."""
        return f"{board_field_from_labels(self.labels)} b {hands_field(self.hands)}"

    def to_json(self) -> dict[str, Any]:
        """The JSON shape of `shogi-robot vision read --json`."""
        return {
            "sfen": self.sfen(),
            "board_found": self.board_found,
            "reason": self.reason,
            "squares": [
                {"piece": sq.label, "p": round(sq.p, 4), "top": [[lab, round(p, 4)] for lab, p in sq.top]}
                for sq in self.squares
            ],
            "hands": self.hands,
            "unreliable": self.unreliable,
            "ms": round(self.ms, 1),
        }


def hands_field(hands: dict[str, dict[str, int]] | None) -> str:
    """SFEN hand field of the sides read (`-` for none or unknown; a side not read contributes nothing, so the
    field alone cannot tell an unknown stand from an empty one: `BoardRead.hands` can)."""
    if not hands:
        return "-"
    text = ""
    for side, upper in (("b", True), ("w", False)):
        for kind in ("R", "B", "G", "S", "N", "L", "P"):
            n = hands.get(side, {}).get(kind, 0)
            if n:
                text += (str(n) if n > 1 else "") + (kind if upper else kind.lower())
    return text or "-"
