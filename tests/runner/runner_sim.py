"""Helpers of the runner's simulated-game tests (imported as `runner_sim`): eyes that read the virtual board's
ground truth through the synthetic reader, for tests of everything but the image reader."""

from __future__ import annotations

from typing import Any

import numpy as np

from controller.reconcile.labels import HAND_KINDS, LABEL_INDEX
from controller.reconcile.synthetic import NoiseModel, SyntheticReader
from controller.reconcile.types import Observation
from controller.runner.eyes import unstable
from controller.sim import InGripper, InHand


class TruthEyes:
    """Observations of the virtual board's resting pieces with the synthetic reader's noise; unstable while a
    person's arm is over the board or a piece is in a hand or the gripper. Also renders nothing."""

    def __init__(self, camera: Any, sente_side: float | None = None, seed: int = 5) -> None:
        self.board = camera.board
        self.reader = SyntheticReader(seed, NoiseModel())
        self.frames = self.reads = 0
        self.last_frame = None

    def look(self, now: float) -> Observation:
        self.frames += 1
        moving = self.board.arm is not None or any(
            isinstance(p.place, InGripper | InHand) for p in self.board.pieces().values()
        )
        if moving:
            return unstable(now)
        labels, hands = self.board.ground_truth()
        self.reads += 1
        indices = np.array([LABEL_INDEX[label] for label in labels], dtype=np.int64)
        counts = tuple(hands.get(k, 0) for k in HAND_KINDS) + tuple(hands.get(k.lower(), 0) for k in HAND_KINDS)
        return self.reader.observe(indices, counts, now)
