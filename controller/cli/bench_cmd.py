"""`shogi-robot bench AREA`: benchmarks that print figures. Each area module adds one sub-command.

An area module exposes `register_bench(subparsers)`; add it to `BENCH_MODULES`.
"""

from __future__ import annotations

import argparse
import importlib
from typing import Any

BENCH_MODULES: tuple[str, ...] = (
    "controller.bench.rules_bench",
    "controller.bench.gantry_bench",
    "controller.bench.render_bench",
    "controller.bench.reconcile_bench",
    "controller.bench.game_bench",
    "controller.bench.vision_bench",
    "controller.bench.pause_bench",
)


def register(subparsers: Any) -> None:
    """Add `bench` and its areas."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "bench", help="benchmarks that print figures", description="Run a benchmark and print its figures."
    )
    areas = parser.add_subparsers(dest="area", metavar="AREA", required=True)
    for name in BENCH_MODULES:
        importlib.import_module(name).register_bench(areas)
