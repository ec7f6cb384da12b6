"""`hardware.camera.Picamera2Camera` against a stand-in picamera2 module (no Pi here): frames come out BGR uint8,
and each way picamera2 fails to load or start is a `CameraError` that says what to do."""

from __future__ import annotations

import sys
import types
from typing import Any

import numpy as np
import pytest

from hardware.camera import CameraError, Picamera2Camera


class _FakePicamera2:
    """Records what the driver asked for; `capture_array` gives a 4-channel frame as picamera2's XRGB formats do."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, Any]] = []

    def create_video_configuration(self, main: dict[str, Any]) -> dict[str, Any]:
        self.calls.append(("config", main))
        return {"main": main}

    def configure(self, config: dict[str, Any]) -> None:
        self.calls.append(("configure", config))

    def start(self) -> None:
        self.calls.append(("start", None))

    def capture_array(self, stream: str) -> np.ndarray:
        width, height = self.calls[0][1]["size"]
        frame = np.zeros((height, width, 4), np.uint8)
        frame[..., :3] = (10, 20, 30)
        return frame


def _module(**attrs: Any) -> types.ModuleType:
    module = types.ModuleType("picamera2")
    for name, value in attrs.items():
        setattr(module, name, value)
    return module


def test_frames_are_contiguous_three_channel_uint8(monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[_FakePicamera2] = []

    def recorded() -> _FakePicamera2:
        made.append(_FakePicamera2())
        return made[-1]

    monkeypatch.setitem(sys.modules, "picamera2", _module(Picamera2=recorded))
    camera = Picamera2Camera(size=(64, 48))
    frame = camera.read()
    assert frame.shape == (48, 64, 3) and frame.dtype == np.uint8 and frame.flags["C_CONTIGUOUS"]
    assert frame[0, 0].tolist() == [10, 20, 30]
    (fake,) = made
    assert fake.calls[0] == ("config", {"size": (64, 48), "format": "RGB888"})
    assert [name for name, _ in fake.calls[1:3]] == ["configure", "start"]


def test_picamera2_missing_says_how_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "picamera2", None)
    with pytest.raises(CameraError, match="apt install python3-picamera2"):
        Picamera2Camera()


def test_numpy_abi_mismatch_says_to_install_the_pi_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(name: str) -> Any:
        raise ValueError("numpy.dtype size changed, may indicate binary incompatibility")

    module = _module()
    module.__getattr__ = broken  # type: ignore[method-assign]
    monkeypatch.setitem(sys.modules, "picamera2", module)
    with pytest.raises(CameraError, match=r"numpy.*\.\[pi\]"):
        Picamera2Camera()


def test_a_camera_that_will_not_start_is_a_camera_error(monkeypatch: pytest.MonkeyPatch) -> None:
    class NoCamera(_FakePicamera2):
        def start(self) -> None:
            raise RuntimeError("Camera __init__ sequence did not complete.")

    monkeypatch.setitem(sys.modules, "picamera2", _module(Picamera2=NoCamera))
    with pytest.raises(CameraError, match="cannot start the Pi camera: Camera __init__"):
        Picamera2Camera()
