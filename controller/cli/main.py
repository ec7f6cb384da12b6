"""Entry point of `shogi-robot`: builds the argparse tree from the command modules and runs one command.

Exit codes: 0 success (including answers such as "legal: false"), 1 a reported error, 2 bad usage (argparse).
Each command module exposes `register(subparsers)`, which adds its parsers and sets `func` on them; a handler
takes the parsed namespace and returns an exit code. Modules import heavy dependencies (OpenCV, engines) inside
their handlers, so that `shogi-robot rules ...` starts fast.
Benchmarks live under `bench`; each area adds its benchmark in `controller.cli.bench_cmd`.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable, Sequence

from controller.cli.errors import CommandError

COMMAND_MODULES: tuple[str, ...] = (
    "controller.cli.perft_cmd",
    "controller.cli.rules_cmd",
    "controller.cli.convert_cmd",
    "controller.cli.bench_cmd",
    "controller.cli.demo_cmd",
    "controller.cli.sim_cmd",
    "controller.cli.gantry_cmd",
    "controller.cli.vision_cmd",
    "controller.cli.serve_cmd",
    "controller.cli.analyse_cmd",
    "controller.cli.play_cmd",
    "controller.cli.record_cmd",
    "controller.cli.replay_cmd",
    "controller.cli.remote_cmd",
)
"""Modules that add subcommands, in the order `--help` lists them."""

Handler = Callable[[argparse.Namespace], int]


def build_parser() -> argparse.ArgumentParser:
    """The whole command tree."""
    parser = argparse.ArgumentParser(
        prog="shogi-robot",
        description="A physical-board shogi service: camera reader, rules referee, gantry arm, engines.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; returns the process exit code (also used by `sys.exit` via the console script)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    handler: Handler = args.func
    try:
        return handler(args)
    except (CommandError, ValueError, OSError) as exc:
        print(f"shogi-robot {args.command}: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"shogi-robot {args.command}: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
