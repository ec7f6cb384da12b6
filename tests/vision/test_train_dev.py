"""Development data of the generic classifier (`vision.train.dev_eval`) and the one-character choice of the
rendered training frames (training only; the tests need no PyTorch)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import cv2
import numpy as np

from vision.classifier import Prediction
from vision.labels import EMPTY_INDEX, SQUARE_LABELS
from vision.render import RenderOptions, render_position
from vision.train.datasets import HELD_OUT, one_char
from vision.train.dev_eval import (
    DEV_FONTS,
    SHEET_COLUMNS,
    SHEET_ROWS,
    SHEET_ZOOM,
    Mistake,
    Tally,
    contact_sheets,
    kind,
    read_frame,
    report,
    write_mistakes,
)
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
    """The report gives square accuracy, the wrong squares vouched for, error rates by tilt and style, and the
    commonest confusions."""
    tally = Tally(squares=162, right=160, vouched_wrong=1, boards=2, boards_right=1)
    tally.confusion = Counter({("S", "N"): 2})
    tally.by_tilt = Counter({(2, True): 160, (2, False): 2})
    tally.by_style = Counter({("look_a_1", True): 160, ("look_a_1", False): 2})
    text = report(tally)
    assert "squares 98.765 % (160/162)" in text
    assert "wrong but vouched for 1" in text
    assert "30-45 deg 1.23 % of 162" in text
    assert "look_a_1 1.23 %" in text
    assert "S->N 2" in text


def _mistake(n: int) -> Mistake:
    crop = np.full((48, 48, 3), n, dtype=np.uint8)
    return Mistake("gen_a_2_v0", n // 81, "7a", "s", "n", 0.5, 30.0, crop)


def test_contact_sheets_lay_the_mistakes_out_in_order() -> None:
    """Each sheet holds SHEET_ROWS rows of SHEET_COLUMNS enlarged crops, in order; the last sheet's gaps black."""
    per_sheet = SHEET_COLUMNS * SHEET_ROWS
    sheets = contact_sheets([_mistake(n + 1) for n in range(per_sheet + 3)])
    side = 48 * SHEET_ZOOM
    assert [s.shape for s in sheets] == [(SHEET_ROWS * side, SHEET_COLUMNS * side, 3), (side, SHEET_COLUMNS * side, 3)]
    assert sheets[0][0, side, 0] == 2 and sheets[0][-1, -1, 0] == per_sheet
    assert sheets[1][0, 2 * side, 0] == per_sheet + 3 and sheets[1][0, -1, 0] == 0


def test_write_mistakes_lists_each_one_beside_its_sheet(tmp_path: Path) -> None:
    """mistakes.tsv has a header and one numbered line per mistake; the sheet reads back as written."""
    write_mistakes([_mistake(1), _mistake(2)], tmp_path / "out")
    lines = (tmp_path / "out" / "mistakes.tsv").read_text().splitlines()
    assert lines[0].split("\t")[:4] == ["n", "style", "frame", "square"]
    assert lines[2] == "1\tgen_a_2_v0\t0\t7a\ts\tn\t0.500\t30"
    sheet = cv2.imread(str(tmp_path / "out" / "mistakes-0.png"))
    assert sheet is not None and sheet.shape == (48 * SHEET_ZOOM, SHEET_COLUMNS * 48 * SHEET_ZOOM, 3)


class _EmptyEyes:
    """A classifier that sees every square empty."""

    def predict(self, crops: np.ndarray, *, features: bool = True, skip_sure_empty: bool = False) -> Prediction:
        probs = np.zeros((len(crops), len(SQUARE_LABELS)))
        probs[:, EMPTY_INDEX] = 1.0
        none = np.zeros(len(crops))
        return Prediction(probs, none, none, np.zeros((len(crops), 4), np.float32))


def test_read_frame_keeps_each_wrong_square_with_its_crop_turned_up() -> None:
    """A tally that keeps mistakes gets one per wrong square (here every occupied one), gote's crops turned."""
    frame = render_position("4k4/9/9/9/9/9/9/9/4K4 b -", RenderOptions(style="kanji_light", seed=3, size=(640, 480)))
    kept, plain = Tally(keep_mistakes=True), Tally()
    for tally in (kept, plain):
        read_frame(tally, _EmptyEyes(), frame, "kanji_light_v0", crops=False)  # type: ignore[arg-type]
    assert plain.mistakes == [] and kept.squares - kept.right == 2
    assert kept.vouched_wrong == 2  # read empty at probability 1: nothing flags them
    assert [(m.square, m.truth, m.read) for m in kept.mistakes] == [("5a", "k", "empty"), ("5i", "K", "empty")]
    assert all(m.crop.shape == (48, 48, 3) and m.style == "kanji_light_v0" for m in kept.mistakes)
