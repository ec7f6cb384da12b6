"""Development figures for piece-set calibration (`vision.calibration`) on sets the generic classifier never saw
(training only; never the held-out styles of `train_classifier.HELD_OUT`, which only `shogi-robot bench vision`
scores).

For each development style (the first variant of each font of a `dev_eval` family, and any `--style` of the
shipped artwork), the reader is calibrated on a start photo and a flipped photo (every piece turned over) taken
with one rig (camera pose, board, light), then reads frames of real game positions: `--n` frames of that rig
(the pieces set down anew) and `--n` frames under other random poses, boards and light, always of the same
physical set (`--other-sets`: each frame its own set of the artwork: other size, wood tone, grain). Prints, for
each family of frames, square and board accuracy with and without the calibration, the calibrated errors by
camera tilt and by style, and which kinds are read as which (owner ignored): where the calibration still fails
(`--mistakes DIR`: each calibrated wrong square, listed and on contact sheets).

    .venv/bin/python -m vision.train.calib_eval --family plain --n 12 [--model PATH] [--style kanji_light]
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from vision.calibration import FLIPPED_BOARD, START_BOARD, Calibration, calibrate
from vision.classifier import PieceClassifier
from vision.errors import CalibrationError
from vision.render import Rendered, RenderOptions
from vision.square_prior import SQUARE_PRIOR
from vision.train.dev_eval import Tally, first_variants, read_frame, report, write_mistakes


@dataclass
class Figures:
    """Tallies of one family of frames (`rig` or `other`), generic and calibrated."""

    generic: Tally = field(default_factory=Tally)
    calibrated: Tally = field(default_factory=Tally)


def rig_options(style: str, style_dir: Path | None, seed: int, *, other_sets: bool = False) -> RenderOptions:
    """The render options of a style's rig (camera pose, board and light from the seed and the style's name); the
    calibrated set itself in every frame (`RenderOptions.set_seed`) unless `other_sets`."""
    salt = sum(style.encode())
    set_seed = None if other_sets else seed * 1000 + salt
    return RenderOptions(style=style, seed=seed * 1000 + salt, size=(960, 720), style_dir=style_dir, set_seed=set_seed)


def rig_photos(options: RenderOptions) -> tuple[Rendered, Rendered]:
    """The start photo rendered with `options` (the rig) and the flipped photo from the same pose."""
    from vision.render import render_position

    start = render_position(START_BOARD + " b -", options)
    rig = RenderOptions(**{**options.__dict__, "pose": start.pose})
    return start, render_position(FLIPPED_BOARD + " b -", rig)


def calibrate_on_rig(classifier: PieceClassifier, options: RenderOptions) -> tuple[Calibration, Rendered]:
    """Calibrate on a start and a flipped photo rendered with `options` (the rig); the start photo too."""
    from vision.orientation import sente_direction

    start, turned = rig_photos(options)
    calibration = calibrate(start.image, turned.image, classifier, sente_side=sente_direction(start.board_corners_px))
    return calibration, start


def evaluate_style(
    classifier: PieceClassifier,
    style: str,
    style_dir: Path | None,
    games: list[list[str]],
    *,
    n: int,
    seed: int,
    figures: dict[str, Figures],
    shifted_looks: bool = True,
    other_sets: bool = False,
    square_prior: float = SQUARE_PRIOR,
) -> None:
    """Calibrate on one style and read `n` rig frames and `n` other frames with and without the calibration (each
    style its own rig: camera pose, board and light from the seed and the style's name); positions are random
    prefixes of `games` (USI moves). Every frame shows the calibrated set itself (`RenderOptions.set_seed`: its
    pieces' size, wood tone and grain); `other_sets`: each frame its own set of the same artwork, as before."""
    from vision.render import render_scene, scene_from_sfen
    from vision.train.rendered import random_sfen

    rng = np.random.default_rng([seed, sum(style.encode())])
    base = rig_options(style, style_dir, seed, other_sets=other_sets)
    try:
        calibration, start = calibrate_on_rig(classifier, base)
    except CalibrationError as exc:
        print(f"{style}: not calibrated ({exc}; rig seed {base.seed})", flush=True)
        return
    weights = f"generic power {calibration.generic_power:.2f}, set weight {calibration.set_weight:.2f}"
    print(f"{style}: {weights}", flush=True)
    rig = RenderOptions(**{**base.__dict__, "pose": start.pose})
    for i in range(n):
        scene = scene_from_sfen(random_sfen(games, rng), np.random.default_rng([seed, 6000 + i]))
        other = RenderOptions(
            style=style, seed=seed * 5000 + i, size=(960, 720), style_dir=style_dir, set_seed=base.set_seed
        )
        frames = {"rig": render_scene(scene, rig), "other": render_scene(scene, other)}
        for family, frame in frames.items():
            tallies = (figures[family].generic, figures[family].calibrated)
            for tally, cal in zip(tallies, (None, calibration), strict=True):
                read_frame(
                    tally,
                    classifier,
                    frame,
                    style,
                    crops=False,
                    calibration=cal,
                    shifted_looks=shifted_looks,
                    square_prior=square_prior,
                )


def main(argv: list[str] | None = None) -> int:
    """Command line entry point."""
    import cv2

    from vision.train.rendered import GAMES

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--family", choices=("proxy", "one", "plain", "plain2", "none"), default="plain")
    parser.add_argument("--style", action="append", default=[], help="a shipped training style (repeatable)")
    parser.add_argument("--n", type=int, default=12, help="frames of each family per style")
    parser.add_argument("--seed", type=int, default=91)
    parser.add_argument("--model", type=Path, help="classifier ONNX (default: the shipped model)")
    parser.add_argument(
        "--no-shifted-looks",
        dest="shifted_looks",
        action="store_false",
        help="one cut per square (vision.shifted_looks off)",
    )
    parser.add_argument(
        "--other-sets",
        action="store_true",
        help="each frame its own set of the style's artwork (other size, tone, grain) instead of the calibrated set",
    )
    parser.add_argument(
        "--mistakes",
        type=Path,
        help="write the calibrated reads' wrong squares here (rig/ and other/: mistakes.tsv, mistakes-N.png)",
    )
    parser.add_argument(
        "--square-prior", type=float, default=SQUARE_PRIOR, help="power of the square prior (ReaderSettings)"
    )
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    classifier = PieceClassifier() if args.model is None else PieceClassifier(args.model)
    styles: dict[str, Path | None] = {s: None for s in args.style}
    if args.family != "none":
        styles |= first_variants(args.family)
    games = [line.split() for line in GAMES.read_text().splitlines() if line.strip()]
    keep = args.mistakes is not None  # the calibrated reads' wrong squares
    figures = {family: Figures(calibrated=Tally(keep_mistakes=keep)) for family in ("rig", "other")}
    for style, folder in sorted(styles.items()):
        looks = args.shifted_looks
        evaluate_style(
            classifier,
            style,
            folder,
            games,
            n=args.n,
            seed=args.seed,
            figures=figures,
            shifted_looks=looks,
            other_sets=args.other_sets,
            square_prior=args.square_prior,
        )
        print(f"{style} done", flush=True)
    for family, fig in figures.items():
        print(f"== {family} frames: generic")
        print(report(fig.generic, top=6))
        print(f"== {family} frames: calibrated")
        print(report(fig.calibrated, top=20), flush=True)
        if args.mistakes is not None:
            write_mistakes(fig.calibrated.mistakes, args.mistakes / family)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
