"""The one place where the board reader's output becomes the reconciler's `Observation`.

Owns: `observation_from_read` (a `vision.board_read.BoardRead`, read structurally so this module imports nothing
from vision), `hidden_squares`, and the constants they use: the hand confidence given to stands the reader did
see, and the flat probabilities given to squares when no board was found (every square is then unreliable, so
the reconciler ignores them). The reader's rows are renormalised (float32 softmax sums drift by ~1e-6).

The reader's "unreliable" and the reconciler's differ: the reader flags a square it cannot vouch for as the
position (low confidence, more pieces of a kind than a set holds, a hand or blur over it); the reconciler
ignores the probabilities of an unreliable square entirely, and has its own rule for unclear squares. So only
squares whose probabilities say nothing (hidden or blurred, a frame too dark) are passed as unreliable: a read
that names them (`hidden`) is used as it is; otherwise, given the reader's live `min_confidence`, a flagged
square is taken as hidden unless its flag is explained by a low top probability or by the set-limit count
(whose probabilities still carry the evidence); without it only a wholly untrusted frame is hidden. Of the
hidden squares, those flagged by the classifier alone (not a bad frame) are also passed as `doubted`
(`doubted_squares`): the reconciler weighs them once they stay so on still frames.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

import numpy as np
import numpy.typing as npt

from controller.reconcile.labels import HAND_KINDS, N_LABELS, SQUARE_LABELS
from controller.reconcile.types import Observation

SEEN_HANDS_CONFIDENCE = 0.8
"""hand_confidence of an observation with a stand the reader read (0 when it read neither: hands unknown)."""
SET_LIMITS: dict[str, int] = {"K": 2, "R": 2, "B": 2, "G": 4, "S": 4, "N": 4, "L": 4, "P": 18}
"""How many of each base kind a set holds (the reader's set-limit rule, copied: vision may not be imported)."""
DOUBT_CONFIDENCE = 0.95
"""Top probability from which a hidden square counts as read clearly when the reader's own is not given."""


class SquareReadLike(Protocol):
    """What the adapter uses of `vision.board_read.SquareRead`."""

    @property
    def label(self) -> str:
        """Most likely label."""
        ...

    @property
    def p(self) -> float:
        """Its probability."""
        ...

    @property
    def reliable(self) -> bool:
        """The reader vouches for this square."""
        ...


class BoardReadLike(Protocol):
    """What the adapter uses of `vision.board_read.BoardRead`."""

    @property
    def board_found(self) -> bool:
        """The grid was found in the frame."""
        ...

    @property
    def squares(self) -> Sequence[SquareReadLike]:
        """81 square verdicts in SFEN order (empty when no board was found)."""
        ...

    @property
    def probs(self) -> npt.NDArray[np.float64] | None:
        """81x29 probabilities in SQUARE_LABELS order, or None."""
        ...

    @property
    def hands(self) -> Mapping[str, Mapping[str, int]] | None:
        """{"b": {kind: count}, "w": {...}} for the stands read (a side absent: unknown), or None when neither
        stand was read."""
        ...


def observation_from_read(
    read: BoardReadLike,
    *,
    stable: bool,
    now: float,
    hand_confidence: float = SEEN_HANDS_CONFIDENCE,
    min_confidence: float | None = None,
) -> Observation:
    """The reconciler's view of one read: probabilities, hands keyed by SFEN letter (with the sides whose stand
    was read: one stand out of view leaves that player's hand unknown, the other still counts), unreliable squares.

    Args:
        read: the reader's result for one frame.
        stable: the motion gate's verdict for that frame.
        now: seconds on the injected clock.
        hand_confidence: confidence given to hand counts when the reader read the stands.
        min_confidence: the reader's `ReaderSettings.min_confidence` (pass the live setting): a flagged square
            whose top probability reaches it was flagged for being unseen, and is hidden. None: only a read's
            own `hidden` squares, or a wholly untrusted frame, are hidden.
    """
    if not read.board_found or read.probs is None or len(read.squares) != 81:
        flat = np.full((81, N_LABELS), 1.0 / N_LABELS)
        return Observation(flat, None, 0.0, frozenset(range(81)), stable, now)
    probs = np.clip(np.asarray(read.probs, dtype=np.float64), 0.0, None)
    sums = probs.sum(axis=1, keepdims=True)
    probs = np.where(sums > 0, probs / np.where(sums > 0, sums, 1.0), 1.0 / N_LABELS)
    unreliable = hidden_squares(read, min_confidence)
    doubted = doubted_squares(read, unreliable, min_confidence)
    rim = getattr(read, "rim", None)
    sides = frozenset(side for side in ("b", "w") if read.hands is not None and side in read.hands)
    if not sides:
        return Observation(probs, None, 0.0, unreliable, stable, now, doubted=doubted, rim=rim)
    hands = _hands_by_letter(read.hands or {}, sides)
    return Observation(
        probs, hands, hand_confidence, unreliable, stable, now, hand_sides=sides, doubted=doubted, rim=rim
    )


def _hands_by_letter(hands: Mapping[str, Mapping[str, int]], sides: frozenset[str]) -> dict[str, int]:
    """{"b": {"P": 2}, "w": {"G": 1}} -> {"P": 2, "g": 1}, for the stands of `sides` (the others are unknown)."""
    letters: dict[str, int] = {}
    for side in sides:
        for kind, count in hands[side].items():
            if kind.upper() not in HAND_KINDS or count <= 0:
                continue
            letter = kind.upper() if side == "b" else kind.lower()
            letters[letter] = letters.get(letter, 0) + int(count)
    return letters


def doubted_squares(read: BoardReadLike, hidden: frozenset[int], min_confidence: float | None) -> frozenset[int]:
    """The hidden squares flagged by the classifier's "unreadable" output alone: on a read that names its hidden
    squares, all of them; else those still read clearly (top probability at least the reader's `min_confidence`,
    or `DOUBT_CONFIDENCE`). None on a frame bad as a whole (every square hidden: too dark, blown out, no board),
    whose labels mean nothing.

    The reconciler weighs a doubted square once it has stayed so on still frames for `doubt_seconds`: a hand does
    not stay still over the board that long, a false alarm of the reader does. The reader names as hidden the
    unreadable squares it reads doubtfully too (`vision.reader.unseen_squares`), so they are doubted as well:
    hidden for good, a false alarm on a piece the reader is unsure of would hold a move back until the player
    is told."""
    if len(hidden) >= len(read.squares):
        return frozenset()
    if getattr(read, "hidden", None) is not None:
        return hidden
    limit = DOUBT_CONFIDENCE if min_confidence is None else min_confidence
    return frozenset(i for i in hidden if read.squares[i].p >= limit)


def hidden_squares(read: BoardReadLike, min_confidence: float | None) -> frozenset[int]:
    """Squares whose probabilities must be ignored: the read's own `hidden` squares when it names them, else
    every square when none is trusted (a bad frame), else (given the reader's `min_confidence`) the flagged
    squares whose flag neither a low top probability nor the set-limit count explains."""
    named = getattr(read, "hidden", None)
    if named is not None:
        return frozenset(int(i) for i in named)
    if not any(square.reliable for square in read.squares):
        return frozenset(range(len(read.squares)))  # the whole frame is bad (too dark, blown out)
    if min_confidence is None:
        return frozenset()
    over = _over_limit(_likeliest_labels(read))
    return frozenset(
        i
        for i, square in enumerate(read.squares)
        if not square.reliable and square.p >= min_confidence and i not in over
    )


def _likeliest_labels(read: BoardReadLike) -> list[str]:
    """Each square's likeliest label by its probabilities (the reader's own labels are bent to fit the set, so
    they no longer show which kinds were over the limit), or the read's labels when it has no probabilities."""
    if read.probs is None:
        return [square.label for square in read.squares]
    return [SQUARE_LABELS[int(j)] for j in np.argmax(read.probs, axis=1)]


def _over_limit(labels: Sequence[str]) -> set[int]:
    """Squares of a kind seen more often than a set holds."""
    by_kind: dict[str, list[int]] = {}
    for i, label in enumerate(labels):
        kind = label.lstrip("+").upper()
        if kind in SET_LIMITS:
            by_kind.setdefault(kind, []).append(i)
    return {i for kind, where in by_kind.items() if len(where) > SET_LIMITS[kind] for i in where}
