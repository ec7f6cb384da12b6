"""Development figures for reading the pieces in hand (`vision.hands`) on development styles (training only;
never the held-out styles of `train_classifier.HELD_OUT`, whose hand counts only `shogi-robot bench vision`
scores).

Wide frames of real game positions (both stands in the picture, camera within 20 degrees of overhead, as the
benchmark's hand frames; `--frames main`: random poses, as the benchmark's main frames, mostly one stand in view or
none) of a `dev_eval` family (`artwork`: the shipped training styles; `plain`, `one`, `proxy`: faces drawn from
fonts no training run uses) are read by the full reader, sente's side given. Prints the share of hand counts right
(7 kinds per stand), stands not read, counts too low and too high, the board squares right on these frames
(`--complete-set` may move them, `vision.hand_fit`), and the largest errors (style, side, kind, true count, count
read), so that a change to the stand reading can be chosen without looking at the held-out styles.

    .venv/bin/python -m vision.train.hands_eval --family artwork --n 60 [--seed 5] [--model PATH] [--complete-set] \
        [--frames wide|main]
"""

from __future__ import annotations

import argparse
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from vision.labels import HAND_KINDS
from vision.train.dev_eval import family_setup

SIZE = (960, 720)
"""Frame size (the benchmark's)."""


@dataclass
class HandTally:
    """Hand counts over the frames read."""

    entries: int = 0
    right: int = 0
    under: int = 0
    over: int = 0
    unread: int = 0
    squares: int = 0
    squares_right: int = 0
    errors: Counter[tuple[str, str, str, int, int]] = field(default_factory=Counter)


def score_stand(tally: HandTally, style: str, side: str, truth: dict[str, int], got: dict[str, int]) -> None:
    """Add one stand's 7 counts (`truth` and `got` by kind letter, sente's spelling)."""
    for kind in HAND_KINDS:
        want, have = truth.get(kind, 0), got.get(kind, 0)
        tally.entries += 1
        tally.right += want == have
        tally.under += have < want
        tally.over += have > want
        if want != have:
            tally.errors[(style, side, kind, want, have)] += 1


def side_hands(hands: dict[str, int], side: str) -> dict[str, int]:
    """One player's part of a rendered frame's hands (`{"P": 2, "p": 1}`: uppercase sente's), by kind letter."""
    return {k.upper(): n for k, n in hands.items() if k.isupper() == (side == "b")}


def evaluate(
    family: str, n: int, seed: int, model: Path | None, *, complete_set: bool = False, frames: str = "wide"
) -> HandTally:
    """Render and read n frames of a development family: `wide` (both stands in view) or `main` (random poses,
    as `shogi-robot bench vision`'s main frames: often one stand in view or none). `complete_set`: the reader's
    `ReaderSettings.complete_set`."""
    import cv2

    from vision.orientation import sente_direction
    from vision.reader import BoardReader, ReaderSettings
    from vision.render import CameraPose, RenderOptions, render_position
    from vision.train.rendered import random_sfen

    cv2.setNumThreads(1)
    dirs, games, classifier = family_setup(family, model)
    styles = sorted(dirs)
    rng = np.random.default_rng(seed)
    tally = HandTally()
    for i in range(n):
        style = styles[i % len(styles)]
        if frames == "wide":
            pose = CameraPose(tilt_deg=float(rng.uniform(0, 20)), roll_deg=float(rng.uniform(-20, 20)), fill=0.45)
            options = RenderOptions(
                style=style, seed=seed * 7000 + i, size=(960, 720), pose=pose, style_dir=dirs[style]
            )
        else:
            options = RenderOptions(style=style, seed=seed * 1000 + i, size=(960, 720), style_dir=dirs[style])
        frame = render_position(random_sfen(games, rng), options)
        settings = ReaderSettings(sente_side=sente_direction(frame.board_corners_px), complete_set=complete_set)
        reader = BoardReader(classifier, settings)
        result = reader.read(frame.image)
        if result.board_found:
            tally.squares += 81
            tally.squares_right += sum(a == b for a, b in zip(result.labels, frame.labels, strict=True))
        for side in ("b", "w"):
            if not result.board_found or result.hands is None or side not in result.hands:
                tally.unread += 1
                continue
            score_stand(tally, style, side, side_hands(frame.hands, side), result.hands[side])
    return tally


def report(tally: HandTally, top: int = 12) -> str:
    """The figures as printed."""
    share = 100.0 * tally.right / tally.entries if tally.entries else 0.0
    lines = [
        f"hand counts right {tally.right}/{tally.entries} ({share:.2f} %); stands not read {tally.unread}; "
        f"counts too low {tally.under}, too high {tally.over}; "
        f"board squares right {tally.squares_right}/{tally.squares}",
        "largest errors (style, side, kind, true, read):",
    ]
    worst = sorted(tally.errors, key=lambda e: -abs(e[3] - e[4]))[:top]
    lines += [f"  {style} {side} {kind}: {want} read {have}" for style, side, kind, want, have in worst]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Command line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--family", choices=("proxy", "one", "plain", "plain2", "artwork"), default="artwork")
    parser.add_argument("--n", type=int, default=60, help="frames to render and read")
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--model", type=Path, help="classifier ONNX (default: the shipped model)")
    parser.add_argument(
        "--complete-set", action="store_true", help="hands fitted to what the board leaves over (vision.hand_fit)"
    )
    parser.add_argument("--frames", choices=("wide", "main"), default="wide", help="wide shots or random poses")
    args = parser.parse_args(argv)
    tally = evaluate(args.family, args.n, args.seed, args.model, complete_set=args.complete_set, frames=args.frames)
    print(report(tally), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
