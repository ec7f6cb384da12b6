"""Session 48 exploration (not a candidate): does a piece-body colour area tell kinds apart on the calibration
photos and on rig and other-pose frames?

Per frame: the median Lab colour of the empty squares' centres (board) and of the occupied squares' centres (body),
from the true labels; each crop's share of pixels nearer the body, closed; scaled by the frame's median of area /
height^2 (`PIECE_HEIGHT_MM`). Prints the mean scaled area by kind and the AUC of some kind pairs, per style and
frame family (start photo, flipped photo, rig frames, other-pose frames).
Run from the project root: `.venv/bin/python docs/experiments/s48/size_explore.py plain2 4705 4`.
"""

import sys

import cv2
import numpy as np

from vision.board import find_board
from vision.calibration import FLIPPED_BOARD, START_BOARD
from vision.labels import EMPTY, labels_from_board_field
from vision.orientation import sente_direction, turns_for_side
from vision.render import Rendered, RenderOptions, render_scene, scene_from_sfen
from vision.render.assets import PIECE_HEIGHT_MM
from vision.squares import CROP, crops_from_frame
from vision.train.calib_eval import rig_options, rig_photos
from vision.train.dev_eval import family_setup, first_variants
from vision.train.rendered import random_sfen

PAIRS = (("K", "G"), ("G", "P"), ("B", "P"), ("R", "P"), ("L", "P"), ("G", "N"), ("S", "P"))


def body_areas(crops: np.ndarray, labels: list[str]) -> tuple[np.ndarray, float]:
    """Each crop's share of body-coloured pixels within its square, and the board-body colour distance."""
    lab = np.stack([cv2.cvtColor(c, cv2.COLOR_BGR2LAB) for c in crops]).astype(np.float32)
    lo, hi = round(CROP * 0.3), round(CROP * 0.7)
    empty = [i for i, label in enumerate(labels) if label == EMPTY]
    occupied = [i for i, label in enumerate(labels) if label != EMPTY]
    board = np.median(lab[empty][:, lo:hi, lo:hi].reshape(-1, 3), axis=0)
    body = np.median(lab[occupied][:, lo:hi, lo:hi].reshape(-1, 3), axis=0)
    mask = (np.linalg.norm(lab - body, axis=3) < np.linalg.norm(lab - board, axis=3)).astype(np.uint8)
    closed = np.stack([cv2.morphologyEx(m, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8)) for m in mask])
    edge = round(CROP * 0.1 / 1.2)
    inner = closed[:, edge : CROP - edge, edge : CROP - edge]
    return inner.reshape(len(inner), -1).mean(axis=1), float(np.linalg.norm(board - body))


def scaled(area: np.ndarray, labels: list[str]) -> tuple[np.ndarray, list[str | None]]:
    """Areas divided by the frame's median of area / (the kind's height)^2, and each square's base kind."""
    kinds = [label.upper().lstrip("+") if label != EMPTY else None for label in labels]
    expected = np.array([PIECE_HEIGHT_MM[k] ** 2 if k else np.nan for k in kinds])
    occupied = np.array([k is not None for k in kinds])
    return area / np.median(area[occupied] / expected[occupied]), kinds


def auc(high: list[float], low: list[float]) -> float:
    """Probability that a value of `high` exceeds one of `low` (ties count half)."""
    a, b = np.asarray(high)[:, None], np.asarray(low)[None, :]
    return float((a > b).mean() + 0.5 * (a == b).mean())


def style_frames(style: str, folder: object, seed: int, n: int, games: list[list[str]]) -> list[tuple[str, Rendered]]:
    """The style's start and flipped photos, then n rig frames and n other-pose frames (as `calib_eval` draws)."""
    base = rig_options(style, folder, seed)  # type: ignore[arg-type]
    start, turned = rig_photos(base)
    frames = [("start", start), ("flip", turned)]
    rig = RenderOptions(**{**base.__dict__, "pose": start.pose})
    rng = np.random.default_rng([seed, sum(style.encode())])
    for i in range(n):
        scene = scene_from_sfen(random_sfen(games, rng), np.random.default_rng([seed, 6000 + i]))
        other = RenderOptions(
            style=style, seed=seed * 5000 + i, size=(960, 720), style_dir=folder, set_seed=base.set_seed
        )  # type: ignore[arg-type]
        frames += [("rig", render_scene(scene, rig)), ("other", render_scene(scene, other))]
    return frames


def main() -> None:
    """Print the figures for one family, seed and frame count."""
    family, seed, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    _, games, _ = family_setup(family, None)
    for style, folder in sorted(first_variants(family).items()):
        by_name: dict[str, dict[str, list[float]]] = {}
        contrast = 0.0
        for name, frame in style_frames(style, folder, seed, n, games):
            labels = {"start": labels_from_board_field(START_BOARD), "flip": labels_from_board_field(FLIPPED_BOARD)}
            truth = labels.get(name, list(frame.labels))
            found = find_board(frame.image)
            if found is None:
                continue
            side = sente_direction(frame.board_corners_px)
            crops = crops_from_frame(frame.image, found.rotated(turns_for_side(found, side)))
            area, contrast = body_areas(crops, truth)
            values, kinds = scaled(area, truth)
            for kind, value in zip(kinds, values, strict=True):
                if kind:
                    by_name.setdefault(name, {}).setdefault(kind, []).append(float(value))
        for name, by_kind in by_name.items():
            means = " ".join(f"{k}:{np.mean(v):.0f}" for k, v in sorted(by_kind.items()))
            present = [(a, b) for a, b in PAIRS if a in by_kind and b in by_kind]
            pairs = " ".join(f"{a}>{b} {auc(by_kind[a], by_kind[b]):.2f}" for a, b in present)
            print(style, name, f"contrast {contrast:.0f}", means, "|", pairs, flush=True)


if __name__ == "__main__":
    main()
