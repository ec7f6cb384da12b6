"""The composition root: explicit real/fake choice, and the emergency stop wiring."""

from __future__ import annotations

import dataclasses
import sys

import pytest

from controller import compose
from hardware.errors import GpioError
from hardware.gpio_fake import FakeGpio
from hardware.gpio_settings import GpioBackendKind
from hardware.settings import load_settings


class ManualClock:
    def now(self) -> float:
        return 0.0


class HoldRecorder:
    def __init__(self) -> None:
        self.holds = 0

    def hold(self) -> None:
        self.holds += 1


def test_fake_backend_is_built_when_the_config_says_fake() -> None:
    """`backend = "fake"` gives the recording fake."""
    assert isinstance(compose.gpio_backend(load_settings(None).gpio), FakeGpio)


def test_real_backend_fails_loudly_without_rpi_gpio(monkeypatch: pytest.MonkeyPatch) -> None:
    """`backend = "rpi"` without the RPi.GPIO module is an error naming the package, not a silent fake."""
    monkeypatch.setitem(sys.modules, "RPi.GPIO", None)
    settings = dataclasses.replace(load_settings(None).gpio, backend=GpioBackendKind.RPI)
    with pytest.raises(GpioError, match="rpi-lgpio"):
        compose.gpio_backend(settings)


def test_emergency_stop_holds_the_gantry_and_switches_outputs_off() -> None:
    """Pressing the e-stop sends a feed hold, switches the Pi-driven gripper off and lights the error LED."""
    gpio = FakeGpio(ManualClock())
    settings = dataclasses.replace(load_settings(None).gpio, gripper_pin=23)
    gantry = HoldRecorder()
    devices = compose.panel(gpio, settings, gantry, on_move_done=lambda _s: None, on_clock=lambda _s: None)
    assert devices.gripper is not None
    devices.gripper.on()
    gpio.press(26)
    assert gantry.holds == 1
    assert devices.gripper.is_on is False
    assert devices.leds["error"].is_on and not devices.leds["ready"].is_on


def test_vision_threads_hold_opencv_and_blas_to_the_setting() -> None:
    """It should let OpenCV and numpy's BLAS use the configured threads, and refuse fewer than one."""
    import cv2
    from threadpoolctl import threadpool_info, threadpool_limits

    before = cv2.getNumThreads()
    with threadpool_limits(limits=None):  # puts the BLAS threads back as they were on leaving
        try:
            compose.vision_threads(1)
            assert cv2.getNumThreads() == 1
            blas = [pool["num_threads"] for pool in threadpool_info() if pool["user_api"] == "blas"]
            assert blas and all(threads == 1 for threads in blas)
            with pytest.raises(ValueError, match="at least 1"):
                compose.vision_threads(0)
        finally:
            cv2.setNumThreads(before)


def test_a_replay_reads_with_the_products_default_threads() -> None:
    """A replay (`shogi-robot replay`, `bench game`) should load its reader with OpenCV held to `[vision] threads`'
    default, as a game runs it, whatever the process had before."""
    import cv2
    from threadpoolctl import threadpool_limits

    from controller.cli.replay_cmd import load_classifier
    from controller.config import VisionConfig

    before = cv2.getNumThreads()
    with threadpool_limits(limits=None):
        try:
            cv2.setNumThreads(2)
            load_classifier()
            assert cv2.getNumThreads() == VisionConfig().threads == 1
        finally:
            cv2.setNumThreads(before)
