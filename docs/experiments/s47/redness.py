"""Session 47 diagnostic: the appearance redness (`vision.appearance.redness`) on the calibration photos (start and
flipped) of development seed 4701's rigs, over the whole crop and over its middle half.

`means`: per label of the `one` styles, the mean redness / mean ink strength. `auc`: for `one` and `plain2`, how well
redness tells the promoted faces from the unpromoted promotable kinds (AUC; 0.5 is chance).
Run from the project root: `.venv/bin/python docs/experiments/s47/redness.py means|auc`.
"""

import sys
from collections.abc import Iterator

import cv2
import numpy as np

from vision.appearance import ink_maps, redness
from vision.board import find_board
from vision.calibration import FLIPPED_BOARD, START_BOARD
from vision.labels import EMPTY, labels_from_board_field
from vision.orientation import sente_direction, turns_for_side
from vision.squares import CROP, crops_from_frame
from vision.train.calib_eval import rig_options, rig_photos
from vision.train.dev_eval import first_variants

SEED = 4701
INNERS = (1.0, 0.5)
"""Sides of the crop's centre measured, as fractions of the crop's side: the whole crop, its middle half."""


def rig_squares(family: str) -> Iterator[tuple[str, list[str], dict[float, tuple[np.ndarray, np.ndarray]]]]:
    """Per style and photo: the style, the true labels, and for each of `INNERS` each crop's redness and mean ink
    strength over that centre; the rig as `vision.train.calib_eval` builds it, its grid turned so that sente's edge
    is where the renderer put it (the crops in the board's SFEN order)."""
    for style, folder in sorted(first_variants(family).items()):
        start, turned = rig_photos(rig_options(style, folder, SEED))
        side = sente_direction(start.board_corners_px)
        for photo, board in ((start, START_BOARD), (turned, FLIPPED_BOARD)):
            found = find_board(photo.image)
            assert found is not None, f"{style}: board not found"
            crops = crops_from_frame(photo.image, found.rotated(turns_for_side(found, side)))
            ink = ink_maps(crops)
            by_inner = {}
            for inner in INNERS:
                lo = round(CROP * (1 - inner) / 2)
                centre = np.s_[:, lo : CROP - lo, lo : CROP - lo]
                inner_ink = np.ascontiguousarray(ink[centre])
                red = redness(np.ascontiguousarray(crops[centre]), inner_ink)
                by_inner[inner] = (red, inner_ink.reshape(len(inner_ink), -1).mean(axis=1))
            yield style, labels_from_board_field(board), by_inner


def auc(high: list[float], low: list[float]) -> float:
    """Probability that a value of `high` exceeds one of `low` (ties count half)."""
    a, b = np.asarray(high)[:, None], np.asarray(low)[None, :]
    return float((a > b).mean() + 0.5 * (a == b).mean())


def means() -> None:
    """Mean redness / ink strength of some labels, per `one` style, whole crop then middle half."""
    shown_labels = ("G", "+P", "P", "S", "+S", "K", EMPTY.upper())
    found: dict[tuple[float, str], dict[str, list[tuple[float, float]]]] = {}
    for style, labels, by_inner in rig_squares("one"):
        for inner, (red, strength) in by_inner.items():
            for label, r, s in zip(labels, red, strength, strict=True):
                found.setdefault((inner, style), {}).setdefault(label.upper(), []).append((float(r), float(s)))
    for (inner, style), by_label in sorted(found.items(), key=lambda item: -item[0][0]):
        shown = [
            f"{k}:{np.mean([r for r, _ in v]):+.2f}/{np.mean([s for _, s in v]):.1f}"
            for k, v in sorted(by_label.items())
            if k in shown_labels
        ]
        print(f"inner {inner} {style} {' '.join(shown)}", flush=True)


def aucs() -> None:
    """Promoted against unpromoted redness AUC per style, whole crop then middle half."""
    for family in ("one", "plain2"):
        split: dict[tuple[float, str], tuple[list[float], list[float]]] = {}
        for style, labels, by_inner in rig_squares(family):
            for inner, (red, _) in by_inner.items():
                promoted, plain = split.setdefault((inner, style), ([], []))
                for label, r in zip(labels, red, strict=True):
                    if label.startswith("+"):
                        promoted.append(float(r))
                    elif label.upper() in {"R", "B", "S", "N", "L", "P"}:
                        plain.append(float(r))
        for (inner, style), (promoted, plain) in sorted(split.items(), key=lambda item: -item[0][0]):
            print(f"{family} inner {inner} {style}: AUC {auc(promoted, plain):.3f}", flush=True)


if __name__ == "__main__":
    cv2.setNumThreads(1)
    {"means": means, "auc": aucs}[sys.argv[1]]()
