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
camera frame are left in `--out`.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any


def register(subparsers: Any) -> None:
    """Add `demo`."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "demo", help="play a whole simulated game against fairy-stockfish", description=__doc__
    )
    parser.add_argument("--out", type=Path, default=Path("out/demo"), help="folder for the record and the picture")
    parser.add_argument(
        "--max-plies", type=int, default=256, help="safety net: stop after this many moves (default 256)"
    )
    parser.add_argument("--movetime-ms", type=int, default=300, help="the engine's time per move (default 300)")
    parser.add_argument("--seed", type=int, default=None, help="seed of the simulated world")
    parser.add_argument("--board-every", type=int, default=10, help="print the board every N moves")
    parser.add_argument("--web", action="store_true", help="serve the web page while the game runs")
    parser.add_argument("--web-port", type=int, default=8080)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Play the demonstration game and save its record and final frame."""
    from controller.cli.game_args import summary
    from controller.game.settings import Mode
    from controller.runner.options import SessionOptions
    from controller.runner.session import run_session

    name = f"demo-{time.strftime('%Y%m%d-%H%M%S')}"
    options = SessionOptions(
        Mode.PLAY,
        sim=True,
        out=args.out,
        name=name,
        movetime_ms=args.movetime_ms,
        max_plies=args.max_plies,
        seed=args.seed,
        board_every=args.board_every,
        web=args.web,
        web_port=args.web_port,
    )
    print(
        "shogi-robot demo: a simulated human (fairy-stockfish) against fairy-stockfish through the gantry", flush=True
    )
    start = time.monotonic()
    result = run_session(options, say=_say)
    lines = summary(result, time.monotonic() - start)
    picture = _save_frame(result.final_frame, args.out / f"{name}-final.png")
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
