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
from vision.labels import labels_from_board_field
from vision.orientation import sente_direction, turns_for_side
from vision.render import RenderOptions, render_position
from vision.squares import CROP, crops_from_frame
from vision.train.dev_eval import first_variants

SEED = 4701


def rig_squares(family: str, inner: float) -> Iterator[tuple[str, list[str], np.ndarray, np.ndarray]]:
    """Per style and photo: the style, the true labels, each crop's redness and mean ink strength over the centre
    `inner` (a fraction of the crop's side), the rig built as `vision.train.calib_eval` builds it and its grid
    turned so that sente's edge is where the renderer put it (the crops in the board's SFEN order)."""
    lo = round(CROP * (1 - inner) / 2)
    hi = CROP - lo
    for style, folder in sorted(first_variants(family).items()):
        salt = sum(style.encode())
        seed = SEED * 1000 + salt
        base = RenderOptions(style=style, seed=seed, size=(960, 720), style_dir=folder, set_seed=seed)
        start = render_position(START_BOARD + " b -", base)
        turned = render_position(FLIPPED_BOARD + " b -", RenderOptions(**{**base.__dict__, "pose": start.pose}))
        side = sente_direction(start.board_corners_px)
        for photo, board in ((start, START_BOARD), (turned, FLIPPED_BOARD)):
            found = find_board(photo.image)
            assert found is not None, f"{style}: board not found"
            crops = crops_from_frame(photo.image, found.rotated(turns_for_side(found, side)))
            ink = np.ascontiguousarray(ink_maps(crops)[:, lo:hi, lo:hi])
            red = redness(np.ascontiguousarray(crops[:, lo:hi, lo:hi]), ink)
            yield style, labels_from_board_field(board), red, ink.reshape(len(ink), -1).mean(axis=1)


def auc(high: list[float], low: list[float]) -> float:
    """Probability that a value of `high` exceeds one of `low` (ties count half)."""
    a, b = np.asarray(high)[:, None], np.asarray(low)[None, :]
    return float((a > b).mean() + 0.5 * (a == b).mean())


def means() -> None:
    """Mean redness / ink strength of some labels, per `one` style, whole crop then middle half."""
    for inner in (1.0, 0.5):
        by_style: dict[str, dict[str, list[tuple[float, float]]]] = {}
        for style, labels, red, strength in rig_squares("one", inner):
            for label, r, s in zip(labels, red, strength, strict=True):
                by_style.setdefault(style, {}).setdefault(label.upper(), []).append((float(r), float(s)))
        for style, found in by_style.items():
            shown = [
                f"{k}:{np.mean([r for r, _ in v]):+.2f}/{np.mean([s for _, s in v]):.1f}"
                for k, v in sorted(found.items())
                if k in ("G", "+P", "P", "S", "+S", "K", "EMPTY")
            ]
            print(f"inner {inner} {style} {' '.join(shown)}", flush=True)


def aucs() -> None:
    """Promoted against unpromoted redness AUC per style, whole crop then middle half."""
    for family in ("one", "plain2"):
        for inner in (1.0, 0.5):
            split: dict[str, tuple[list[float], list[float]]] = {}
            for style, labels, red, _ in rig_squares(family, inner):
                promoted, plain = split.setdefault(style, ([], []))
                for label, r in zip(labels, red, strict=True):
                    if label.startswith("+"):
                        promoted.append(float(r))
                    elif label.upper() in "RBSNLP":
                        plain.append(float(r))
            for style, (promoted, plain) in split.items():
                print(f"{family} inner {inner} {style}: AUC {auc(promoted, plain):.3f}", flush=True)


if __name__ == "__main__":
    cv2.setNumThreads(1)
    {"means": means, "auc": aucs}[sys.argv[1]]()
