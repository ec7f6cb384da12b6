"""Board finding when a thick board's rim, seen at a steep angle, looks like a grid line (`vision.board`)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vision.board import find_board
from vision.render import RenderOptions, render_position

RIM_CASE = "ln1gk2nl/1+r1s1sg2/p1p2p1pp/4pbp2/3+R5/4P2PP/P1P1SPP2/1P6L/LNBGKG1N1 w Ps2p 28"
"""A position and frame (seed 33000042, a proxy look, camera tilted 41 degrees) whose grid was found one file
off at the search's working scale: the rim took the place of the outer line."""


@pytest.fixture(scope="module")
def klee_bold(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sprite folder of that frame's look (`look_klee_bold_1`, variant 2, drawn with the training seed)."""
    from vision.train.looks import look_fonts, look_tiles, write_sprite_dirs
    from vision.train.train_classifier import LOOK_SEED

    fonts = look_fonts()
    if "klee_bold" not in fonts:
        pytest.skip("proxy font klee_bold not installed (scripts/install-debs.sh --train)")
    tiles = look_tiles(LOOK_SEED, {"klee_bold": fonts["klee_bold"]})
    folders = write_sprite_dirs({"look_klee_bold_1": tiles["look_klee_bold_1"]}, tmp_path_factory.mktemp("rim"))
    return folders["look_klee_bold_1_v2"]


def test_grid_is_not_taken_one_line_off_for_the_boards_rim(klee_bold: Path) -> None:
    """The grid found in that frame lies on the true grid (every corner within 2 % of the picture's width), not
    one file over."""
    options = RenderOptions(style="look", seed=33000 * 1000 + 42, size=(960, 720), style_dir=klee_bold)
    frame = render_position(RIM_CASE, options)
    found = find_board(frame.image)
    assert found is not None
    error = min(np.abs(np.roll(found.corners, k, axis=0) - frame.board_corners_px).max() for k in range(4))
    assert error < 0.02 * 960
