"""Brush faces in made-up hands (`vision.train.hand_styles`; training only, no PyTorch needed)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from vision.labels import KINDS
from vision.train.dev_eval import DEV_FONTS
from vision.train.hand_styles import HAND_FONTS, character, hand_fonts, hand_tiles, random_hand
from vision.train.looks import PROXY_FONTS


def _fonts() -> None:
    if not hand_fonts():
        pytest.skip("no brush font installed (scripts/install-debs.sh --train)")


def test_hands_never_write_in_a_development_or_proxy_font() -> None:
    """The fonts that stand in for unseen sets while developing stay unseen."""
    assert not set(HAND_FONTS) & (set(DEV_FONTS) | set(PROXY_FONTS))


def test_hand_tiles_cover_every_kind_and_are_deterministic() -> None:
    """Each hand is a two-character style with a BGRA tile (96 px tall) for every kind; the same seed draws the
    same tiles, another seed other ones."""
    _fonts()
    first, again, other = hand_tiles(3, hands=2), hand_tiles(3, hands=2), hand_tiles(4, hands=2)
    assert first
    for style, per_kind in first.items():
        assert style.startswith("hand_") and style.endswith("_2")
        assert set(per_kind) == set(KINDS)
        for kind, tiles in per_kind.items():
            for a, b in zip(tiles, again[style][kind], strict=True):
                assert a.shape[0] == 96 and a.shape[2] == 4
                assert np.array_equal(a, b)
    style = sorted(set(first) & set(other))[0]
    assert not np.array_equal(first[style]["S"][0], other[style]["S"][0])


def test_a_squeezing_hand_writes_narrower_characters() -> None:
    """The hand's squeeze narrows its characters (the same draws otherwise)."""
    _fonts()
    hand = random_hand(np.random.default_rng(0), hand_fonts())
    widths = []
    for squeeze in (0.7, 1.0):
        mask = character(
            np.random.default_rng(1), replace(hand, squeeze=squeeze, slant=0.0), hand.main, "銀", size=80,
            centre=(100.0, 100.0),
        )  # fmt: skip
        columns = np.flatnonzero(mask.max(axis=0) > 0.5)
        widths.append(columns[-1] - columns[0])
    assert widths[0] < 0.8 * widths[1]


def test_each_hand_also_writes_its_set_in_one_character() -> None:
    """`chars` 1: the same hands as one-character styles (`hand_<n>_1`) with every kind, other tiles than the
    two-character ones; any other count is refused."""
    _fonts()
    one, two = hand_tiles(3, hands=2, chars=1), hand_tiles(3, hands=2)
    assert sorted(one) == [s.replace("_2", "_1") for s in sorted(two)]
    assert all(set(per_kind) == set(KINDS) for per_kind in one.values())
    style = sorted(one)[0]
    assert not np.array_equal(one[style]["S"][0], two[style.replace("_1", "_2")]["S"][0])
    assert np.array_equal(
        two[style.replace("_1", "_2")]["S"][0], hand_tiles(3, hands=2)[style.replace("_1", "_2")]["S"][0]
    )
    with pytest.raises(ValueError, match="chars must be 1 or 2"):
        hand_tiles(3, hands=1, chars=3)
