"""The motion gate: still frames pass after a short run, a moving hand blocks, a reset starts over."""

from __future__ import annotations

import numpy as np
import pytest

from vision.motion import MotionGate


def _frame(offset: int = 0, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    image = np.full((480, 640, 3), 170, np.uint8)
    image += rng.integers(0, 3, image.shape, dtype=np.uint8)  # sensor noise
    image[100:380, 150 + offset : 430 + offset] = 90
    return image


def test_still_scene_becomes_stable() -> None:
    """The same scene (with sensor noise) is stable from the third frame on."""
    gate = MotionGate(still_frames=2)
    results = [gate.update(_frame(seed=i)) for i in range(4)]
    assert results == [False, False, True, True]


def test_moving_object_is_not_stable() -> None:
    """A block that moves between frames keeps the gate closed."""
    gate = MotionGate()
    results = [gate.update(_frame(offset=8 * i)) for i in range(5)]
    assert not any(results)


def test_motion_restarts_the_count() -> None:
    """After movement the gate needs fresh still frames again."""
    gate = MotionGate(still_frames=2)
    for _ in range(3):
        gate.update(_frame())
    assert not gate.update(_frame(offset=40))
    assert not gate.update(_frame(offset=40))
    assert gate.update(_frame(offset=40))


def test_reset_forgets_history() -> None:
    """After reset the first frame is never stable."""
    gate = MotionGate(still_frames=1)
    gate.update(_frame())
    assert gate.update(_frame())
    gate.reset()
    assert not gate.update(_frame())


def test_bad_settings_rejected() -> None:
    """Nonsense thresholds are refused at construction."""
    with pytest.raises(ValueError, match="motion gate"):
        MotionGate(pixel_delta=0)
