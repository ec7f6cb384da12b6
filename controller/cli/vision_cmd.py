"""`shogi-robot vision ...`: the command group for the camera reader and the virtual camera.

Each vision command module exposes `register_vision(subparsers)`; add it to `VISION_MODULES`.
"""

from __future__ import annotations

import argparse
import importlib
from typing import Any

VISION_MODULES: tuple[str, ...] = ("controller.cli.vision_read_cmd", "controller.cli.vision_render_cmd")


def register(subparsers: Any) -> None:
    """Add `vision` and its sub-commands."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "vision", help="read boards from images; render the virtual camera", description=__doc__
    )
    commands = parser.add_subparsers(dest="vision_command", metavar="VISION_COMMAND", required=True)
    for name in VISION_MODULES:
        importlib.import_module(name).register_vision(commands)
