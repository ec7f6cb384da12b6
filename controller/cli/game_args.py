"""Arguments and output shared by `play`, `record` and `demo`: the world (config or `--sim`), the game's files,
the web page, and the summary printed when a game ends.

Owns: parsing `--time` (`600+30`: main time and byoyomi in seconds; `600+10i`: Fischer increment; `untimed`),
`--engine-side` (b/w), turning the parsed namespace into `SessionOptions`, and the final figures' text.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

from controller.cli.errors import CommandError

if TYPE_CHECKING:
    from controller.game.clock import ClockConfig
    from controller.game.settings import Mode
    from controller.runner.options import SessionOptions, SessionResult


def add_world(parser: argparse.ArgumentParser, out: Path = Path("out")) -> None:
    """`--config FILE` and/or `--sim` (the shipped simulation config unless --config), the simulated human, seed,
    output (default `out`) and web options."""
    parser.add_argument("--config", type=Path, help="the TOML config of the real board (see docs/config.example.toml)")
    parser.add_argument(
        "--sim",
        action="store_true",
        help="simulate the world: virtual board and camera, simulated human, fake GRBL device on a pty "
        "(the reader, reconciler, rules, engine, planner and serial link are the real code)",
    )
    parser.add_argument(
        "--sim-human", metavar="engine|FILE", help="the simulated human's moves: a second engine, or a record"
    )
    parser.add_argument("--seed", type=int, help="seed of the simulated world (default: the config's)")
    parser.add_argument("--out", type=Path, default=out, help=f"folder for the journal and records (default {out}/)")
    parser.add_argument("--name", help="base name of the game's files (default: mode and start time)")
    parser.add_argument("--resume", type=Path, metavar="JOURNAL", help="continue the game of this journal")
    parser.add_argument("--web", action="store_true", help="serve the web page during the game")
    parser.add_argument("--listen", default="127.0.0.1", help="address of the web page (default 127.0.0.1)")
    parser.add_argument("--web-port", type=int, default=8080, help="port of the web page (default 8080)")
    parser.add_argument(
        "--keep-serving", action="store_true", help="with --web: stay up after a game; start the next from the page"
    )
    parser.add_argument("--max-plies", type=int, help="stop the game after this many moves")
    parser.add_argument("--board-every", type=int, default=10, help="print the board every N moves (0: at the end)")
    parser.add_argument("--stall-s", type=float, default=300.0, help="abort when no move is made for this long")
    parser.add_argument("--speak", choices=("en", "ja"), help="speak announcements and moves (espeak-ng)")
    parser.add_argument(
        "--sente-side",
        type=parse_sente_side,
        help="where sente sits in the camera's picture: bottom, top, left, right or degrees (default: the config's "
        "[camera] sente_side, else the reader decides)",
    )


def add_clock(parser: argparse.ArgumentParser) -> None:
    """`--time`."""
    parser.add_argument("--time", type=parse_time, help="time control: 600+30 (byoyomi), 600+10i (increment), untimed")


def parse_time(text: str) -> ClockConfig:
    """`600+30`, `600+10i`, `600` or `untimed`."""
    from controller.game.clock import ClockConfig
    from controller.game.errors import ClockError

    try:
        if text == "untimed":
            return ClockConfig(untimed=True)
        main, _, extra = text.partition("+")
        if extra.endswith("i"):
            return ClockConfig(main_s=float(main), increment_s=float(extra[:-1]))
        return ClockConfig(main_s=float(main), byoyomi_s=float(extra or 0))
    except (ValueError, ClockError) as exc:
        raise argparse.ArgumentTypeError(f"bad time control {text!r}: use 600+30, 600+10i or untimed") from exc


def parse_sente_side(text: str) -> str | float:
    """`bottom`, `top`, `left`, `right` or a direction in degrees."""
    if text in ("bottom", "top", "left", "right"):
        return text
    try:
        return float(text)
    except ValueError as exc:
        message = f"sente side must be bottom, top, left, right or degrees, got {text!r}"
        raise argparse.ArgumentTypeError(message) from exc


def parse_side(text: str) -> Any:
    """`b`/`black`/`sente` or `w`/`white`/`gote`."""
    from controller.rules.types import Color

    sides = {"b": Color.BLACK, "black": Color.BLACK, "sente": Color.BLACK}
    sides |= {"w": Color.WHITE, "white": Color.WHITE, "gote": Color.WHITE}
    if text not in sides:
        raise argparse.ArgumentTypeError(f"engine side must be b or w, got {text!r}")
    return sides[text]


def session_options(args: argparse.Namespace, mode: Mode, **extra: Any) -> SessionOptions:
    """The options of one session from the parsed arguments."""
    from controller.runner.options import SessionOptions

    if args.config is None and not args.sim:
        raise CommandError("give --config FILE for the real board, or --sim for the simulated one")
    return SessionOptions(
        mode=mode,
        config=args.config,
        sim=args.sim,
        sim_human=args.sim_human,
        clock=getattr(args, "time", None),
        out=args.out,
        name=args.name,
        resume=args.resume,
        web=args.web,
        listen=args.listen,
        web_port=args.web_port,
        max_plies=args.max_plies,
        seed=args.seed,
        board_every=args.board_every,
        stall_s=args.stall_s,
        speak=args.speak,
        keep_serving=getattr(args, "keep_serving", False),
        sente_side=getattr(args, "sente_side", None),
        **extra,
    )


def summary(result: SessionResult, wall_s: float) -> list[str]:
    """The figures printed when the game ends."""
    from controller.runner.display import compact_board, final_position, move_kinds
    from controller.runner.effects import describe_result

    report, state = result.report, result.report.state
    lines = ["", "final position:", compact_board(final_position(state))]
    ending = describe_result(state.result) if state.result is not None else "not finished"
    lines.append(f"result: {ending}" + (f" — stopped: {report.stopped}" if report.stopped else ""))
    lines.append(f"plies: {len(state.moves)}; wall time {wall_s:.1f} s; frames {result.frames}, reads {result.reads}")
    if state.settings.gantry:
        kinds = move_kinds(state.settings.start_sfen, state.usi_moves, state.settings.opponent_side)
        lines.append(
            f"robot moves confirmed by the camera: {report.robot_moves} "
            f"({report.robot_first_try} on the first try); gantry transfers {result.transfers} "
            f"in {result.robot_runs} attempts, failed attempts {report.transfer_failures}"
        )
        lines.append(
            f"robot moves with a capture: {kinds['captures']}, drops: {kinds['drops']}, "
            f"promotions: {kinds['promotions']}"
        )
    lines.append(f"prompts: {len(report.prompts)}; board mismatches reported: {report.mismatches}")
    lines += [f"  prompt: {q}" for q in report.prompts]
    if result.board_matches is not None:
        verdict = "yes" if result.board_matches else "NO"
        lines.append(f"the virtual board's squares at the end match the recorded game: {verdict}")
    if result.lost_pieces:
        lines.append(f"pieces lost by the gantry: {', '.join(result.lost_pieces)}")
    journal = result.files.base.with_name(result.files.base.name + ".journal")
    lines.append("files: " + ", ".join(str(p) for p in [journal, *result.files.records()]))
    return lines
