"""Grid finding on steep, turned views, and what the grid test refuses (`vision.board`)."""

from __future__ import annotations

import numpy as np
import pytest

from vision.board import BoardGeometry, confirm_grid, find_board
from vision.line_support import GRID_CORNERS
from vision.render import CameraPose, RenderOptions, render_position

STARTPOS_BOARD = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
STEEP_CASES = {
    "tilt36_turned62": (
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2",
        "kanji_brown",
        77564,
        CameraPose(
            tilt_deg=36.324704641752106,
            tilt_dir_deg=62.23969613342521,
            roll_deg=-145.4405316795414,
            fill=0.6426880698126283,
            cx=-0.004756747217696292,
            cy=-0.005834861840569311,
            fov_deg=51.622181894659676,
        ),
    ),
    "tilt36_turned210": (
        "ln1gkgsnl/1r1s3b1/ppppppppp/9/9/2P6/PP1PPPPPP/1BS4R1/LN1GKGSNL w - 4",
        "shogi_cz",
        77251,
        CameraPose(
            tilt_deg=36.44085379256073,
            tilt_dir_deg=209.7937455264113,
            roll_deg=-16.408195370039437,
            fill=0.7071857131732441,
            cx=-0.032325799715550704,
            cy=-0.05238928993371686,
            fov_deg=40.521328777058805,
        ),
    ),
    "tilt33_turned99": (
        "lnsg3nl/1r1k2gs1/2ppp2P1/p7P/5ppp1/PPP6/2GPP4/1p1S3R1/LN1GK1SNL w BPb2p 38",
        "shogi_cz",
        77107,
        CameraPose(
            tilt_deg=32.62635864858462,
            tilt_dir_deg=99.18573582542369,
            roll_deg=155.41877818290874,
            fill=0.5652592774065485,
            cx=0.01392256329840727,
            cy=-0.05350851482468688,
            fov_deg=57.53155626602951,
        ),
    ),
}
"""Frames (training styles, drawn by the virtual camera) whose grid was missed before it was judged on the
full-size picture: the first two refused as too faint on the shrunk picture, the third found one rank off (a
line beyond the board supported as well as the outer line; the board's edge now decides)."""


def corner_error(found: BoardGeometry, truth: np.ndarray) -> float:
    """Largest corner distance in pixels, over the four ways the grid's labels may be turned."""
    return min(float(np.abs(np.roll(found.corners, k, axis=0) - truth).max()) for k in range(4))


def _grid_points(truth: np.ndarray, grid: np.ndarray) -> np.ndarray:
    """Pixels of grid points under the true grid (corners `truth`)."""
    return BoardGeometry(np.asarray(truth, dtype=np.float64), 1.0).project(grid)


@pytest.mark.parametrize("case", sorted(STEEP_CASES))
def test_steep_turned_view_grid_found(case: str) -> None:
    """A camera tilted 33-36 degrees, the board turned: the grid is found within 1 % of the picture's width."""
    sfen, style, seed, pose = STEEP_CASES[case]
    frame = render_position(sfen, RenderOptions(style=style, seed=seed, size=(960, 720), pose=pose))
    found = find_board(frame.image)
    assert found is not None
    assert corner_error(found, frame.board_corners_px) < 0.01 * 960


@pytest.fixture(scope="module")
def steep_frame() -> tuple[np.ndarray, np.ndarray]:
    """A steep view (the first case) and its true grid corners."""
    sfen, style, seed, pose = STEEP_CASES["tilt36_turned62"]
    frame = render_position(sfen, RenderOptions(style=style, seed=seed, size=(960, 720), pose=pose))
    return frame.image, np.asarray(frame.board_corners_px, dtype=np.float64)


def test_true_grid_confirmed(steep_frame: tuple[np.ndarray, np.ndarray]) -> None:
    """The renderer's own grid passes the grid test on the full-size picture."""
    image, truth = steep_frame
    assert confirm_grid(image, truth) is not None


@pytest.mark.parametrize("half", ["files", "ranks"])
def test_half_spacing_grid_refused(steep_frame: tuple[np.ndarray, np.ndarray], half: str) -> None:
    """A grid at half the real spacing in one direction (its every other line runs through the squares'
    middles) is refused."""
    image, truth = steep_frame
    squeeze = np.array([0.5, 1.0]) if half == "files" else np.array([1.0, 0.5])
    assert confirm_grid(image, _grid_points(truth, GRID_CORNERS * squeeze)) is None


def test_non_board_pictures_not_found() -> None:
    """Ruled lines in one direction only, and sensor-like noise, are not boards."""
    rng = np.random.default_rng(5)
    ruled = np.full((480, 640, 3), 215, np.uint8)
    for y in range(30, 480, 40):
        ruled[y : y + 2] = 60
    noise = rng.integers(0, 256, (480, 640, 3), dtype=np.uint8)
    assert find_board(ruled) is None
    assert find_board(noise) is None


OFF_BY_A_RANK = (
    "lnsgkgsnl/1r5b1/pppppp1p1/6pP1/8p/1P7/P1PPPPP1P/1B5R1/LNSGKGSNL w - 8",
    "kanji_red_wood",
    4914037,
    CameraPose(
        tilt_deg=39.47869881551941,
        tilt_dir_deg=115.70493841026091,
        roll_deg=33.138962013480864,
        fill=0.6901636163742682,
        cx=-0.00460797059038195,
        cy=0.03425568192502371,
        fov_deg=64.46222322268335,
    ),
)
"""Development frame 37 of `dev_eval --family artwork --n 40 --seed 4914` (session 49): the grid is found one rank
off, 64 squares read wrong and 53 of them vouched for."""


@pytest.mark.xfail(
    reason="known weakness (session 49): the true grid, one line away, is as well supported in mean (0.686 against"
    " 0.680) and far better in its weakest line (0.40 against 0.20), but a move must beat the found grid by"
    " vision.board._TIE, and the board's edge (rim_shift) takes the dark far rank of pieces for the edge. Deciding"
    " such ties by the weakest line (docs/experiments/s49/RULE-grid.txt) mends this frame and breaks"
    " tilt33_turned99 above, and on 1,600 fresh development frames found 3 grids off against 1. The reader mends"
    " it after the search (vision.grid_pieces: test_grid_pieces); the search alone does not",
    strict=False,
)
def test_steep_view_whose_far_rank_of_dark_pieces_looks_like_the_boards_edge() -> None:
    sfen, style, seed, pose = OFF_BY_A_RANK
    frame = render_position(sfen, RenderOptions(style=style, seed=seed, size=(960, 720), pose=pose))
    found = find_board(frame.image)
    assert found is not None
    assert corner_error(found, frame.board_corners_px) < 0.01 * 960
