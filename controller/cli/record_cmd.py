"""`shogi-robot record --config FILE | --sim`: two humans play on the board; the game is recorded.

Every move is read from the camera, journaled (fsynced) with its time, and written as KIFU and CSA as the game
goes. With `--sim`, simulated players make the moves (a second engine, or a record's moves with `--sim-human
FILE`). `--resume JOURNAL` continues a game after a crash or power loss.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from controller.cli.game_args import add_clock, add_world, session_options, summary


def register(subparsers: Any) -> None:
    """Add `record`."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "record", help="record a game between two humans", description=__doc__
    )
    add_world(parser)
    add_clock(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Record one game."""
    from controller.game.settings import Mode
    from controller.runner.session import run_session

    start = time.monotonic()
    result = run_session(session_options(args, Mode.RECORD), say=_say)
    for line in summary(result, time.monotonic() - start):
        _say(line)
    return 0


def _say(text: str) -> None:
    print(text, flush=True)
