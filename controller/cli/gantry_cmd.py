"""`shogi-robot gantry --port PORT [--config FILE] status | home | jog X Y [Z] | exec --sfen SFEN MOVE |
setup --sfen SFEN [--from SFEN]`: drive the real gantry (or the fake GRBL that `shogi-robot sim grbl` serves).

With no `--config`, the documented default geometry (hardware/default_config.toml) is used. Opening the port
resets an Uno (and its alarm lock), so moving commands home first unless `--no-home` (then `$X` unlocks and the
position is trusted as it is). `exec` and `setup` print each transfer as it starts; a HUMAN action waits for
Enter (or is assumed done with `--assume-human-done`). On a firmware fault nothing is retried: the command
stops, says which transfer was interrupted and where the piece is believed to be, and exits with 1.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

from controller.cli.errors import CommandError

if TYPE_CHECKING:
    from controller.planning.model import Transfer
    from firmware_bridge.gantry import GrblGantry
    from hardware.settings import HardwareSettings


def register(subparsers: Any) -> None:
    """Add `gantry` and its actions."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "gantry", help="drive the gantry over GRBL", description=__doc__
    )
    parser.add_argument(
        "--port", help="serial device (e.g. /dev/ttyUSB0 or the sim's /dev/pts/N; default: the config's [gantry] port)"
    )
    parser.add_argument("--config", type=Path, default=None, help="TOML config (default: the documented one)")
    parser.add_argument("--no-home", action="store_true", help="unlock with $X instead of homing first")
    parser.add_argument(
        "--no-reset-on-open", action="store_true", help="the board does not reset when opened (ESP32/FluidNC)"
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    actions.add_parser("status", help="print the controller's state and position")
    actions.add_parser("home", help="run the homing cycle")
    jog = actions.add_parser("jog", help="move the head to X Y [Z] (machine mm) and wait")
    jog.add_argument("x", type=float)
    jog.add_argument("y", type=float)
    jog.add_argument("z", type=float, nargs="?", default=None)
    run = actions.add_parser("exec", help="carry out one move (USI) physically")
    run.add_argument("--sfen", required=True, help="the position before the move (pieces in hand in the first slots)")
    run.add_argument("move", help="USI move, e.g. 7g7f, 8h2b+, P*5e")
    setup = actions.add_parser("setup", help="rearrange the board from one position to another")
    setup.add_argument("--sfen", required=True, help="target position (SFEN, startpos or a handicap name)")
    setup.add_argument("--from", dest="source", default="startpos", help="the position on the board now")
    for sub in (run, setup):
        sub.add_argument("--assume-human-done", action="store_true", help="do not wait for Enter on human actions")
    parser.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    from controller import compose

    settings = compose.hardware_settings(args.config)
    args.port = args.port or compose.configured_gantry_port(args.config)
    if args.port is None:
        raise CommandError("the gantry's serial port is needed: --port /dev/ttyACM0, or [gantry] port in --config")
    gantry = _open(args, settings)
    try:
        if args.action == "status":
            return _status(gantry)
        _prepare(gantry, args.no_home)
        if args.action == "home":
            print(f"homed; position {gantry.position()}")
            return 0
        if args.action == "jog":
            return _jog(gantry, settings, args)
        return _transfers(gantry, settings, args)
    finally:
        gantry.close()


def _open(args: argparse.Namespace, settings: HardwareSettings) -> GrblGantry:
    from controller import compose
    from firmware_bridge.errors import FirmwareBridgeError

    try:
        return compose.open_gantry(args.port, settings, expect_reset=not args.no_reset_on_open)
    except FirmwareBridgeError as exc:
        raise CommandError(f"cannot connect to the gantry on {args.port}: {exc}") from exc


def _prepare(gantry: GrblGantry, no_home: bool) -> None:
    from firmware_bridge.errors import FirmwareBridgeError

    try:
        if no_home:
            gantry.unlock()
        else:
            gantry.home()
    except FirmwareBridgeError as exc:
        raise CommandError(f"{'unlock' if no_home else 'homing'} failed: {exc}") from exc


def _status(gantry: GrblGantry) -> int:
    from firmware_bridge.errors import FirmwareBridgeError

    try:
        report = gantry.status()
    except FirmwareBridgeError as exc:
        raise CommandError(f"no status: {exc}") from exc
    print(f"state: {report.state.value}")
    print(f"position: {gantry.snapshot().last_reported_position}")
    return 0


def _jog(gantry: GrblGantry, settings: HardwareSettings, args: argparse.Namespace) -> int:
    from firmware_bridge.errors import FirmwareBridgeError

    z = args.z if args.z is not None else settings.geometry.travel_z_mm
    problem = settings.geometry.limits.violation(args.x, args.y, z)
    if problem:
        raise CommandError(f"jog target out of the travel limits: {problem}")
    try:
        gantry.move_to(args.x, args.y, args.z)
        gantry.wait_idle()
    except FirmwareBridgeError as exc:
        raise CommandError(f"jog failed: {exc}") from exc
    print(f"at {gantry.position()}")
    return 0


def _transfers(gantry: GrblGantry, settings: HardwareSettings, args: argparse.Namespace) -> int:
    from controller import compose
    from controller.planning.planner import Capabilities, plan_move
    from controller.planning.setup import plan_setup
    from controller.planning.state import PhysicalState
    from controller.rules.positions import resolve_start

    caps = Capabilities.of(settings.geometry)
    start = resolve_start(args.sfen if args.action == "exec" else args.source)
    state = PhysicalState.from_sfen(start)
    if args.action == "exec":
        plan = plan_move(state.copy(), start, args.move, caps)
    else:
        plan = plan_setup(state.copy(), resolve_start(args.sfen), caps)
    print(f"{len(plan.transfers)} transfers planned")

    def show(index: int, transfer: Transfer) -> None:
        print(f"[{index + 1}/{len(plan.transfers)}] {transfer.describe()}", flush=True)

    def human(transfer: Transfer) -> None:
        if not args.assume_human_done:
            input(f"  {transfer.describe()} -- press Enter when done ")

    executor = compose.executor(gantry, settings, state, ask_human=human, on_transfer=show)
    report = executor.run(plan.transfers)
    if report.interruption is not None:
        raise CommandError(report.interruption.describe())
    print(f"done; board now {state.board_field()}")
    return 0
