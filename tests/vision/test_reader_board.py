"""Finding the 9×9 grid: the real photo, rendered frames under rotation and perspective, an arm over the board,
a board cropped to its grid or cut at its outer lines (`vision.cut_edges`, `find_board`'s bordered search), and
images that hold no board."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

import vision.board
from vision.board import BoardGeometry, check_board, find_board, to_gray
from vision.cut_edges import LINED, lined_edge, lined_fractions
from vision.render import CameraPose, RenderOptions, render_position

PHOTO = Path("../shared/data/photos/startpos-wooden-overhead.jpg")
START = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -"
MIDGAME = "ln1g3nl/1ks2rg2/1ppp1s1p1/p3ppp1p/9/P1PP1PP1P/1PS1PS3/1KG2G1R1/LN5NL b BPbp"
# Grid corners of the real photo, checked by eye on an overlay of the found lines (pixels, 800×800 image).
PHOTO_CORNERS = np.array([[56.0, 36.0], [741.0, 26.0], [737.0, 765.0], [61.0, 760.0]])


def corner_error(found: BoardGeometry, truth: np.ndarray) -> float:
    """Largest corner distance in pixels, over the four ways the grid's labels may be turned."""
    return min(float(np.abs(np.roll(found.corners, k, axis=0) - truth).max()) for k in range(4))


def test_real_photo_grid_found() -> None:
    """The real wooden set's grid is found where the lines are."""
    image = cv2.imread(str(PHOTO))
    found = find_board(image)
    assert found is not None
    assert corner_error(found, PHOTO_CORNERS) < 6


def test_cropped_board_found() -> None:
    """A picture cropped to the grid (outer lines a few pixels from the edges) still reads."""
    image = cv2.imread(str(PHOTO))[22:775, 46:752]
    found = find_board(image)
    assert found is not None
    assert corner_error(found, PHOTO_CORNERS - [46, 22]) < 6


def _cut(image: np.ndarray, corners: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The picture cut to the box of the grid's corners (the outer lines at or through its edges), and the
    corners in the cut picture's pixels."""
    x0, y0 = np.floor(corners.min(axis=0)).astype(int)
    x1, y1 = np.ceil(corners.max(axis=0)).astype(int)
    return image[y0:y1, x0:x1], corners - [x0, y0]


def test_real_photo_cut_at_its_grid_found() -> None:
    """The real photo cut at its outer grid lines (three of them run along the cut edges) is found where the
    lines are, and a later frame's check measures the support the grid was found with."""
    image, corners = _cut(cv2.imread(str(PHOTO)), PHOTO_CORNERS)
    assert lined_edge(to_gray(image))
    found = find_board(image)
    assert found is not None
    assert corner_error(found, corners) < 3
    assert check_board(image, found) == pytest.approx(found.support)


@pytest.mark.parametrize("style", ["orangain", "kanji_light", "ryoko_1kanji"])
def test_overhead_render_cut_at_its_grid_found(style: str) -> None:
    """A board photographed from straight above and cut at its outer grid lines, on every side, is found."""
    frame = render_position(MIDGAME, RenderOptions(style=style, seed=2, size=(960, 720), pose=CameraPose.overhead(0.9)))
    image, corners = _cut(frame.image, frame.board_corners_px)
    assert min(lined_fractions(to_gray(image))) >= LINED
    found = find_board(image)
    assert found is not None
    assert corner_error(found, corners) < 3


def test_pictures_with_no_line_along_an_edge_are_not_searched_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bordered search runs only where a line hugs an edge: not for the uncut photo (found at once), nor for
    noise, a blank picture or a board well inside the frame under a hand; a picture of noise is not lined."""
    calls: list[tuple[int, ...]] = []
    search = vision.board._search_bordered

    def counted(gray: np.ndarray) -> BoardGeometry | None:
        calls.append(gray.shape)
        return search(gray)

    monkeypatch.setattr("vision.board._search_bordered", counted)
    noise = np.random.default_rng(0).integers(0, 256, (480, 640, 3), dtype=np.uint8)
    assert not lined_edge(to_gray(noise))
    assert find_board(noise) is None
    assert find_board(np.full((480, 640, 3), 128, np.uint8)) is None
    assert find_board(cv2.imread(str(PHOTO))) is not None
    hand = render_position(MIDGAME, RenderOptions(style="kanji_brown", seed=4, size=(640, 480), hand=True))
    assert not lined_edge(to_gray(hand.image))
    find_board(hand.image)
    assert calls == []


@pytest.mark.parametrize(
    "seed",
    [1, 2, 5, 8],
)
def test_grid_under_random_pose(seed: int) -> None:
    """Random camera roll and tilt up to 45°: the grid comes out where the renderer put it."""
    frame = render_position(
        MIDGAME, RenderOptions.fast(style="kanji_brown", seed=seed, size=(640, 480), pose=_pose(seed))
    )
    found = find_board(frame.image)
    assert found is not None
    assert corner_error(found, frame.board_corners_px) < 0.01 * 640


def _pose(seed: int) -> CameraPose:
    rng = np.random.default_rng(seed)
    return CameraPose(
        tilt_deg=float(rng.uniform(20, 45)),
        tilt_dir_deg=float(rng.uniform(0, 360)),
        roll_deg=float(rng.uniform(-180, 180)),
        fill=0.75,
    )


def test_arm_over_board_never_gives_wrong_grid() -> None:
    """With an arm over the board the finder returns the right grid or none, never a shifted one."""
    for seed in (3, 4):
        frame = render_position(
            START, RenderOptions.fast(style="orangain", seed=seed, size=(640, 480), pose=_pose(seed), hand=True)
        )
        found = find_board(frame.image)
        assert found is None or corner_error(found, frame.board_corners_px) < 0.01 * 640


def test_board_cut_by_frame_edge_not_found() -> None:
    """A board whose far ranks are outside the picture is not reported as a board."""
    pose = CameraPose(tilt_deg=10, fill=1.2, cy=0.25)
    frame = render_position(START, RenderOptions.fast(style="kanji_light", seed=1, size=(640, 480), pose=pose))
    found = find_board(frame.image)
    assert found is None or corner_error(found, frame.board_corners_px) < 0.01 * 640


@pytest.mark.parametrize(
    "image",
    [
        np.zeros((480, 640, 3), np.uint8),
        np.full((480, 640, 3), 255, np.uint8),
        np.full((480, 640, 3), 128, np.uint8),
        np.random.default_rng(0).integers(0, 256, (480, 640, 3), dtype=np.uint8),
        np.zeros((40, 50, 3), np.uint8),
    ],
    ids=["black", "white", "gray", "noise", "tiny"],
)
def test_no_board_in_plain_images(image: np.ndarray) -> None:
    """Black, white, flat gray, noise and tiny images hold no board."""
    assert find_board(image) is None


def test_check_drops_when_board_moves() -> None:
    """The cheap check keeps its support on the same frame and loses it when the picture shifts."""
    image = cv2.imread(str(PHOTO))
    found = find_board(image)
    assert found is not None
    assert check_board(image, found) > 0.9 * found.support
    shifted = np.roll(image, (25, 30), axis=(0, 1))
    assert check_board(shifted, found) < 0.5 * found.support
