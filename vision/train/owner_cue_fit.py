"""Fitting and checking the outline owner cue (`vision.owner_cue`) on frames the classifier never trained on
and that are not the benchmark's held-out styles (development only; nothing here ships).

Frames are rendered from real game positions (`../shared/data/games/lishogi-500.usi`) in two families: the proxy
looks (`vision.train.looks.PROXY_FONTS`, faces from fonts kept out of training, drawn as renderer sprite folders)
and the shipped training styles. Each frame is read by the reader (its grid found from the picture, sente's side
given) with the cue off; the cue's strengths are measured on the same rectified board. `CueCalibration`'s weights
are logistic fits on the fit frames: owner given a piece (no intercept: the cue is symmetric), and piece or empty
(less the fit frames' prior, so that it is a likelihood ratio). The check frames (other seeds) give the before /
after figures. Usage:

    python -m vision.train.owner_cue_fit --fit 125 --check 120 --floor 0.1 --cap 2
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.classifier import PieceClassifier
from vision.labels import SQUARE_LABELS
from vision.orientation import sente_direction
from vision.owner_cue import CueCalibration, OwnerCue, apply_owner_cue, measure
from vision.reader import BoardReader, ReaderSettings
from vision.render import RenderOptions, render_position
from vision.squares import rectified_board
from vision.train.rendered import GAMES, random_sfen

EMPTY = len(SQUARE_LABELS) - 1


@dataclass(frozen=True)
class Reads:
    """Per square of every frame read: truth (class index), the classifier's probabilities, the cue's strengths."""

    truth: NDArray[np.intp]
    probs: NDArray[np.float64]
    up: NDArray[np.float64]
    down: NDArray[np.float64]


@lru_cache(maxsize=1)
def proxy_dirs() -> dict[str, Path]:
    """The proxy looks as sprite folders (under the temporary directory; made once)."""
    import tempfile

    from vision.train.datasets import LOOK_SEED
    from vision.train.looks import is_proxy, look_tiles, write_sprite_dirs

    tiles = look_tiles(LOOK_SEED)
    root = Path(tempfile.gettempdir()) / f"shogi-proxy-sprites-{LOOK_SEED}"
    return write_sprite_dirs({s: t for s, t in tiles.items() if is_proxy(s)}, root)


def read_frames(family: str, n: int, seed: int, classifier: PieceClassifier) -> Reads:
    """Render and read n frames of a family (`proxy` or `train`); frames whose grid is not found are skipped."""
    from vision.train.datasets import train_styles

    dirs = proxy_dirs() if family == "proxy" else {}
    styles = sorted(dirs) if family == "proxy" else train_styles()
    games = [line.split() for line in GAMES.read_text().splitlines() if line.strip()]
    rng = np.random.default_rng(seed)
    parts: list[tuple[NDArray[np.intp], NDArray[np.float64], OwnerCue]] = []
    for i in range(n):
        style = styles[i % len(styles)]
        options = RenderOptions(style=style, seed=seed * 1000 + i, size=(960, 720), style_dir=dirs.get(style))
        frame = render_position(random_sfen(games, rng), options)
        settings = ReaderSettings(sente_side=sente_direction(frame.board_corners_px), stands=None)
        read = BoardReader(classifier, settings).read(frame.image)
        if read.geometry is None or read.probs is None:
            continue
        truth = np.array([SQUARE_LABELS.index(label) for label in frame.labels], dtype=np.intp)
        parts.append((truth, read.probs, measure(rectified_board(frame.image, read.geometry))))
    return Reads(
        np.concatenate([p[0] for p in parts]),
        np.concatenate([p[1] for p in parts]),
        np.concatenate([p[2].up for p in parts]),
        np.concatenate([p[2].down for p in parts]),
    )


def logistic(x: NDArray[np.float64], y: NDArray[np.float64], ridge: float = 1e-3) -> NDArray[np.float64]:
    """Weights of a logistic regression of y (0/1) on the columns of x (Newton's method)."""
    w = np.zeros(x.shape[1])
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(-x @ w))
        hessian = (x * (p * (1 - p))[:, None]).T @ x + ridge * np.eye(len(w))
        w -= np.linalg.solve(hessian, x.T @ (p - y) + ridge * w)
    return w


def fit(reads: Reads, floor: float, cap: float) -> CueCalibration:
    """The calibration fitted on these reads."""
    occupied = reads.truth != EMPTY
    ratio = np.log((reads.up + floor) / (reads.down + floor))
    owner = logistic(ratio[occupied, None], (reads.truth[occupied] < 14).astype(np.float64))[0]
    strength = np.log(np.maximum(reads.up, reads.down) + floor)
    weight, bias = logistic(np.c_[strength, np.ones_like(strength)], occupied.astype(np.float64))
    prior = float(occupied.mean())
    bias -= np.log(prior / (1 - prior))
    return CueCalibration(floor, round(float(owner), 2), round(float(weight), 2), round(float(bias), 2), cap)


def figures(truth: NDArray[np.intp], probs: NDArray[np.float64]) -> str:
    """Square accuracy, owner accuracy (a piece read as empty counts wrong, as in `bench vision`), confident
    wrong squares (top probability >= 0.95)."""
    got = probs.argmax(axis=1)
    occupied = truth != EMPTY
    owner = occupied & (got != EMPTY) & ((got < 14) == (truth < 14))
    confident_wrong = int(((got != truth) & (probs.max(axis=1) >= 0.95)).sum())
    return (
        f"square {100 * float((got == truth).mean()):.3f} %, owner {100 * owner.sum() / occupied.sum():.3f} % "
        f"({int((occupied & (got == EMPTY)).sum())} read as empty), confident wrong {confident_wrong}"
    )


def check(reads: Reads, calibration: CueCalibration) -> str:
    """Before and after figures of one family's reads."""
    after = np.concatenate(
        [
            apply_owner_cue(
                reads.probs[i : i + 81], OwnerCue(reads.up[i : i + 81], reads.down[i : i + 81], calibration)
            )
            for i in range(0, len(reads.truth), 81)
        ]
    )
    return f"before: {figures(reads.truth, reads.probs)}\n    after:  {figures(reads.truth, after)}"


def main(argv: list[str] | None = None) -> int:
    """Fit on proxy and training-style frames, check on other seeds of both."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--fit", type=int, default=125, help="frames per family to fit on")
    parser.add_argument("--check", type=int, default=120, help="frames per family to check on")
    parser.add_argument("--floor", type=float, default=0.1)
    parser.add_argument("--cap", type=float, default=2.0)
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    classifier = PieceClassifier()
    fitted = [read_frames(f, args.fit, seed, classifier) for f, seed in (("proxy", 31000), ("train", 32000))]
    pooled = Reads(*(np.concatenate([getattr(r, k) for r in fitted]) for k in ("truth", "probs", "up", "down")))
    calibration = fit(pooled, args.floor, args.cap)
    print(calibration)
    for family, seed in (("proxy", 33000), ("train", 34000)):
        print(f"{family} check frames:\n    {check(read_frames(family, args.check, seed, classifier), calibration)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
