"""Varied font-drawn training faces (`vision.train.looks`) and the wider crop variety of `vision.train.synth`
(training only; the tests need no PyTorch)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vision.labels import KINDS
from vision.squares import CROP
from vision.train.looks import (
    LOOKS,
    PROXY_FONTS,
    glyphs,
    is_proxy,
    look_fonts,
    look_tiles,
    write,
    write_sprite_dirs,
)
from vision.train.synth import DEFAULT_VARIETY, N_CLASSES, WIDE_VARIETY, PieceBank, make_dataset


def _one_font() -> dict[str, Path]:
    fonts = look_fonts()
    if not fonts:
        pytest.skip("no training font installed (scripts/install-debs.sh --train)")
    name = sorted(fonts)[0]
    return {name: fonts[name]}


@pytest.fixture(scope="module")
def tiles5() -> dict[str, dict[str, list[np.ndarray]]]:
    """Look tiles of one installed font, seed 5 (drawn once for the module)."""
    return look_tiles(5, _one_font())


def test_look_tiles_cover_every_kind_and_are_deterministic(tiles5: dict[str, dict[str, list[np.ndarray]]]) -> None:
    """A font gives one- and two-character look styles with a BGRA tile (96 px tall) for every kind, the
    same for the same seed and different for another seed."""
    fonts = _one_font()
    first, again, other = tiles5, look_tiles(5, fonts), look_tiles(6, fonts)
    assert first
    for style, per_kind in first.items():
        assert style.startswith("look_")
        assert set(per_kind) == set(KINDS)
        for kind, tiles in per_kind.items():
            for a, b in zip(tiles, again[style][kind], strict=True):
                assert a.shape[2] == 4 and a.shape[0] == 96
                assert np.array_equal(a, b)
    style = sorted(first)[0]
    assert not np.array_equal(first[style]["P"][0], other[style]["P"][0])


def test_proxy_styles_are_those_of_the_proxy_fonts_only() -> None:
    """The proxy-unseen styles are exactly the look styles of `PROXY_FONTS` (never a trained font's)."""
    for font in PROXY_FONTS:
        assert is_proxy(f"look_{font}_1") and is_proxy(f"look_{font}_2")
    assert not is_proxy("look_kouzan_1")
    assert not is_proxy("gen_klee_1")


def test_every_look_shows_the_strokes() -> None:
    """In every look, including carved with no ink, the pixels under the strokes differ clearly from the
    plain body around them (the character stays visible)."""
    path = next(iter(_one_font().values()))
    rng = np.random.default_rng(0)
    mask = glyphs(rng, path, "歩")
    body = np.full((*mask.shape, 3), 180.0, np.float32)
    ink = np.array([20.0, 20.0, 20.0], np.float32)
    strokes = mask > 0.5
    for look in LOOKS:
        out = write(rng, body.copy(), mask, ink, look)
        assert np.abs(out - body).max(axis=2)[strokes].mean() > 10, look


def test_wide_variety_keeps_default_crops_unchanged() -> None:
    """Leaving the variety out means the default one (the crops drawn before the option existed, so cached
    training data stays valid; checked against the previous code when it was added), and the wide variety
    draws other crops of valid classes."""
    tile = np.zeros((96, 86, 4), np.uint8)
    tile[10:90, 10:76] = (60, 120, 180, 255)
    bank = PieceBank({"flat": {kind: [tile] for kind in KINDS}})
    plain, targets = make_dataset(3, 40, ["flat"], bank)
    default, same_targets = make_dataset(3, 40, ["flat"], bank, DEFAULT_VARIETY)
    wide, wide_targets = make_dataset(3, 40, ["flat"], bank, WIDE_VARIETY)
    assert np.array_equal(plain, default) and np.array_equal(targets, same_targets)
    assert ((wide_targets >= 0) & (wide_targets < N_CLASSES)).all()
    assert wide.shape == (40, CROP, CROP, 3) and not np.array_equal(plain, wide)


def test_look_styles_render_as_sprite_folders(tmp_path: Path, tiles5: dict[str, dict[str, list[np.ndarray]]]) -> None:
    """Look tiles written as sprite folders render through the virtual camera (`RenderOptions.style_dir`):
    the same position and seed as a shipped style, other piece pixels, the same ground truth."""
    from vision.render import RenderOptions, render_position

    dirs = write_sprite_dirs(tiles5, tmp_path)
    name = sorted(dirs)[0]
    assert {p.name for p in dirs[name].iterdir()} >= {"0OU.png", "0GY.png", "0FU.png", "0TO.png"}
    shipped = render_position("startpos", RenderOptions.fast(style="kanji_light", seed=4, size=(640, 480)))
    drawn = render_position("startpos", RenderOptions.fast(style=name, style_dir=dirs[name], seed=4, size=(640, 480)))
    assert drawn.labels == shipped.labels
    assert np.allclose(drawn.board_corners_px, shipped.board_corners_px)
    assert np.abs(drawn.image.astype(int) - shipped.image.astype(int)).mean() > 1


def test_frame_crops_use_the_sprite_folder_of_a_look_style(
    tmp_path: Path, tiles5: dict[str, dict[str, list[np.ndarray]]]
) -> None:
    """Training crops cut from a frame drawn with a look style come labelled like any rendered frame's."""
    from vision.train.rendered import GAMES, frame_crops

    dirs = write_sprite_dirs(tiles5, tmp_path)
    games = [line.split() for line in GAMES.read_text().splitlines()[:5] if line.strip()]
    crops, targets = frame_crops(3, sorted(dirs), games, style_dirs=dirs)
    assert crops.shape[1:] == (CROP, CROP, 3) and len(crops) == len(targets) > 0
    assert ((targets >= 0) & (targets < N_CLASSES)).all()


def red_pixels(tile: np.ndarray) -> int:
    """Pixels of a BGR(A) tile in red ink (red clearly above green and blue; no body or other ink is that red)."""
    b, g, r = (tile[:, :, c].astype(int) for c in range(3))
    return int(((r > g + 90) & (r > b + 90)).sum())


def test_look_promoted_faces_follow_the_red_share() -> None:
    """With red=1 (nearly) every promoted look face is written in red ink, with red=0 none is, and unpromoted
    faces are never red (a relief look can darken a thin red stroke, hence "nearly")."""
    fonts = _one_font()
    for red in (0.0, 1.0):
        promoted_red = []
        for per_kind in look_tiles(5, fonts, red=red).values():
            for kind, tiles in per_kind.items():
                for tile in tiles:
                    if kind.startswith("+"):
                        promoted_red.append(red_pixels(tile) > 120)
                    else:
                        assert red_pixels(tile) <= 120, kind
        assert np.mean(promoted_red) > 0.9 if red == 1.0 else not any(promoted_red)
