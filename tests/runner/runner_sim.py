"""Helpers of the runner's simulated-game tests (imported as `runner_sim`): eyes that read the virtual board's
ground truth through the synthetic reader, for tests of everything but the image reader; and the real reader,
learning the set, before a virtual camera's start (`learning_reader_at_start`)."""

from __future__ import annotations

from typing import Any

import numpy as np

from controller.reconcile.labels import HAND_KINDS, LABEL_INDEX
from controller.reconcile.synthetic import NoiseModel, SyntheticReader
from controller.reconcile.types import Observation
from controller.runner.eyes import unstable
from controller.sim import InGripper, InHand
from vision.square_prior import SQUARE_PRIOR


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


def learning_reader_at_start(
    *, again: bool = False, shifted_looks: bool = True, lookalikes: bool = True, square_prior: float = SQUARE_PRIOR
) -> tuple[Any, Any, Any, Any]:
    """The real reader learning the set (`StartLearningReader`) of a held-out style (ryoko_1kanji) that the
    generic classifier reads poorly, a virtual camera's frame of the start (not read yet), the board geometry
    and the camera look: (reader, start frame, geometry, look). `shifted_looks`, `lookalikes`, `square_prior`:
    the `ReaderSettings` of those names."""
    from controller.rules.positions import STARTPOS_SFEN
    from controller.runner.set_learning import StartLearningReader, vision_learn
    from controller.sim import CameraSettings, VirtualBoard, VirtualCamera
    from hardware.settings import load_settings
    from vision.classifier import PieceClassifier
    from vision.orientation import sente_direction
    from vision.reader import BoardReader, ReaderSettings

    geometry = load_settings(None).geometry
    look = CameraSettings(style="ryoko_1kanji", seed=8, size=(800, 600))
    start = VirtualCamera(VirtualBoard(geometry, STARTPOS_SFEN, seed=8), look)
    frame = start.read()
    assert start.last is not None
    side = sente_direction(start.last.board_corners_px)
    settings = ReaderSettings(
        sente_side=side, shifted_looks=shifted_looks, lookalikes=lookalikes, square_prior=square_prior
    )
    reader = StartLearningReader(BoardReader(PieceClassifier(), settings), vision_learn(PieceClassifier), again=again)
    return reader, frame, geometry, look
