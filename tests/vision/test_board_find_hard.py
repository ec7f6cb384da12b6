"""Grid finding on frames it used to miss or misplace (`vision.board`): views along the files of the start
position, whose pieces hide every other line, a grid first proposed at half the real spacing, and a grid that a
one-line move fitted as well."""

from __future__ import annotations

import numpy as np
import pytest

from vision.board import (
    BoardGeometry,
    _relatticed,
    confirm_grid,
    find_board,
    plausible_shape,
    to_gray,
)
from vision.calibration import FLIPPED_BOARD, START_BOARD
from vision.line_support import GRID_CORNERS, line_fractions
from vision.render import CameraPose, RenderOptions, render_position

TATAMI_SFEN = "lnsgkgsnl/1r5b1/p1ppppppp/9/1p7/5P3/PPPPP1PPP/1B3R3/LNSGKGSNL b - 5"
EDGE_SFEN = "lnsgkgsnl/1r5b1/ppppppppp/9/9/6P2/PPPPPP1PP/1B5R1/LNSGKGSNL w - 2"
POSES = {
    71280: CameraPose(
        34.31534963498746,
        158.9569793819402,
        128.28641835028566,
        0.648591831179148,
        0.0275687369532756,
        0.0207173512453879,
        47.17941233179947,
    ),
    72160: CameraPose(
        32.07496339031733,
        134.84272663882425,
        14.714981281323702,
        0.7595679154788956,
        0.0126899155181341,
        0.0043706275257711,
        55.503437511048695,
    ),
    85048: CameraPose(
        42.06786069338176,
        56.05363182272801,
        105.34628275479446,
        0.7785115734499057,
        0.03673078788589375,
        -0.003887864321121261,
        44.8540872530896,
    ),
}
"""Camera poses of the cases whose seed alone does not give their pose (steep, close development views)."""

HARD_CASES = {
    "dim_table_steep": (START_BOARD + " b - 1", "kanji_light", 92156),
    "bright_board_dark_cloth": (START_BOARD + " b - 1", "kanji_red_wood", 92471),
    "game_position_steep": (
        "lnsgkg1nl/1r3s3/p1pppp1pp/6p2/bp2P4/P1P3P2/1P1P1PNPP/4K2R1/LNSG1GS1L w B 16",
        "font_ipa_gothic",
        500182,
    ),
    "proposed_at_half_spacing": (START_BOARD + " b - 1", "orangain", 500157),
    "one_line_off_tie": (START_BOARD + " b - 1", "kanji_red_wood", 500102),
    "flipped_steep_half_spacing": (FLIPPED_BOARD + " b - 1", "orangain", 40019),
    "start_steep_two_lines_off": (START_BOARD + " b - 1", "shogi_cz", 40146),
    "tatami_beside_the_board": (TATAMI_SFEN, "kanji_brown", 71280),
    "half_spacing_past_the_edge": (EDGE_SFEN, "simple_kanji", 72160),
    "grid_folded_onto_one_file": (START_BOARD + " b - 1", "kanji_red_wood", 85048),
}
"""Frames (training styles, random poses of the virtual camera, 960×720) where `find_board` returned None, or
(the last) a grid one rank off: the first three refused as aliased because every other line of a direction was
hidden by pieces, the fourth proposed only at half the real spacing, the last moved by a line that the picture
supported no better than the true one. Then (2026-11-28) two steep views the lines' search proposed at half
the real spacing, or two ranks off, and that only a move along the grid's lattice mends (`_relatticed`). Then
(2026-11-28, `POSES`) a board beside a tatami mat, whose stripes made the grid at twice the real spacing look
like a board (a wrong grid found, 4.6 squares off), a grid proposed at half the spacing and polished one line
past the board's edge (not found), and an outline candidate whose ten file lines all lay within one file (a
wrong grid found: it was better supported than the true one)."""


def _frame(case: str) -> tuple[np.ndarray, np.ndarray]:
    """The case's picture and its true grid corners."""
    sfen, style, seed = HARD_CASES[case]
    frame = render_position(sfen, RenderOptions(style=style, seed=seed, size=(960, 720), pose=POSES.get(seed)))
    return frame.image, np.asarray(frame.board_corners_px, dtype=np.float64)


def _corner_error(found: BoardGeometry, truth: np.ndarray) -> float:
    """Largest corner distance in pixels, over the four ways the grid's labels may be turned."""
    return min(float(np.abs(np.roll(found.corners, k, axis=0) - truth).max()) for k in range(4))


@pytest.mark.parametrize("case", sorted(HARD_CASES))
def test_hard_frame_grid_found(case: str) -> None:
    """It should find the grid within 1 % of the picture's width."""
    image, truth = _frame(case)
    found = find_board(image)
    assert found is not None
    assert _corner_error(found, truth) < 0.01 * 960


@pytest.mark.parametrize("half", ["files", "ranks"])
def test_half_spacing_refused_where_pieces_hide_lines(half: str) -> None:
    """It should still refuse a grid at half the real spacing on a frame whose pieces hide every other line."""
    image, truth = _frame("bright_board_dark_cloth")
    squeeze = np.array([0.5, 1.0]) if half == "files" else np.array([1.0, 0.5])
    half_grid = BoardGeometry(truth, 1.0).project(GRID_CORNERS * squeeze)
    assert confirm_grid(image, half_grid) is None


@pytest.mark.parametrize("proposed", [((0.5, 1.0), (4.5, 0.0)), ((1.0, 0.5), (0.0, 4.5)), ((1.0, 1.0), (0.0, 2.0))])
def test_a_grid_proposed_off_the_lattice_is_moved_onto_it(
    proposed: tuple[tuple[float, float], tuple[float, float]],
) -> None:
    """A grid at half the real spacing over half the board, or two lines off, becomes the true grid."""
    image, truth = _frame("bright_board_dark_cloth")
    gray = to_gray(image)
    scale, start = proposed
    wrong = BoardGeometry(truth, 1.0).project(GRID_CORNERS * np.array(scale) + np.array(start))
    corners, fractions = _relatticed(gray, wrong, line_fractions(gray, wrong))
    assert np.abs(corners - truth).max() < 2.0
    assert fractions.mean() > line_fractions(gray, wrong).mean()


@pytest.mark.parametrize("style", ["engraved_cz", "font_noto_serif", "kanji_red_wood", "shogi_cz"])
def test_no_wrong_grid_beside_tatami(style: str) -> None:
    """Beside the tatami mat, in other styles: the grid found, if any, is the true one (never the grid at twice
    the spacing that half lies on the mat)."""
    frame = render_position(TATAMI_SFEN, RenderOptions(style=style, seed=71280, size=(960, 720), pose=POSES[71280]))
    found = find_board(frame.image)
    assert found is None or _corner_error(found, np.asarray(frame.board_corners_px, dtype=np.float64)) < 0.01 * 960


def test_a_grid_folded_onto_one_file_is_not_a_board_shape() -> None:
    """A true grid seen at 42 degrees has a board's shape; the same grid's lines squeezed into one file has not."""
    _, truth = _frame("grid_folded_onto_one_file")
    assert plausible_shape(truth)
    folded = BoardGeometry(truth, 1.0).project(GRID_CORNERS * np.array([1 / 9, 1.0]) + np.array([4.0, 0.0]))
    assert not plausible_shape(folded)
