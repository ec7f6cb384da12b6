"""`shogi-robot bench render [--n N] [--size WxH] [--style NAME]`: how fast the virtual camera draws.

Prints milliseconds per frame (wall clock and CPU time on one OpenCV thread) for full frames (noise, blur, JPEG),
cheap frames (`RenderOptions.fast`), frames with an arm, and single-square crops, plus peak memory.
"""

from __future__ import annotations

import argparse
import resource
import time
from typing import Any

from controller.bench.machine import machine_line

POSITIONS = (
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    "ln1g3nl/1r1s1kg2/p2ppp1pp/2p3s2/1p5P1/2P6/PPSPPPP1P/2G1K2R1/LN3GSNL b 2Bp 1",
    "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
)


def register_bench(subparsers: Any) -> None:
    """Add `bench render`."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "render", help="speed of the virtual camera", description=__doc__
    )
    parser.add_argument("--n", type=int, default=20, help="frames per mode (default 20)")
    parser.add_argument("--size", default="1280x960", help="picture size WxH (default 1280x960)")
    parser.add_argument("--style", default="kanji_light")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Time each mode and print one line per mode."""
    import cv2

    from vision.render import RenderOptions, list_styles

    if args.style not in list_styles():
        raise ValueError(f"unknown style {args.style!r}")
    width, height = (int(v) for v in args.size.lower().split("x"))
    cv2.setNumThreads(1)
    modes = {
        "full": lambda seed: RenderOptions(style=args.style, seed=seed, size=(width, height)),
        "fast": lambda seed: RenderOptions.fast(style=args.style, seed=seed, size=(width, height)),
        "full+arm": lambda seed: RenderOptions(style=args.style, seed=seed, size=(width, height), hand=True),
    }
    print(f"# virtual camera, {width}x{height}, style {args.style}, {args.n} frames per mode, 1 OpenCV thread")
    for name, make in modes.items():
        wall, cpu = _time_frames(make, args.n)
        print(f"{name:9s} {wall:7.1f} ms/frame wall  {cpu:7.1f} ms/frame cpu")
    wall, cpu = _time_crops(args.style, args.n * 10)
    print(f"crop 64px {wall:7.2f} ms/crop wall   {cpu:7.2f} ms/crop cpu")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory {peak:.0f} MB")
    print(machine_line())
    return 0


def _time_frames(make: Any, n: int) -> tuple[float, float]:
    from vision.render import render_position

    render_position(POSITIONS[0], make(10_000))  # loads the sprites
    wall, cpu = time.perf_counter(), time.process_time()
    for i in range(n):
        render_position(POSITIONS[i % len(POSITIONS)], make(i))
    return (time.perf_counter() - wall) * 1000 / n, (time.process_time() - cpu) * 1000 / n


def _time_crops(style: str, n: int) -> tuple[float, float]:
    import numpy as np

    from vision.labels import SQUARE_LABELS
    from vision.render import render_piece_crop

    rng = np.random.default_rng(0)
    wall, cpu = time.perf_counter(), time.process_time()
    for i in range(n):
        render_piece_crop(SQUARE_LABELS[i % len(SQUARE_LABELS)], style, rng, 64)
    return (time.perf_counter() - wall) * 1000 / n, (time.process_time() - cpu) * 1000 / n
