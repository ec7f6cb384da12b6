"""The strip round the grid (`vision.rim`): an arm reaching over the board's rim is seen there even when it hides
no square; light, sensor noise and pieces moved on the board leave it unchanged."""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import pytest

from vision.board import BoardGeometry
from vision.labels import square_name
from vision.orientation import sente_direction
from vision.reader import BoardReader, ReaderSettings
from vision.render import CameraPose, RenderOptions, render_scene
from vision.render.geometry import GRID_H_MM, SQUARE_W_MM
from vision.render.scene import Arm, Scene, scene_from_sfen
from vision.rim import RimView, rim_view

START = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -"
AFTER = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/LB5R1/1NSGKGSNL b -"  # 9i9h: a lance off the edge
OPTIONS = RenderOptions(style="kanji_light", seed=41, size=(960, 720), pose=CameraPose(tilt_deg=25, roll_deg=70))


def _scene(sfen: str, arm: Arm | None = None) -> Scene:
    return dataclasses.replace(scene_from_sfen(sfen, np.random.default_rng(3)), arm=arm)


def _geometry_and_rim(scene: Scene) -> tuple[BoardGeometry, RimView, list[int]]:
    frame = render_scene(scene, OPTIONS)
    read = BoardReader(settings=ReaderSettings(sente_side=sente_direction(frame.board_corners_px))).read(frame.image)
    assert read.geometry is not None and read.rim is not None
    return read.geometry, read.rim, list(frame.occluded_squares)


@pytest.fixture(scope="module")
def reference() -> tuple[BoardGeometry, RimView]:
    geometry, rim, _ = _geometry_and_rim(_scene(START))
    return geometry, rim


def test_fingers_over_the_rim_name_the_edge_squares_they_reach(reference: tuple[BoardGeometry, RimView]) -> None:
    """Fingertips 12 mm beyond rank i by file 5, the arm from sente's side: no square hidden, yet the rim by 5i
    differs, and no rim on the other three sides."""
    arm = Arm((4.5 * SQUARE_W_MM, GRID_H_MM + 12.0), from_deg=0.0, height_mm=35.0, width_mm=85.0)
    frame = render_scene(_scene(START, arm), OPTIONS)
    assert not frame.occluded_squares
    changed = {square_name(i) for i in rim_view(frame.image, reference[0]).changed_since(reference[1])}
    assert "5i" in changed
    assert changed <= {f"{f}i" for f in range(1, 10)}


def test_light_noise_and_moves_leave_the_rim_unchanged(reference: tuple[BoardGeometry, RimView]) -> None:
    """The same board dimmed by a fifth, with sensor noise and JPEG artefacts, and after a lance left the edge
    square 9i: no edge square's rim has changed."""
    geometry, rim = reference
    image = render_scene(_scene(AFTER), OPTIONS).image
    noisy = np.clip(image * 0.8 + np.random.default_rng(0).normal(0, 8, image.shape), 0, 255).astype(np.uint8)
    jpeg = cv2.imdecode(cv2.imencode(".jpg", noisy, [cv2.IMWRITE_JPEG_QUALITY, 70])[1], cv2.IMREAD_COLOR)
    assert rim_view(jpeg, geometry).changed_since(rim) == frozenset()


def test_a_rim_outside_the_frame_says_nothing(reference: tuple[BoardGeometry, RimView]) -> None:
    """Segments not wholly inside the picture never count as changed, whatever they show."""
    geometry, rim = reference
    blank = np.zeros((720, 960, 3), dtype=np.uint8)
    moved = dataclasses.replace(rim_view(blank, geometry), inside=np.zeros(36, dtype=np.bool_))
    assert moved.changed_since(rim) == frozenset()
