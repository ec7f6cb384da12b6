"""`shogi-robot perft DEPTH [--sfen SFEN]`: count leaf nodes; the last line printed is the number."""

from __future__ import annotations

import argparse
import time
from typing import Any

from controller.rules.perft import perft
from controller.rules.positions import board_from_sfen, resolve_start


def register(subparsers: Any) -> None:
    """Add `perft`."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "perft", help="count leaf nodes of the legal-move tree", description=__doc__
    )
    parser.add_argument("depth", type=_depth, help="plies to search (0..8)")
    parser.add_argument("--sfen", default="startpos", help="position (SFEN, 'startpos' or a handicap name)")
    parser.add_argument("--divide", action="store_true", help="print the count below each root move first")
    parser.set_defaults(func=run)


def _depth(text: str) -> int:
    value = int(text)
    if not 0 <= value <= 8:
        raise argparse.ArgumentTypeError(f"depth must be 0..8, got {value}")
    return value


def run(args: argparse.Namespace) -> int:
    """Print the perft count (optionally divided by root move)."""
    import cshogi

    board = board_from_sfen(resolve_start(args.sfen))
    start = time.perf_counter()
    if args.divide and args.depth >= 1:
        total = 0
        for move in list(board.legal_moves):
            board.push(move)
            nodes = perft(board, args.depth - 1)
            board.pop()
            total += nodes
            print(f"{cshogi.move_to_usi(move)}: {nodes}")
    else:
        total = perft(board, args.depth)
    elapsed = time.perf_counter() - start
    print(f"# depth {args.depth}: {elapsed:.3f} s")
    print(total)
    return 0
