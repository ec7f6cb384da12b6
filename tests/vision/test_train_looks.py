"""Varied font-drawn training faces (`vision.train.looks`) and the wider crop variety of `vision.train.synth`
(training only; the tests need no PyTorch)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vision.labels import KINDS
from vision.squares import CROP
from vision.train.looks import LOOKS, PROXY_FONTS, glyphs, is_proxy, look_fonts, look_tiles, write
from vision.train.synth import DEFAULT_VARIETY, N_CLASSES, WIDE_VARIETY, PieceBank, make_dataset


def _one_font() -> dict[str, Path]:
    fonts = look_fonts()
    if not fonts:
        pytest.skip("no training font installed (scripts/install-debs.sh --train)")
    name = sorted(fonts)[0]
    return {name: fonts[name]}


def test_look_tiles_cover_every_kind_and_are_deterministic() -> None:
    """A font gives one- and two-character look styles with a BGRA tile (96 px tall) for every kind, the
    same for the same seed and different for another seed."""
    fonts = _one_font()
    first, again, other = look_tiles(5, fonts), look_tiles(5, fonts), look_tiles(6, fonts)
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
