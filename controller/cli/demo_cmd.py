"""`shogi-robot demo`: the README's main job — a whole simulated game against fairy-stockfish.

The virtual camera renders the virtual board; a simulated human (a second fairy-stockfish) makes its moves on it
the way a person does; fairy-stockfish answers, and its moves are carried out by the gantry: the real
`GrblGantry` sends G-code over a pseudo-terminal to the fake GRBL device, whose grips and releases move the
virtual pieces (captures to the stand, drops from it, promotions through the flip station). The real motion gate,
board reader, reconciler, rules, planner and journal run as on the real board. Progress is shown as the game
goes (moves in Japanese and USI, clocks, the board every few moves). The simulated human is the weaker engine
(`[sim] human_skill_level` of the shipped simulation config), so the game ends by mate (or resignation,
repetition, impasse) in a few minutes; the ply cap (`--max-plies`) is only a safety net, and said so plainly
when it stops a game. The record (KIFU and CSA, written as the game goes), the journal and a PNG of the final
camera frame are left in `--out`. The options are those of `play --sim` (`--config` names a simulation config,
`--sim-human FILE` replays a record as the human, `--web`, `--speak`, `--time`...), with the demo's defaults.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from controller.runner.options import SessionOptions


def register(subparsers: Any) -> None:
    """Add `demo`: the world, clock and web options of `play` (always simulated), with the demo's defaults."""
    from controller.cli.game_args import add_clock, add_world

    parser: argparse.ArgumentParser = subparsers.add_parser(
        "demo", help="play a whole simulated game against fairy-stockfish", description=__doc__
    )
    add_world(parser, out=Path("out/demo"))
    add_clock(parser)
    parser.add_argument("--movetime-ms", type=int, default=300, help="the engine's time per move (default 300)")
    parser.set_defaults(func=run, sim=True, max_plies=256)


def demo_options(args: argparse.Namespace) -> SessionOptions:
    """The session of the demonstration: `play --sim` with the demo's file names and engine time."""
    from controller.cli.game_args import session_options
    from controller.game.settings import Mode

    args.sim = True
    if args.name is None:
        args.name = f"demo-{time.strftime('%Y%m%d-%H%M%S')}"
    return session_options(args, Mode.PLAY, movetime_ms=args.movetime_ms)


def run(args: argparse.Namespace) -> int:
    """Play the demonstration game and save its record and final frame."""
    from controller.cli.game_args import summary
    from controller.runner.session import run_session

    options = demo_options(args)
    print(
        "shogi-robot demo: a simulated human (fairy-stockfish) against fairy-stockfish through the gantry", flush=True
    )
    start = time.monotonic()
    result = run_session(options, say=_say)
    lines = summary(result, time.monotonic() - start)
    picture = _save_frame(result.final_frame, args.out / f"{args.name}-final.png")
    if picture is not None:
        lines.append(f"final camera frame: {picture}")
    for line in lines:
        _say(line)
    return 0


def _save_frame(frame: Any, path: Path) -> Path | None:
    if frame is None:
        return None
    import cv2

    path.parent.mkdir(parents=True, exist_ok=True)
    if not cv2.imwrite(str(path), frame):
        raise OSError(f"{path}: cannot write the picture")
    return path


def _say(text: str) -> None:
    print(text, flush=True)
