"""Training-data helpers of the piece classifier: random promoted-heavy placements, the 180-degree owner swap,
font-drawn piece faces (training only; the tests need no PyTorch)."""

from __future__ import annotations

import numpy as np
import pytest

from vision.classifier import OWNER_SWAP
from vision.labels import EMPTY, KINDS, PIECE_LABELS, SQUARE_LABELS, labels_from_board_field
from vision.train.fonts import FONT_ROOT, FONTS, font_tiles, has_glyph
from vision.train.rendered import SET, random_placement


def test_random_placement_respects_the_set_and_promotes_often() -> None:
    """Random placements never hold more of a kind than a set has, and about half the promotable pieces on
    the board are promoted (a game position rarely has any)."""
    promoted = promotable = 0
    for seed in range(40):
        labels = labels_from_board_field(random_placement(np.random.default_rng(seed)).split()[0])
        pieces = [lab for lab in labels if lab != EMPTY]
        assert len(pieces) >= 12
        for kind, limit in SET.items():
            assert sum(lab.upper().lstrip("+") == kind for lab in pieces) <= limit
        promotable += sum(lab.upper().lstrip("+") not in ("K", "G") for lab in pieces)
        promoted += sum(lab.startswith("+") for lab in pieces)
    assert 0.35 < promoted / promotable < 0.65


def test_owner_swap_turns_each_piece_label_into_the_other_sides() -> None:
    """Turning a crop by 180 degrees maps every piece label to the same kind of the other owner and leaves
    empty, sideways and unreadable alone; doing it twice is the identity."""
    for index, label in enumerate(PIECE_LABELS):
        swapped = PIECE_LABELS[int(OWNER_SWAP[index])]
        assert swapped.upper() == label.upper() and swapped != label
    assert list(OWNER_SWAP[len(PIECE_LABELS) :]) == [len(SQUARE_LABELS) - 1, len(SQUARE_LABELS), len(SQUARE_LABELS) + 1]
    assert (OWNER_SWAP[OWNER_SWAP] == np.arange(len(OWNER_SWAP))).all()


def _one_font() -> dict[str, object]:
    for name, rel in FONTS.items():
        if (FONT_ROOT / rel).is_file():
            return {name: FONT_ROOT / rel}
    pytest.skip("no training font installed (scripts/install-debs.sh --train)")


def test_font_tiles_cover_every_kind_and_are_deterministic() -> None:
    """A font gives one- and two-character styles with a BGRA tile for every kind, the same for the same seed."""
    fonts = _one_font()
    first, again = font_tiles(3, fonts), font_tiles(3, fonts)  # type: ignore[arg-type]
    assert first
    for style, per_kind in first.items():
        assert set(per_kind) == set(KINDS)
        for kind, tiles in per_kind.items():
            for a, b in zip(tiles, again[style][kind], strict=True):
                assert a.shape[2] == 4 and a.shape[0] == 96
                assert np.array_equal(a, b)


def test_missing_glyph_is_detected() -> None:
    """A private-use code point counts as missing; a kanji every Japanese font has counts as present."""
    from PIL import ImageFont

    path = next(iter(_one_font().values()))
    font = ImageFont.truetype(str(path), 48)
    assert has_glyph(font, "歩")
    assert not has_glyph(font, "\ue001")


def _brush_font_lacking(ch: str) -> object:
    from PIL import ImageFont

    from vision.train.fonts import BRUSH_FONTS, installed_fonts

    for path in installed_fonts(fonts=BRUSH_FONTS).values():
        font = ImageFont.truetype(str(path), 48)
        if not has_glyph(font, ch):
            return font
    pytest.skip(f"no installed brush font lacks {ch} (scripts/install-debs.sh --train)")


def test_stand_ins_write_the_traditional_form_only_where_the_font_lacks_the_japanese() -> None:
    """A font without 将 writes 將 with stand-ins and cannot write 銀将 without them; a font with 将 keeps it."""
    from PIL import ImageFont

    from vision.train.fonts import written

    lacking = _brush_font_lacking("将")
    assert written("銀将", lacking, stand_ins=True) == "銀將"  # type: ignore[arg-type]
    assert written("銀将", lacking, stand_ins=False) is None  # type: ignore[arg-type]
    having = ImageFont.truetype(str(next(iter(_one_font().values()))), 48)
    assert written("銀将", having, stand_ins=True) == "銀将"


def test_brush_styles_cover_every_kind_in_both_forms() -> None:
    """Every installed brush font gives a one- and a two-character `brush_` style with every kind (traditional
    forms standing in), the same tiles for the same seed."""
    from vision.train.fonts import BRUSH_FONTS, brush_tiles, installed_fonts

    fonts = installed_fonts(fonts=BRUSH_FONTS)
    if not fonts:
        pytest.skip("no brush font installed (scripts/install-debs.sh --train)")
    first, again = brush_tiles(5), brush_tiles(5)
    assert set(first) == {f"brush_{name}_{chars}" for name in fonts for chars in "12"}
    for style, per_kind in first.items():
        assert set(per_kind) == set(KINDS)
        for kind, tiles in per_kind.items():
            assert all(np.array_equal(a, b) for a, b in zip(tiles, again[style][kind], strict=True))


