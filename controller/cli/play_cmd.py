"""`shogi-robot play --config FILE | --sim`: a human on the board against an engine.

The engine's moves are played by the gantry (or, with `--assist` / `gantry = false`, announced for the human to
make); the camera confirms every move. With `--sim` the board, camera, human and GRBL device are simulated and
everything else is the real code. The journal (fsynced per move) and the KIFU/CSA records go to `--out`;
`--resume JOURNAL` continues a game after a crash or power loss.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from controller.cli.game_args import add_clock, add_world, parse_side, session_options, summary


def register(subparsers: Any) -> None:
    """Add `play`."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "play", help="play against an engine on the board", description=__doc__
    )
    add_world(parser)
    add_clock(parser)
    parser.add_argument("--engine", help="engine name or path (default: the config's, fairy-stockfish)")
    parser.add_argument("--engine-side", type=parse_side, help="the engine's side: b or w (default: the config's)")
    parser.add_argument("--movetime-ms", type=int, help="the engine's fixed time per move")
    parser.add_argument("--assist", action="store_true", help="no gantry: announce the engine's moves for the human")
    parser.add_argument("--port", help="the gantry's serial port (real hardware)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Play one game."""
    from controller.game.settings import Mode
    from controller.runner.session import run_session

    options = session_options(
        args,
        Mode.PLAY,
        engine=args.engine,
        engine_side=args.engine_side,
        movetime_ms=args.movetime_ms,
        gantry=False if args.assist else None,
        port=args.port,
    )
    start = time.monotonic()
    result = run_session(options, say=_say)
    for line in summary(result, time.monotonic() - start):
        _say(line)
    return 0


def _say(text: str) -> None:
    print(text, flush=True)
    sys.stdout.flush()
