"""The evidence window: per-square log-probabilities accumulated over the latest stable frames.

Owns: turning a run of stable observations into one (81, 29) table of mean log-probabilities, ignoring each
frame's unreliable squares, and the per-square summaries the decision needs (best label, its confidence,
squares no frame has seen).
"""

from __future__ import annotations

import itertools
from collections import Counter, deque
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from controller.reconcile.labels import Hands, hands_from_mapping, slot_side, stand_slots
from controller.reconcile.types import Observation

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True, eq=False)
class Evidence:
    """What the window says.

    Attributes:
        log_probs: (81, 29) mean log-probability per square and label (0 everywhere on unseen squares).
        best: (81,) label index with the highest mean log-probability.
        occupancy_log_probs: (81, 3) mean log-probability of a sente piece, a gote piece, and empty.
        occupancy: (81,) the most likely of those three classes.
        confidence: (81,) geometric-mean probability of that class (1.0 on unseen squares): low when the
            reader cannot tell whether, or whose, a piece stands there (a knocked-over piece, one off its square).
        occupied: (81,) geometric-mean probability that some piece (either player's) stands there (1.0 on unseen
            squares): high for a piece whose owner alone the reader is unsure of.
        unseen: squares no frame in the window could read.
        frames: frames in the window.
        hands: per hand slot, the count read most often over the window's frames that read that slot's stand
            (the latest among equally frequent ones); 0 in the slots of a stand the latest frame could not read;
            None when the latest frame could read neither stand.
        hand_sides: (sente's, gote's) stand was read by the latest frame (each stand is read on its own).
        hand_confidence: the latest frame's confidence in its counts.
        first_time: time of the oldest frame in the window.
    """

    log_probs: FloatArray
    best: npt.NDArray[np.int64]
    occupancy_log_probs: FloatArray
    occupancy: npt.NDArray[np.int64]
    confidence: FloatArray
    occupied: FloatArray
    unseen: frozenset[int]
    frames: int
    hands: Hands | None
    hand_sides: tuple[bool, bool]
    hand_confidence: float
    first_time: float


class EvidenceWindow:
    """A sliding window of stable frames; an unstable frame clears it."""

    def __init__(self, size: int, floor: float) -> None:
        self._size = size
        self._floor = floor
        self._logs: deque[FloatArray] = deque(maxlen=size)
        self._occupancy_logs: deque[FloatArray] = deque(maxlen=size)
        self._masks: deque[FloatArray] = deque(maxlen=size)
        self._times: deque[float] = deque(maxlen=size)
        self._hands: deque[tuple[Hands, tuple[bool, bool]] | None] = deque(maxlen=size)
        self._hand_confidence = 0.0

    def clear(self) -> None:
        """Forget every frame."""
        self._logs.clear()
        self._occupancy_logs.clear()
        self._masks.clear()
        self._times.clear()
        self._hands.clear()

    def __len__(self) -> int:
        return len(self._logs)

    def add(self, obs: Observation) -> None:
        """Add a stable frame (the oldest drops out when the window is full)."""
        mask = np.ones((81, 1), dtype=np.float64)
        if obs.unreliable:
            mask[sorted(obs.unreliable)] = 0.0
        self._logs.append(np.log(np.maximum(obs.probs, self._floor)) * mask)
        sente, gote = obs.probs[:, :14].sum(axis=1), obs.probs[:, 14:28].sum(axis=1)
        occupancy = np.stack([sente, gote, obs.probs[:, 28], sente + gote], 1)
        self._occupancy_logs.append(np.log(np.maximum(occupancy, self._floor)) * mask)
        self._masks.append(mask)
        self._times.append(obs.time)
        sides = ("b" in obs.hand_sides, "w" in obs.hand_sides)
        self._hands.append(None if obs.hands is None else (hands_from_mapping(obs.hands), sides))
        self._hand_confidence = obs.hand_confidence if obs.hands is not None else 0.0

    def evidence(self) -> Evidence:
        """The window's summary (at least one frame must have been added)."""
        seen = _frame_sum(self._masks)
        total = _frame_sum(self._logs)
        log_probs = np.where(seen > 0, total / np.maximum(seen, 1.0), 0.0)
        occupancy_logs = np.where(seen > 0, _frame_sum(self._occupancy_logs) / np.maximum(seen, 1.0), 0.0)
        occupied = np.exp(occupancy_logs[:, 3])
        occupancy_logs = occupancy_logs[:, :3]
        occupancy = np.argmax(occupancy_logs, axis=1)
        confidence = np.exp(occupancy_logs[np.arange(81), occupancy])
        unseen_mask = seen[:, 0] == 0
        confidence[unseen_mask] = 1.0
        occupied[unseen_mask] = 1.0
        return Evidence(
            log_probs=log_probs,
            best=np.argmax(log_probs, axis=1),
            occupancy_log_probs=occupancy_logs,
            occupancy=occupancy,
            confidence=confidence,
            occupied=occupied,
            unseen=frozenset(int(i) for i in np.flatnonzero(unseen_mask)),
            frames=len(self._logs),
            hands=self._voted_hands(),
            hand_sides=(False, False) if not self._hands or self._hands[-1] is None else self._hands[-1][1],
            hand_confidence=self._hand_confidence,
            first_time=self._times[0],
        )

    def _voted_hands(self) -> Hands | None:
        """Each slot's most frequent count over the frames that read its stand (a one-frame misread of a stand
        is outvoted); 0 for a stand the latest frame could not read; None when it could read neither."""
        if not self._hands or self._hands[-1] is None:
            return None
        latest_sides = self._hands[-1][1]
        frames = [h for h in self._hands if h is not None]
        by_side = [[hands for hands, sides in frames if sides[side]] for side in (0, 1)]
        voted = []
        agreed = [len({hands[stand_slots(side)] for hands in by_side[side]}) == 1 for side in (0, 1)]
        for slot in range(len(self._hands[-1][0])):
            side = slot_side(slot)
            if not latest_sides[side]:
                voted.append(0)
                continue
            read = by_side[side]
            if agreed[side]:  # every frame read this stand alike (the usual case): that count wins the vote
                voted.append(read[-1][slot])
                continue
            counts = Counter(hands[slot] for hands in read)
            top = max(counts.values())
            voted.append(next(hands[slot] for hands in reversed(read) if counts[hands[slot]] == top))
        return tuple(voted)


def _frame_sum(frames: deque[FloatArray]) -> FloatArray:
    """The frames added one after the other (what `np.sum(frames, axis=0)` gives, without stacking them)."""
    total = frames[0].copy()
    for frame in itertools.islice(frames, 1, None):
        total += frame
    return total
