"""VirtualCamera: frames of the board as it is now; still scenes are not re-rendered; real camera classes."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from controller.sim import CameraSettings, SimError, VirtualBoard, VirtualCamera
from hardware.camera import CameraError, FileCamera
from hardware.settings import load_settings
from vision.motion import MotionGate
from vision.render import Arm

GEOMETRY = load_settings(None).geometry


def test_still_scene_frames_vary_a_little_and_pass_the_motion_gate() -> None:
    """Frames of an unchanged board differ by noise only: rendered once, and the motion gate calls them still."""
    board = VirtualBoard(GEOMETRY, seed=1)
    camera = VirtualCamera(board, CameraSettings(size=(400, 300), seed=1))
    gate = MotionGate()
    frames = [camera.read() for _ in range(4)]
    verdicts = [gate.update(f) for f in frames]
    assert frames[0].shape == (300, 400, 3) and frames[0].dtype == np.uint8
    assert camera.renders == 1
    assert not np.array_equal(frames[0], frames[1])
    assert verdicts[-1]


def test_an_arm_over_the_board_is_seen_as_motion() -> None:
    """An arm reaching in changes the frame enough for the motion gate to say unstable."""
    board = VirtualBoard(GEOMETRY, seed=2)
    camera = VirtualCamera(board, CameraSettings(size=(400, 300), seed=2))
    gate = MotionGate()
    for _ in range(3):
        gate.update(camera.read())
    board.arm = Arm((150.0, 200.0), 0.0)
    assert not gate.update(camera.read())
    assert camera.renders == 2
    assert camera.last is not None and camera.last.occluded_squares


def test_unknown_style_is_refused() -> None:
    """A style the renderer does not have is a clear error."""
    with pytest.raises(SimError, match="unknown piece style"):
        CameraSettings(style="no_such_style")


def test_sprites_from_a_folder_are_photographed(tmp_path: Path) -> None:
    """A set drawn elsewhere (`style_dir`, as the development font styles) is rendered under its own name; a
    folder that is not there is a clear error."""
    import shutil

    folder = tmp_path / "my_set"
    shutil.copytree(Path("vision/assets/pieces/kanji_light"), folder)
    board = VirtualBoard(GEOMETRY, seed=3)
    copied = VirtualCamera(board, CameraSettings(style="my_set", style_dir=folder, size=(400, 300), seed=3))
    shipped = VirtualCamera(board, CameraSettings(style="kanji_light", size=(400, 300), seed=3))
    other = VirtualCamera(board, CameraSettings(style="simple_kanji", size=(400, 300), seed=3))
    frames = [camera.read() for camera in (copied, shipped, other)]
    assert np.array_equal(frames[0], frames[1])  # the same sprites under another name: the same picture
    assert not np.array_equal(frames[1], frames[2])
    with pytest.raises(SimError, match="not a directory"):
        CameraSettings(style="my_set", style_dir=tmp_path / "missing")


def test_file_camera_reads_images_in_order(tmp_path: Path) -> None:
    """FileCamera returns its images in order, then repeats the last; missing files are named."""
    import cv2

    paths = []
    for value in (10, 200):
        path = tmp_path / f"{value}.png"
        cv2.imwrite(str(path), np.full((20, 30, 3), value, np.uint8))
        paths.append(path)
    camera = FileCamera(paths)
    assert [int(camera.read()[0, 0, 0]) for _ in range(3)] == [10, 200, 200]
    with pytest.raises(CameraError, match=r"nope\.png"):
        FileCamera([tmp_path / "nope.png"])


def test_real_cameras_fail_with_a_clear_error() -> None:
    """A V4L2 camera that is not there, and the Pi camera without picamera2, raise CameraError saying why."""
    import importlib.util

    from hardware.camera import OpenCvCamera, Picamera2Camera

    with pytest.raises(CameraError, match="cannot open camera 63"):
        OpenCvCamera(63)
    if importlib.util.find_spec("picamera2") is None:
        with pytest.raises(CameraError, match="picamera2 is not installed"):
            Picamera2Camera()
