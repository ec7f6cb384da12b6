"""Synthetic observations: what a plausible board reader would say about a known position.

Owns: a seeded noise model for per-square probabilities (the right label at 0.90-0.99, the rest mostly on
look-alike kinds such as silver/gold and the golden promoted pieces, rarely on the same kind of the other
owner; optional hard errors where a look-alike wins a frame; squares the reader flags as unreliable with
garbage probabilities), and the frames of a move as a camera sees it: a hand over the board (unstable frames
with garbage under the hand, the piece lifted), then stable frames of the new position. Used by the tests and
`shogi-robot bench reconcile`; nothing here is tuned on real games.
"""

from __future__ import annotations

from dataclasses import dataclass

import cshogi
import numpy as np
import numpy.typing as npt

from controller.reconcile.labels import (
    EMPTY_INDEX,
    HAND_LABELS,
    LABEL_INDEX,
    N_LABELS,
    SQUARE_LABELS,
    Hands,
    Labels,
    board_hands,
    board_labels,
)
from controller.reconcile.types import Observation

_SIMILAR_KINDS: dict[str, tuple[str, ...]] = {
    "K": ("G",), "R": ("+R",), "B": ("+B",), "G": ("S", "+S", "+N"), "S": ("G",), "N": ("L",), "L": ("P", "N"),
    "P": ("L",), "+R": ("R",), "+B": ("B",), "+S": ("G", "+N", "+L"), "+N": ("+S", "+L", "G"),
    "+L": ("+S", "+N", "G"), "+P": ("+L", "+N"),
}  # fmt: skip


@dataclass(frozen=True)
class NoiseModel:
    """How a synthetic reader errs.

    Attributes:
        correct_low / correct_high: range of the probability given to the right label.
        similar_share: share of the remaining mass given to look-alike kinds of the same owner.
        owner_flip_share: share given to the same kind of the other owner.
        hard_error_rate: per square and frame, chance that a look-alike wins the frame (probability 0.55-0.7).
        unreliable_rate: per frame, chance that one square is flagged unreliable (its probabilities garbage).
        hand_confidence: the confidence reported with the hand counts.
        hands_visible: whether hand counts are reported at all.
        stand_sides: the players whose stand is in view (`b`, `w`; each stand is read on its own).
        stand_miss_rate: per frame and stand in view, chance that it is not read (an arm over it, the edge of the
            picture): that player's hand is unknown in that frame.
        misread_kinds: kinds (sente's spelling) the reader consistently takes for their first look-alike, as a
            classifier does with a piece style it never saw (the look-alike at 0.6, the truth at 0.3).
    """

    correct_low: float = 0.90
    correct_high: float = 0.99
    similar_share: float = 0.7
    owner_flip_share: float = 0.03
    hard_error_rate: float = 0.0
    unreliable_rate: float = 0.0
    hand_confidence: float = 0.95
    hands_visible: bool = True
    stand_sides: tuple[str, ...] = ("b", "w")
    stand_miss_rate: float = 0.0
    misread_kinds: tuple[str, ...] = ()


def _similar(label: str) -> list[int]:
    if label == "empty":
        return []
    sente = label.lstrip("+").isupper()
    kinds = _SIMILAR_KINDS[label.upper()]
    return [LABEL_INDEX[k if sente else k.lower()] for k in kinds]


def _flip(label: str) -> int | None:
    if label == "empty":
        return None
    return LABEL_INDEX[label.lower() if label.lstrip("+").isupper() else label.upper()]


def _confusion_table(noise: NoiseModel) -> npt.NDArray[np.float64]:
    """Row c: how the mass not given to label c is spread over the other labels."""
    table = np.zeros((N_LABELS, N_LABELS))
    for c, label in enumerate(SQUARE_LABELS):
        others = [i for i in range(N_LABELS) if i != c]
        table[c, others] = 1.0 - noise.similar_share - noise.owner_flip_share
        table[c, others] /= len(others)
        similar, flip = _similar(label), _flip(label)
        if similar:
            table[c, similar] += noise.similar_share / len(similar)
        else:
            table[c, others] += noise.similar_share / len(others)
        if flip is not None:
            table[c, flip] += noise.owner_flip_share
        else:
            table[c, others] += noise.owner_flip_share / len(others)
    return table


