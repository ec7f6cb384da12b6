"""Development figures for board finding (`vision.board.find_board`) on development styles (training only; never
the held-out styles of `train_classifier.HELD_OUT`, whose frames only `shogi-robot bench vision` scores).

Frames of a `dev_eval` family (`artwork`: the shipped training styles; `plain`, `plain2`, `one`, `proxy`: faces
drawn from fonts no training run uses) under the views where grids are hardest to find (`--kind`):
- `steep`: real game positions, camera 30-45 degrees from overhead, the board filling 80-98 % of the picture's
  short side (reduced until the whole board is in the picture);
- `start`: the start position and the flipped position (every piece turned over) in turn, under the virtual
  camera's random poses (up to 45 degrees): the frames a game and a calibration begin with, whose pieces on every
  other rank hide the lines behind them.
Each frame's grid is searched from scratch and compared with the true grid: right (every corner within 0.4 of a
square), off (a grid found in the wrong place) or not found. Prints the three counts and each frame that was not
right (its number, style, tilt; `--save DIR`: its picture and true corners), and the median and largest CPU time of
a search (one thread), so a change to the search can be judged on frames it was not tuned on. A frame's render seed
is `seed * 1000 + number`.

    .venv/bin/python -m vision.train.grid_eval --family artwork --kind steep --n 300 --seed 81
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from vision.render import CameraPose, RenderOptions, render_position

KINDS = ("steep", "start")
SIZE = (960, 720)
RIGHT_WITHIN = 0.4
"""A found grid is right when every corner lies within this many squares of the true one."""


@dataclass
class GridTally:
    """Outcomes over the frames searched, and the frames that were not right."""

    right: int = 0
    off: int = 0
    not_found: int = 0
    misses: list[str] = field(default_factory=list)
    search_ms: list[float] = field(default_factory=list)


def corner_error(found: np.ndarray, truth: np.ndarray) -> float:
    """Largest corner distance in squares (the grid's top side over 9), over the four ways its labels may turn."""
    square = float(np.linalg.norm(truth[1] - truth[0])) / 9
    return min(float(np.abs(np.roll(found, k, axis=0) - truth).max()) for k in range(4)) / square


def frame_view(kind: str, number: int, games: list[list[str]], rng: np.random.Generator) -> tuple[str, CameraPose]:
    """The position and camera pose of a frame of this kind (`KINDS`)."""
    from vision.calibration import FLIPPED_BOARD, START_BOARD
    from vision.train.rendered import random_sfen

    if kind == "steep":
        pose = CameraPose.random(rng, 45.0)
        steep = replace(pose, tilt_deg=float(rng.uniform(30, 45)), fill=float(rng.uniform(0.8, 0.98)))
        return random_sfen(games, rng), steep.fitted(SIZE)
    pose = CameraPose.random(rng, 45.0, SIZE)
    return (START_BOARD if number % 2 == 0 else FLIPPED_BOARD) + " b -", pose


def evaluate(family: str, kind: str, n: int, seed: int, save: Path | None = None) -> GridTally:
    """Render n frames of a family and kind, search each one's grid from scratch, and tally."""
    import cv2

    from vision.board import find_board
    from vision.train.dev_eval import family_frames

    cv2.setNumThreads(1)
    dirs, games = family_frames(family)  # no classifier: only the grid is searched
    styles = sorted(dirs)
    rng = np.random.default_rng(seed)
    tally = GridTally()
    for i in range(n):
        sfen, pose = frame_view(kind, i, games, rng)
        style = styles[i % len(styles)]
        options = RenderOptions(style=style, seed=seed * 1000 + i, size=SIZE, pose=pose, style_dir=dirs[style])
        frame = render_position(sfen, options)
        truth = np.asarray(frame.board_corners_px, dtype=np.float64)
        cpu = time.thread_time()
        found = find_board(frame.image)
        tally.search_ms.append((time.thread_time() - cpu) * 1000)
        outcome = "not found" if found is None else "off" if corner_error(found.corners, truth) > RIGHT_WITHIN else ""
        tally.right += not outcome
        tally.off += outcome == "off"
        tally.not_found += outcome == "not found"
        if outcome:
            tally.misses.append(f"frame {i} ({style}, tilt {pose.tilt_deg:.1f}): {outcome}")
            if save is not None:
                save.mkdir(parents=True, exist_ok=True)
                cv2.imwrite(str(save / f"frame-{seed * 1000 + i}.png"), frame.image)
                np.save(save / f"frame-{seed * 1000 + i}-corners.npy", truth)
    return tally


def report(tally: GridTally, label: str) -> str:
    """The figures as printed."""
    total = tally.right + tally.off + tally.not_found
    counts = f"{label}: {total} frames, right {tally.right}, off {tally.off}, not found {tally.not_found}"
    if tally.search_ms:
        counts += f"; search CPU ms median {np.median(tally.search_ms):.0f}, max {max(tally.search_ms):.0f}"
    return "\n".join([counts, *tally.misses])


def main(argv: list[str] | None = None) -> int:
    """Command line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--family", choices=("proxy", "one", "plain", "plain2", "artwork"), default="artwork")
    parser.add_argument("--kind", choices=KINDS, default="steep")
    parser.add_argument("--n", type=int, default=300, help="frames to render and search")
    parser.add_argument("--seed", type=int, default=81)
    parser.add_argument("--save", type=Path, help="write each frame not right here (picture, true corners)")
    args = parser.parse_args(argv)
    tally = evaluate(args.family, args.kind, args.n, args.seed, args.save)
    print(report(tally, f"{args.family} {args.kind} seed {args.seed}"), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
