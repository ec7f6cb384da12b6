"""`shogi-robot vision render | styles`: the virtual camera from the command line.

- `render --sfen SFEN [--seed N] [--style NAME] [--size WxH] [--hand] [--overhead] [--clean] [--distortion K]
  -o OUT.png`: draw a frame of a position (any board, also half set up; `startpos` or a handicap name work
  too) and write it; prints the ground truth (board corners in pixels, occluded squares) on stdout.
- `styles`: list the piece styles the renderer ships.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from controller.cli.errors import CommandError
from controller.rules.positions import HANDICAPS


def register_vision(subparsers: Any) -> None:
    """Add `render` and `styles` under `vision`."""
    render = subparsers.add_parser("render", help="render a position with the virtual camera")
    render.add_argument("--sfen", default="startpos", help="SFEN, 'startpos' or a handicap name")
    render.add_argument("--seed", type=int, default=0, help="random seed (same seed, same picture)")
    render.add_argument("--style", default="kanji_light", help="piece style (see `vision styles`)")
    render.add_argument("--size", type=_size, default=(1280, 960), help="picture size WxH (default 1280x960)")
    render.add_argument("--hand", action="store_true", help="add a hand and arm over the board")
    render.add_argument("--overhead", action="store_true", help="camera straight above, sente at the bottom")
    render.add_argument("--no-stands", action="store_true", help="leave out the piece stands")
    render.add_argument("--clean", action="store_true", help="no noise, blur or JPEG artefacts")
    render.add_argument("--distortion", type=float, default=0.0, help="radial lens distortion k (> 0 barrel)")
    render.add_argument("--json", action="store_true", help="print the ground truth as JSON")
    render.add_argument("-o", "--output", type=Path, required=True, help="image file to write (.png, .jpg)")
    render.set_defaults(func=_render)
    styles = subparsers.add_parser("styles", help="list the renderer's piece styles")
    styles.set_defaults(func=_styles)


def _size(text: str) -> tuple[int, int]:
    try:
        width, height = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"size must look like 1280x960, got {text!r}") from None
    return width, height


def _position(text: str) -> str:
    """A handicap name turned into its SFEN; anything else is passed to the renderer as it is."""
    for handicap in HANDICAPS.values():
        if text.strip() in (handicap.name, handicap.kif_name):
            return handicap.sfen
    return text


def _render(args: argparse.Namespace) -> int:
    """Render one frame and write it."""
    import cv2

    from vision.render import CameraPose, RenderOptions, render_position

    options = RenderOptions(
        style=args.style,
        seed=args.seed,
        size=args.size,
        pose=CameraPose.overhead() if args.overhead else None,
        hand=args.hand,
        stands=not args.no_stands,
        distortion=args.distortion,
        noise=0.0 if args.clean else 1.0,
        blur=0.0 if args.clean else 1.0,
        jpeg=0.0 if args.clean else 1.0,
    )
    rendered = render_position(_position(args.sfen), options)
    if not cv2.imwrite(str(args.output), rendered.image):
        raise CommandError(f"could not write {args.output} (unknown extension or unwritable place)")
    truth = {
        "output": str(args.output),
        "size": list(args.size),
        "board_corners_px": rendered.board_corners_px.round(2).tolist(),
        "occluded_squares": sorted(rendered.occluded_squares),
        "hands": rendered.hands,
        "stand_regions_px": {k: v.round(2).tolist() for k, v in rendered.stand_regions_px.items()},
    }
    if args.json:
        print(json.dumps(truth))
    else:
        print(f"wrote {args.output} ({args.size[0]}x{args.size[1]}, style {args.style}, seed {args.seed})")
        print(f"board corners (9a, 1a, 1i, 9i): {truth['board_corners_px']}")
        if rendered.occluded_squares:
            print(f"occluded squares: {truth['occluded_squares']}")
    return 0


def _styles(args: argparse.Namespace) -> int:
    """Print one style name per line."""
    from vision.render import list_styles

    for name in list_styles():
        print(name)
    return 0
