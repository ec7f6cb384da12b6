"""Every shipped piece style draws every piece label, on the board and as a single-square crop."""

from __future__ import annotations

import numpy as np
import pytest

from vision.labels import EMPTY, PIECE_LABELS
from vision.render import CameraPose, PlacedPiece, RenderOptions, Scene, list_styles, render_piece_crop, render_scene
from vision.render.geometry import apply_homography, square_centre_mm

STYLES = list_styles()


def test_ten_svg_styles_and_font_styles_are_shipped() -> None:
    """The ten lishogi styles and at least four font-drawn ones are available."""
    svg = {"1kanji_3d", "2kanji_3d", "engraved_cz", "kanji_brown", "kanji_light", "kanji_red_wood", "orangain",
           "ryoko_1kanji", "shogi_cz", "simple_kanji"}  # fmt: skip
    assert svg <= set(STYLES)
    assert len([s for s in STYLES if s.startswith("font_")]) >= 4


def _all_labels_scene() -> Scene:
    """All 28 labels on the first 28 squares of ranks a-d, every other square left empty between them."""
    squares = [r * 9 + c for r in range(7) for c in range(9) if (r + c) % 2 == 0][: len(PIECE_LABELS)]
    return Scene(tuple(PlacedPiece(label, sq) for label, sq in zip(PIECE_LABELS, squares, strict=True)))


def _centre_patches(image: np.ndarray, homography: np.ndarray) -> np.ndarray:
    """81 grey 7x7 patches at the square centres."""
    grey = image.astype(float).mean(axis=2)
    px = np.round(apply_homography(homography, np.array([square_centre_mm(i) for i in range(81)]))).astype(int)
    return np.array([grey[y - 3 : y + 4, x - 3 : x + 4] for x, y in px])


@pytest.mark.parametrize("style", STYLES)
def test_style_draws_every_label_on_the_board(style: str) -> None:
    """Squares with a piece change against the empty board; empty squares stay as they were."""
    scene = _all_labels_scene()
    options = RenderOptions.fast(style=style, seed=4, size=(640, 480), pose=CameraPose.overhead(), lighting=0.0)
    full = render_scene(scene, options)
    bare = render_scene(Scene(()), options)
    assert full.labels == scene.labels()
    change = np.abs(_centre_patches(full.image, full.homography) - _centre_patches(bare.image, bare.homography))
    per_square = change.mean(axis=(1, 2))
    occupied = np.array([label != EMPTY for label in full.labels])
    assert per_square[occupied].min() > 8
    assert per_square[~occupied].max() < 3


@pytest.mark.parametrize("style", STYLES)
def test_style_crops_every_label(style: str) -> None:
    """A crop per label (and empty) has the asked size; a piece crop differs from the same crop left empty."""
    bare = render_piece_crop(EMPTY, style, np.random.default_rng(7), 48, neighbours=False, effects=0.0)
    assert bare.shape == (48, 48, 3) and bare.dtype == np.uint8
    for label in PIECE_LABELS:
        crop = render_piece_crop(label, style, np.random.default_rng(7), 48, neighbours=False, effects=0.0)
        assert crop.shape == (48, 48, 3) and crop.dtype == np.uint8
        changed = np.abs(crop.astype(int) - bare.astype(int)).max(axis=2) > 25
        assert changed.mean() > 0.1, label
