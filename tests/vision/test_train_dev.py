"""Development data of the generic classifier (`vision.train.dev_eval`) and the one-character choice of the
rendered training frames (training only; the tests need no PyTorch)."""

from __future__ import annotations

from collections import Counter

from vision.train.datasets import HELD_OUT, one_char
from vision.train.dev_eval import DEV_FONTS, Tally, kind, report
from vision.train.fonts import FONTS
from vision.train.looks import EXTRA_FONTS, PROXY_FONTS


def test_development_fonts_are_never_training_fonts() -> None:
    """No development font, by name or by file, is one the training styles are drawn from."""
    trained = {n: p for n, p in (FONTS | EXTRA_FONTS).items() if n not in PROXY_FONTS}
    assert not set(DEV_FONTS) & set(trained)
    assert not set(DEV_FONTS.values()) & set(trained.values())
    assert not any(name in style for name in DEV_FONTS for style in HELD_OUT)


def test_one_char_keeps_only_one_character_folders() -> None:
    """The `--one-char` choice keeps the sprite folders of `_1` styles, whatever the font's own name holds."""
    folders = ["look_klee_1_v0", "look_klee_2_v3", "gen_mplus_1_light_2_v1", "gen_bizud_1_v12", "look_x_11_v0"]
    assert one_char(folders) == ["look_klee_1_v0", "gen_bizud_1_v12"]


def test_kind_drops_the_owner_only() -> None:
    """A read label's kind keeps promotion and ignores the owner; empty stays empty."""
    assert [kind(x) for x in ("+r", "+R", "p", "P", "empty")] == ["+R", "+R", "P", "P", "empty"]


def test_report_names_confusions_and_rates() -> None:
    """The report gives square accuracy, error rates by tilt and style, and the commonest confusions."""
    tally = Tally(squares=162, right=160, boards=2, boards_right=1)
    tally.confusion = Counter({("S", "N"): 2})
    tally.by_tilt = Counter({(2, True): 160, (2, False): 2})
    tally.by_style = Counter({("look_a_1", True): 160, ("look_a_1", False): 2})
    text = report(tally)
    assert "squares 98.765 % (160/162)" in text
    assert "30-45 deg 1.23 % of 162" in text
    assert "look_a_1 1.23 %" in text
    assert "S->N 2" in text
