"""Ground-truth geometry of the virtual camera: corners and homography are where the drawn grid is."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.render import GRID_H_MM, GRID_W_MM, SQUARE_H_MM, SQUARE_W_MM, CameraPose, RenderOptions, render_position
from vision.render.geometry import GRID_CORNERS_MM, Camera, apply_homography

EMPTY_BOARD = "9/9/9/9/9/9/9/9/9 b - 1"


def _line_contrast(image: np.ndarray, homography: np.ndarray) -> float:
    """Mean grey at square centres minus mean grey on the 20 grid lines (sampled between intersections)."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(float)
    on_line = []
    t = np.linspace(0.2, 0.8, 5)
    for i in range(10):
        for j in range(9):
            on_line += [(i * SQUARE_W_MM, (j + f) * SQUARE_H_MM) for f in t]
            on_line += [((j + f) * SQUARE_W_MM, i * SQUARE_H_MM) for f in t]
    centres = [((c + 0.5) * SQUARE_W_MM, (r + 0.5) * SQUARE_H_MM) for r in range(9) for c in range(9)]

    def sample(points: list[tuple[float, float]]) -> float:
        px = np.round(apply_homography(homography, np.array(points))).astype(int)
        return float(grey[px[:, 1], px[:, 0]].mean())

    return sample(centres) - sample(on_line)


def test_overhead_corners_are_in_sente_order() -> None:
    """Seen from above with sente at the bottom, the corners are 9a top-left, 1a top-right, 1i and 9i below."""
    r = render_position(EMPTY_BOARD, RenderOptions.fast(seed=0, pose=CameraPose.overhead(), size=(640, 480)))
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = r.board_corners_px
    assert x0 < x1 and abs(y0 - y1) < 1e-6
    assert y2 > y1 and abs(x2 - x1) < 1e-6
    assert x3 < x2 and abs(y3 - y2) < 1e-6
    height, width = y2 - y1, x1 - x0
    assert height / width == pytest.approx(GRID_H_MM / GRID_W_MM)


def test_grid_lines_are_dark_where_the_homography_puts_them_overhead() -> None:
    """Overhead: pixels on the projected grid lines are much darker than the square centres."""
    r = render_position(EMPTY_BOARD, RenderOptions.fast(seed=1, pose=CameraPose.overhead(), size=(1280, 960)))
    assert _line_contrast(r.image, r.homography) > 40
    quarter = np.array([[1, 0, SQUARE_W_MM / 4], [0, 1, SQUARE_H_MM / 4], [0, 0, 1]])
    assert abs(_line_contrast(r.image, r.homography @ quarter)) < 15  # a wrong homography finds no lines


@pytest.mark.parametrize("seed", [2, 3, 4, 5])
def test_grid_lines_match_under_random_poses(seed: int) -> None:
    """Tilted and rotated cameras: the projected grid lines still land on the drawn ones."""
    r = render_position(EMPTY_BOARD, RenderOptions.fast(seed=seed, size=(800, 600)))
    assert _line_contrast(r.image, r.homography) > 30


def test_grid_homography_maps_the_unit_square_to_the_corners() -> None:
    """`grid_homography` takes (0,0), (1,0), (1,1), (0,1) to the four corners."""
    r = render_position("startpos", RenderOptions.fast(seed=6, size=(640, 480)))
    unit = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], dtype=float)
    assert np.allclose(apply_homography(r.grid_homography, unit), r.board_corners_px, atol=1e-6)


def test_random_poses_keep_the_whole_board_in_view() -> None:
    """Random poses fitted to a picture size never push the board's grid out of the picture."""
    for seed in range(60):
        for size in ((640, 480), (1280, 960)):
            pose = CameraPose.random(np.random.default_rng(seed), size=size)
            corners = apply_homography(Camera.from_pose(pose, size).homography(), GRID_CORNERS_MM)
            assert corners.min() >= 0
            assert corners[:, 0].max() <= size[0] and corners[:, 1].max() <= size[1]


def test_lens_distortion_ground_truth_follows_the_bent_lines() -> None:
    """With barrel distortion, `to_image` (and the corners) land on the bowed grid lines; the bare homography
    is then off by several pixels near the edges."""
    pose = CameraPose(fill=0.95, roll_deg=20.0, tilt_deg=10.0)
    options = RenderOptions.fast(seed=3, size=(800, 600), distortion=0.12, lighting=0.0, pose=pose)
    r = render_position(EMPTY_BOARD, options)
    grey = cv2.cvtColor(r.image, cv2.COLOR_BGR2GRAY).astype(float)
    edge = np.array([(x * SQUARE_W_MM / 4, 0.0) for x in range(37)])  # along the top frame line
    on = np.round(r.to_image(edge)).astype(int)
    pinhole = np.round(apply_homography(r.homography, edge)).astype(int)
    centres = np.round(r.square_centres_px()).astype(int)
    wood = grey[centres[:, 1], centres[:, 0]].mean()
    assert wood - grey[on[:, 1], on[:, 0]].mean() > 40
    assert np.abs(on - pinhole).max() > 3
    assert np.allclose(r.board_corners_px[0], r.to_image(np.array([[0.0, 0.0]]))[0])


def test_stands_in_view_keeps_both_stands_in_the_picture() -> None:
    """`stands_in_view` fits random poses so that both stand regions are inside the picture."""
    for seed in range(8):
        r = render_position(EMPTY_BOARD, RenderOptions.fast(seed=seed, size=(640, 480), stands_in_view=True))
        for region in r.stand_regions_px.values():
            assert region.min() >= 0 and region[:, 0].max() <= 640 and region[:, 1].max() <= 480
