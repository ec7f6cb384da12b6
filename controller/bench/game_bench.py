"""`shogi-robot bench game [--n N] [--seed S] [--plies P]`: whole games replayed through the real pipeline.

The first N games of `../shared/data/games/lishogi-500.usi` (default 3; `--n 500`: all; `--first K` starts at
game K+1, to develop on games the benchmark does not use) are played by the simulated person in front of the
virtual camera, as `shogi-robot replay` does: every game with its own seed
(board look, lamp, camera pose, the person's timing and sloppiness) and a piece style the classifier never saw
in training (the model's held-out styles, in turn). The reader is told which side of the picture sente sits at,
as an installed robot's camera mount would say (`--auto-orient`: it decides from the pieces). Prints per game,
then in total: moves recorded correctly (target 100 %), false moves committed (target 0), prompts per 100 moves
(target < 1), median and p95 time from the first stable frame to the committed move (target <= 300 ms), games
with any error. `--calibrate`: the reader is first calibrated to each game's piece set, as a user does once;
otherwise it learns the set from each game's confirmed start position, as the product does (`--no-learn-set`: not).
Then `--play N` simulated games against the engine on the virtual board (default 1): games completed, robot moves
confirmed by the camera on the first try. For development, `--family plain2` (or `plain`, `one`, `proxy`) plays on
faces drawn from fonts no training run uses (`vision.train.dev_eval`; `plain2`: two-character faces, as most
wooden sets have) instead of the held-out styles; it needs the training fonts (`scripts/install-debs.sh --train`)
and `--play 0`.
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path
from typing import Any

from controller.bench.machine import machine_line

DEFAULT_GAMES = Path("../shared/data/games/lishogi-500.usi")


def register_bench(subparsers: Any) -> None:
    """Add `bench game`."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "game", help="whole games replayed through camera, reader and reconciler", description=__doc__
    )
    parser.add_argument("--n", type=int, default=3, help="games to replay (default 3)")
    parser.add_argument("--seed", type=int, default=0, help="base seed (game i uses seed*1000+i)")
    parser.add_argument(
        "--first", type=int, default=0, help="start at this game of the list (0-based; default 0: the benchmark's)"
    )
    parser.add_argument(
        "--calibrate",
        action="store_true",
        help="calibrate the reader to each game's piece set first, as a user does (start position, then every "
        "piece turned over)",
    )
    parser.add_argument(
        "--no-learn-set",
        dest="learn_set",
        action="store_false",
        help="the reader does not learn the piece set from each game's confirmed start ([vision] learn_set = false)",
    )
    parser.add_argument(
        "--learn-set-again",
        action="store_true",
        help="the reader also learns the set from positions confirmed later ([vision] learn_set_again = true)",
    )
    parser.add_argument(
        "--family",
        choices=("plain", "plain2", "one", "proxy"),
        help="development: faces drawn from fonts never trained on (needs the training fonts and --play 0)",
    )
    parser.add_argument("--plies", type=int, default=0, help="replay only the first P plies of each game (0: all)")
    parser.add_argument("--games", type=Path, default=DEFAULT_GAMES, help="USI game list, one game per line")
    parser.add_argument("--size", default="800x600", help="camera picture size WxH (default 800x600)")
    parser.add_argument("--max-tilt", type=float, default=30.0, help="largest camera tilt in degrees (default 30)")
    parser.add_argument(
        "--auto-orient", action="store_true", help="the reader finds sente's side from the pieces (no mount setting)"
    )
    parser.add_argument(
        "--play", type=int, default=1, help="then simulated play games against the engine (default 1; 0: none)"
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="print every prompt and error")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Replay the games and print the figures."""
    from controller.cli.errors import CommandError
    from controller.cli.replay_cmd import held_out_styles, load_classifier, parse_size, replay_one
    from controller.config import VisionConfig
    from controller.rules.positions import STARTPOS_SFEN
    from controller.sim.replay import GameReport, ReplaySettings, summarise

    if args.n < 1 or args.plies < 0 or args.first < 0:
        raise CommandError("--n must be at least 1, --first 0 or more and --plies 0 (all) or positive")
    try:
        lines = [line.split() for line in args.games.read_text(encoding="utf-8").splitlines() if line.strip()]
    except OSError as exc:
        raise CommandError(f"cannot read the games: {exc}") from exc
    games = lines[args.first : args.first + args.n]
    if not games:
        raise CommandError(f"{args.games} has {len(lines)} games: nothing from --first {args.first}")
    size = parse_size(args.size)
    if args.family is not None and args.play:
        raise CommandError("--family plays development styles for replayed games only: add --play 0")
    dirs: dict[str, Path] = {}
    if args.family:
        from vision.train.dev_eval import first_variants

        dirs = first_variants(args.family)
    styles = tuple(sorted(dirs)) if dirs else held_out_styles()
    classifier = load_classifier()
    print(
        f"# bench game: {len(games)} games of {args.games} from game {args.first + 1}, "
        + ("development styles " if dirs else "held-out styles ")
        + f"{', '.join(styles)}, {size[0]}x{size[1]}, reader on {VisionConfig().threads} thread(s)"
        + (
            ", reader calibrated to each set"
            if args.calibrate
            else ", set learnt from each game's start and again later"
            if args.learn_set and args.learn_set_again
            else ", set learnt from each game's start"
            if args.learn_set
            else ", generic reader (no set learnt)"
        )
    )
    reports: list[GameReport] = []
    load_before = os.getloadavg()
    started = time.perf_counter()
    for index, moves in enumerate(games, start=args.first):
        seed = args.seed * 1000 + index
        style = styles[index % len(styles)]
        report = replay_one(
            moves,
            STARTPOS_SFEN,
            seed=seed,
            style=style,
            size=size,
            classifier=classifier,
            settings=ReplaySettings(max_plies=args.plies),
            max_tilt_deg=args.max_tilt,
            auto_orient=args.auto_orient,
            calibrate=args.calibrate,
            learn_set=args.learn_set,
            learn_set_again=args.learn_set_again,
            style_dir=dirs.get(style),
        )
        reports.append(report)
        _print_game(index, seed, style, report, args.verbose)
    print(f"# total ({time.perf_counter() - started:.0f} s wall)")
    for line in summarise(reports).lines():
        print(line)
    setup = sum(r.error.startswith("setup check") for r in reports)
    false = sum(r.false_moves > 0 for r in reports)
    print(f"of the games with an error: {setup} never saw the starting position, {false} committed a false move")
    arm, reads = sum(r.arm_reads for r in reports), sum(r.reads for r in reports)
    print(f"frames read while an arm hid squares (the motion gate missed it): {arm} of {reads}")
    load = " ".join(f"{value:.2f}" for value in load_before), " ".join(f"{value:.2f}" for value in os.getloadavg())
    print(f"load average (1, 5, 15 min): {load[0]} at the start, {load[1]} at the end (latency counts wall time)")
    print(machine_line())
    _play(args.play, args.seed, styles)
    return 0


def _play(n: int, seed: int, styles: tuple[str, ...]) -> None:
    """The simulated play mode: games completed, robot moves confirmed on the first try."""
    from controller.bench.play_bench import game_line, play_game, total_line

    if n < 1:
        return
    print(f"# simulated play: {n} games against the engine, held-out styles")
    games = []
    for i in range(n):
        games.append(play_game(seed * 1000 + 500 + i, styles[i % len(styles)]))
        print(game_line(i + 1, games[-1]), flush=True)
    print(total_line(games))


def _print_game(index: int, seed: int, style: str, report: Any, verbose: bool) -> None:
    from controller.sim.replay import summarise

    s = summarise([report])
    print(
        f"game {index + 1} (seed {seed}, {style}): {s.correct}/{s.moves} correct, {s.false_moves} false, "
        f"{s.prompts} prompts, median {s.median_ms:.0f} ms p95 {s.p95_ms:.0f} ms"
        + (f" ERROR {report.error}" if report.error else ""),
        flush=True,
    )
    if verbose:
        for event in report.events:
            print(f"    {event}")