class SyntheticReader:
    """Produces observations of known positions with seeded noise."""

    def __init__(self, seed: int, noise: NoiseModel | None = None) -> None:
        self.noise = noise or NoiseModel()
        self.rng = np.random.default_rng(seed)
        self._table = _confusion_table(self.noise)
        self._similar = [_similar(label) for label in SQUARE_LABELS]
        self._misread = np.array([label.upper() in self.noise.misread_kinds for label in SQUARE_LABELS])

    def probabilities(self, labels: Labels) -> npt.NDArray[np.float64]:
        """(81, 29) probabilities for the true labels, with the model's noise."""
        rng, noise = self.rng, self.noise
        rest = self._table[labels] * np.exp(rng.normal(0.0, 0.5, size=(81, N_LABELS)))
        rest[np.arange(81), labels] = 0.0
        rest /= rest.sum(axis=1, keepdims=True)
        correct = rng.uniform(noise.correct_low, noise.correct_high, size=81)
        probs = rest * (1.0 - correct)[:, None]
        probs[np.arange(81), labels] = correct
        for square in np.flatnonzero(rng.random(81) < noise.hard_error_rate):
            self._hard_error(probs, int(square), int(labels[square]))
        for square in np.flatnonzero(self._misread[labels]):
            label = int(labels[square])
            row = np.full(N_LABELS, 0.1 / (N_LABELS - 2))
            row[self._similar[label][0]], row[label] = 0.6, 0.3
            probs[square] = row
        return probs

    def _hard_error(self, probs: npt.NDArray[np.float64], square: int, label: int) -> None:
        similar = self._similar[label]
        if not similar:
            return
        wrong = similar[int(self.rng.integers(len(similar)))]
        row = np.full(N_LABELS, 0.01 / (N_LABELS - 2))
        row[wrong] = self.rng.uniform(0.55, 0.7)
        row[label] = 0.99 - row[wrong]
        probs[square] = row / row.sum()

    def garbage(self) -> npt.NDArray[np.float64]:
        """Probabilities of a square the reader cannot make sense of (a hand, a blur)."""
        row: npt.NDArray[np.float64] = self.rng.dirichlet(np.full(N_LABELS, 0.3))
        return row

    def observe(
        self,
        labels: Labels,
        hands: Hands,
        time: float,
        *,
        stable: bool = True,
        covered: frozenset[int] = frozenset(),
    ) -> Observation:
        """One frame of the position (`covered`: squares under a hand, garbage and flagged unreliable)."""
        probs = self.probabilities(labels)
        unreliable = set(covered)
        if self.rng.random() < self.noise.unreliable_rate:
            unreliable.add(int(self.rng.integers(81)))
        for square in unreliable:
            probs[square] = self.garbage()
        sides = self._stands_read()
        if not sides:
            return Observation(probs, None, 0.0, frozenset(unreliable), stable, time)
        seen = {HAND_LABELS[i]: n for i, n in enumerate(hands) if n and ("b" if i < 7 else "w") in sides}
        confidence = self.noise.hand_confidence
        return Observation(probs, seen, confidence, frozenset(unreliable), stable, time, hand_sides=sides)

    def _stands_read(self) -> frozenset[str]:
        """The stands this frame reads."""
        if not self.noise.hands_visible:
            return frozenset()
        miss = self.noise.stand_miss_rate
        return frozenset(side for side in self.noise.stand_sides if not miss or self.rng.random() >= miss)

    def observe_board(self, board: cshogi.Board, time: float, *, stable: bool = True) -> Observation:
        """One stable (or not) frame of a cshogi board's position."""
        return self.observe(board_labels(board), board_hands(board), time, stable=stable)

    def move_frames(
        self, board: cshogi.Board, usi_moves: list[str], start: float, *, unstable: int = 3, stable: int = 6,
        dt: float = 0.1,
    ) -> list[Observation]:  # fmt: skip
        """Frames of `usi_moves` being played on `board` (which is left after them): per move, `unstable`
        frames with a hand over the moved squares and the piece lifted; then `stable` frames of the result."""
        frames: list[Observation] = []
        time = start
        for usi in usi_moves:
            before = board_labels(board)
            board.push_usi(usi)
            after = board_labels(board)
            touched = [int(i) for i in np.flatnonzero(before != after)]
            lifted = before.copy()
            lifted[touched] = EMPTY_INDEX
            hand = _neighbourhood(touched)
            for _ in range(unstable):
                frames.append(self.observe(lifted, board_hands(board), time, stable=False, covered=hand))
                time += dt
        for _ in range(stable):
            frames.append(self.observe_board(board, time))
            time += dt
        return frames


def _neighbourhood(squares: list[int]) -> frozenset[int]:
    """The squares and their eight neighbours (where a hand would be)."""
    around = set()
    for square in squares:
        rank, col = divmod(square, 9)
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                if 0 <= rank + dr < 9 and 0 <= col + dc < 9:
                    around.add((rank + dr) * 9 + col + dc)
    return frozenset(around)