def test_epoch_order_repeats_only_the_artwork() -> None:
    """An epoch goes through every crop once and the shipped artwork's crops `repeat` times in all; repeat 1
    is every crop once."""
    from vision.train.train_classifier import epoch_order

    artwork = np.array([True, False, False, True, False])
    counts = np.bincount(epoch_order(artwork, 3), minlength=len(artwork))
    assert counts.tolist() == [3, 1, 1, 3, 1]
    assert sorted(epoch_order(artwork, 1).tolist()) == [0, 1, 2, 3, 4]


def test_order_seed_changes_the_weights_and_order_not_the_data_seed() -> None:
    """`--order-seed` seeds the weights and batch order; without it `--seed` does; the data always uses `--seed`."""
    from argparse import Namespace

    from vision.train.train_classifier import training_seed

    assert training_seed(Namespace(seed=1, order_seed=None)) == 1
    assert training_seed(Namespace(seed=1, order_seed=2)) == 2


def red_pixels(tile: np.ndarray) -> int:
    """Pixels of a BGR(A) tile in red ink (red clearly above green and blue; no wooden body is that red)."""
    b, g, r = (tile[:, :, c].astype(int) for c in range(3))
    return int(((r > g + 90) & (r > b + 90)).sum())


def test_promoted_red_share_sets_the_promoted_faces_ink() -> None:
    """With red=1 every promoted face is written in red ink, with red=0 none is (the unpromoted faces' inks),
    and unpromoted faces are never red."""
    fonts = _one_font()
    for red in (0.0, 1.0):
        for per_kind in font_tiles(3, fonts, red=red).values():  # type: ignore[arg-type]
            for kind, tiles in per_kind.items():
                for tile in tiles:
                    assert (red_pixels(tile) > 120) == (kind.startswith("+") and red == 1.0), (kind, red)


def test_default_red_share_is_the_original_drawing() -> None:
    """Not asking for a red share draws exactly the tiles of the default share (old caches stay valid), and a
    cache name records any other share."""
    from vision.train.datasets import red_tag
    from vision.train.fonts import PROMOTED_RED

    fonts = _one_font()
    default, explicit = font_tiles(3, fonts), font_tiles(3, fonts, red=PROMOTED_RED)  # type: ignore[arg-type]
    for style, per_kind in default.items():
        for kind, tiles in per_kind.items():
            assert all(np.array_equal(a, b) for a, b in zip(tiles, explicit[style][kind], strict=True))
    assert red_tag(PROMOTED_RED) == ""
    assert red_tag(0.5) == "-red50"


def _two_layers(w1: np.ndarray, b1: np.ndarray, w2: np.ndarray, x: np.ndarray) -> np.ndarray:
    """A 1x1-convolution network's output: w2 applied to relu(w1 x + b1)."""
    hidden = np.maximum(x @ w1[:, :, 0, 0].T + b1, 0)
    return np.asarray(hidden @ w2[:, :, 0, 0].T)


def test_a_widened_layer_computes_the_same_function() -> None:
    from vision.train.train_classifier import split_inputs, widen

    gen = np.random.default_rng(3)
    w1, b1 = gen.standard_normal((4, 3, 1, 1)).astype(np.float32), gen.standard_normal(4).astype(np.float32)
    w2 = gen.standard_normal((5, 4, 1, 1)).astype(np.float32)
    x = gen.standard_normal((20, 3)).astype(np.float32)
    grown_w1, grown_b1, copies = widen(w1, b1, 7, gen, nudge=0.0)
    assert grown_w1.shape == (7, 3, 1, 1) and list(copies[:4]) == [0, 1, 2, 3]
    assert np.array_equal(grown_w1[4:], w1[copies[4:]])
    grown_w2 = split_inputs(w2, copies, axis=1)
    assert grown_w2.shape == (5, 7, 1, 1)
    np.testing.assert_allclose(_two_layers(grown_w1, grown_b1, grown_w2, x), _two_layers(w1, b1, w2, x), rtol=1e-5)


def test_widened_copies_are_nudged_apart() -> None:
    from vision.train.train_classifier import widen

    gen = np.random.default_rng(4)
    w, b = gen.standard_normal((4, 3, 3, 3)).astype(np.float32), np.zeros(4, np.float32)
    grown, _, copies = widen(w, b, 6, gen)
    assert np.array_equal(grown[:4], w)
    change = np.abs(grown[4:] - w[copies[4:]])
    assert 0 < change.max() < 0.1 * np.abs(w).max()


def test_a_layer_is_never_narrowed() -> None:
    from vision.train.train_classifier import widen

    w, b = np.ones((4, 3, 3, 3), np.float32), np.zeros(4, np.float32)
    with pytest.raises(ValueError, match="cannot narrow"):
        widen(w, b, 3, np.random.default_rng(0))
