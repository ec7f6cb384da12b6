"""`shogi-robot sim ...`: simulated hardware. `sim grbl` serves the fake GRBL 1.1h device on a pseudo-terminal.

It prints the device path (one line, flushed) and serves until Ctrl-C, so another process can connect to it
with `--port PATH`. Faults are injected by configuration (`--faults key=value,...`, see
`firmware_bridge.fake_config.FaultConfig`). Head events (grip, release, move, ...) go to stderr with
`--events`.
"""

from __future__ import annotations

import argparse
import signal
import sys
import threading
import time
from typing import Any

from controller.cli.errors import CommandError


def register(subparsers: Any) -> None:
    """Add `sim` and its `grbl` sub-command."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "sim", help="simulated hardware", description="Serve simulated hardware for the real code paths."
    )
    kinds = parser.add_subparsers(dest="sim_kind", metavar="KIND", required=True)
    grbl = kinds.add_parser(
        "grbl",
        help="fake GRBL 1.1h gantry controller on a pty",
        description="Serve a byte-level fake GRBL 1.1h controller on a pseudo-terminal; prints its path.",
    )
    grbl.add_argument(
        "--faults",
        default="",
        help="fault injection, e.g. 'alarm_after_lines=5,fault_delay_s=0.1' or 'missing_ok_lines=3;7'",
    )
    grbl.add_argument("--fast", action="store_true", help="fast motion settings (for quick simulations)")
    grbl.add_argument(
        "--flavour",
        choices=("grbl", "grblhal", "fluidnc"),
        default="grbl",
        help="firmware to imitate (banner, line ends; fluidnc: also use --no-reset-on-open)",
    )
    grbl.add_argument("--boot-delay", type=float, default=0.5, help="seconds from port open to banner")
    grbl.add_argument(
        "--no-reset-on-open", action="store_true", help="behave like an ESP32 board (no auto-reset on open)"
    )
    grbl.add_argument("--events", action="store_true", help="print head events to stderr")
    grbl.set_defaults(func=_run_grbl)


def _run_grbl(args: argparse.Namespace) -> int:
    from firmware_bridge import FAST_MOTION, FakeGrblConfig, FakeGrblServer, FaultConfig, HeadEvent
    from firmware_bridge.fake_config import Flavour

    try:
        config = FakeGrblConfig(
            settings=FAST_MOTION if args.fast else {},
            boot_delay_s=args.boot_delay,
            reset_on_open=not args.no_reset_on_open,
            flavour=Flavour(args.flavour),
            rx_buffer_bytes=128 if args.flavour == "grbl" else 1024,
            faults=FaultConfig.parse(args.faults),
        )
    except ValueError as exc:
        raise CommandError(str(exc)) from exc

    def show(event: HeadEvent) -> None:
        position = f"{event.x_mm:.3f},{event.y_mm:.3f},{event.z_mm:.3f}"
        print(f"{event.time_s:.3f} {event.kind.value} {position} {event.detail}".rstrip(), file=sys.stderr)

    server = FakeGrblServer(config, on_event=show if args.events else None)
    interrupted = _stop_on_signals()
    print(server.start(), flush=True)
    try:
        while server.running() and not interrupted.is_set():
            time.sleep(0.2)
        if not interrupted.is_set():
            print("fake GRBL: port closed (injected disconnect)", file=sys.stderr)
    finally:
        server.stop()
    return 0


def _stop_on_signals() -> threading.Event:
    """An event set by Ctrl-C (SIGINT) or SIGTERM. A flag, not KeyboardInterrupt: an exception raised at any
    point of the serving loop can leave a thread's state half-updated (`Thread.is_alive` interrupted), and the
    process then hung on exit in CI instead of stopping."""
    interrupted = threading.Event()
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, lambda *_: interrupted.set())
    return interrupted
