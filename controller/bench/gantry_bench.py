"""`shogi-robot bench gantry`: planned time per move over real games, and a fault-injection run on the fake GRBL.

Owns: the benchmark command. Part 1 plans every move of the games file (default ../shared/data/games/
lishogi-500.usi) with the configured geometry (and again with a flip station and a rotation axis added), and
prints the planned time per move (median and 95th percentile for plain moves, captures, drops, promotions), the
path length, the human actions, the collisions and out-of-range targets (must be 0), and the time to reset each
final position to the start. Part 2 runs fault-injection episodes (every fault kind of the fake GRBL device,
through the real link over a pty, fast fake motion) and prints faults detected, moves resumed correctly, stops
that name the piece to check, and pieces whose position is unknown (must be 0).
"""

from __future__ import annotations

import argparse
import dataclasses
import logging
import math
import statistics
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import cshogi

from controller.bench.machine import machine_line
from controller.planning.errors import CollisionError, OutOfRangeError
from controller.planning.motion import estimate
from controller.planning.planner import Capabilities, plan_move
from controller.planning.setup import plan_setup
from controller.planning.state import PhysicalState
from controller.rules.positions import STARTPOS_SFEN
from hardware.geometry import RotationMethod
from hardware.settings import HardwareSettings

DEFAULT_GAMES = Path("../shared/data/games/lishogi-500.usi")
CATEGORIES = ("plain", "capture", "drop", "promotion")


def register_bench(subparsers: Any) -> None:
    """Add `bench gantry`."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "gantry", help="planned move times and a fault-injection run of the gantry", description=__doc__
    )
    parser.add_argument("--games", type=Path, default=DEFAULT_GAMES, help="USI games, one per line")
    parser.add_argument("--config", type=Path, default=None, help="TOML config (default: the documented one)")
    parser.add_argument("--episodes", type=int, default=240, help="fault-injection episodes (0 to skip)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the episode draw")
    parser.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    from controller.cli.errors import CommandError
    from controller.compose import hardware_settings

    if not args.games.is_file():
        raise CommandError(f"games file not found: {args.games}")
    games = [line.split() for line in args.games.read_text(encoding="utf-8").splitlines() if line.strip()]
    settings = hardware_settings(args.config)
    g = settings.geometry
    print(f"games: {len(games)} from {args.games}; {sum(map(len, games))} moves")
    print(
        f"motion: {settings.motion.max_rate_xy_mm_per_min / 60:.0f} mm/s, {settings.motion.accel_xy_mm_per_s2:.0f} "
        f"mm/s^2 (Z {settings.motion.max_rate_z_mm_per_min / 60:.0f} mm/s, {settings.motion.accel_z_mm_per_s2:.0f} "
        f"mm/s^2), lift {g.travel_z_mm - g.pick_z_mm:.0f} mm, dwell {settings.motion.grip_dwell_s:.2f}+"
        f"{settings.motion.release_dwell_s:.2f} s"
    )
    _plan_section("configured geometry", settings, games)
    flip_uv = g.flip_station_uv or (4 * g.file_spacing_mm, -40.0)
    machine = dataclasses.replace(
        settings, geometry=dataclasses.replace(g, flip_station_uv=flip_uv, rotation=RotationMethod.AXIS)
    )
    _plan_section(f"with a flip station at u,v={flip_uv} and a rotation axis", machine, games)
    if args.episodes > 0:
        _fault_section(settings, games, args.episodes, args.seed)
    print(machine_line())
    return 0


def _category(board: cshogi.Board, usi: str) -> str:
    """plain, capture (without promotion), drop or promotion (with or without a capture)."""
    if "*" in usi:
        return "drop"
    if usi.endswith("+"):
        return "promotion"
    return "capture" if board.piece(cshogi.move_to(board.move_from_usi(usi))) else "plain"


def _plan_section(title: str, settings: HardwareSettings, games: list[list[str]]) -> None:
    geometry, motion = settings.geometry, settings.motion
    caps = Capabilities.of(geometry)
    times: dict[str, list[float]] = defaultdict(list)
    paths: list[float] = []
    humans, problems, resets = Counter[str](), Counter[str](), []
    started = time.monotonic()
    for game in games:
        board, state = cshogi.Board(), PhysicalState.from_sfen(STARTPOS_SFEN)
        head = (*geometry.park_xy(), geometry.travel_z_mm)
        for usi in game:
            category = _category(board, usi)
            try:
                plan = plan_move(state, board, usi, caps)
                est = estimate(plan.transfers, geometry, motion, head)
            except CollisionError:
                problems["collision"] += 1
                break
            except OutOfRangeError:
                problems["out_of_range"] += 1
                break
            times[category].append(est.time_s)
            paths.append(est.path_mm)
            humans[category] += est.human_actions
            head = est.end
            board.push_usi(usi)
        try:
            reset = plan_setup(state, STARTPOS_SFEN, caps)
            resets.append((estimate(reset.transfers, geometry, motion, head), len(reset.transfers)))
        except (CollisionError, OutOfRangeError):
            problems["reset_failure"] += 1
    _print_plan(title, times, paths, humans, problems, resets, time.monotonic() - started)


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def _print_plan(  # noqa: PLR0917
    title: str,
    times: dict[str, list[float]],
    paths: list[float],
    humans: Counter[str],
    problems: Counter[str],
    resets: list[Any],
    seconds: float,
) -> None:
    targets = {"plain": 4.0, "capture": 8.0, "drop": 5.0}
    print(f"\n== planned time per move, {title} ({seconds:.1f} s to plan) ==")
    print(f"{'kind':<10} {'moves':>6} {'median s':>9} {'p95 s':>7} {'max s':>7} {'human/move':>11}  target median")
    for category in CATEGORIES:
        values = times.get(category, [])
        if not values:
            continue
        target = f"<= {targets[category]:.0f} s" if category in targets else "-"
        met = category in targets and statistics.median(values) <= targets[category]
        verdict = "" if category not in targets else (" ok" if met else " MISSED")
        print(
            f"{category:<10} {len(values):>6} {statistics.median(values):>9.2f} {_pct(values, 0.95):>7.2f} "
            f"{max(values):>7.2f} {humans[category] / len(values):>11.2f}  {target}{verdict}"
        )
    print(
        f"path per move: median {statistics.median(paths):.0f} mm, p95 {_pct(paths, 0.95):.0f} mm, "
        f"total {sum(paths) / 1000:.1f} m"
    )
    print(
        f"collisions: {problems['collision']}, out-of-range targets: {problems['out_of_range']}, "
        f"failed resets: {problems['reset_failure']}"
    )
    if resets:
        reset_times = [e.time_s for e, _ in resets]
        counts = [n for _, n in resets]
        humans_reset = [e.human_actions for e, _ in resets]
        print(
            f"reset to the start after each game ({len(resets)}): median {statistics.median(reset_times):.0f} s, "
            f"p95 {_pct(reset_times, 0.95):.0f} s; transfers median {statistics.median(counts):.0f}, "
            f"human actions median {statistics.median(humans_reset):.0f}"
        )


def _fault_section(settings: HardwareSettings, games: list[list[str]], count: int, seed: int) -> None:
    from controller.bench.gantry_faults import FAULT_KINDS, make_episodes, run_episode

    logging.getLogger("firmware_bridge").setLevel(logging.ERROR)
    fast = dataclasses.replace(
        settings, motion=dataclasses.replace(settings.motion, grip_dwell_s=0.01, release_dwell_s=0.01)
    )
    positions = _balanced_positions(games, seed)
    episodes = make_episodes(positions, count, seed, Capabilities.of(settings.geometry))
    print(f"\n== fault injection: {count} episodes, real GrblGantry over a pty to the fake GRBL 1.1h (fast motion) ==")
    started = time.monotonic()
    results, crashed = [], []
    for episode in episodes:
        try:
            results.append(run_episode(episode, fast))
        except Exception as exc:
            crashed.append(f"{episode.kind} line {episode.fault_line} {episode.usi}: {type(exc).__name__}: {exc}")
    print(f"{'fault kind':<17} {'runs':>5} {'detected':>9} {'resumed ok':>11} {'named stop':>11} {'unknown':>8}")
    for kind in FAULT_KINDS:
        rows = [r for r in results if r.episode.kind == kind]
        print(
            f"{kind:<17} {len(rows):>5} {sum(r.detected for r in rows):>9} {sum(r.correct for r in rows):>11} "
            f"{sum(r.named_stop for r in rows):>11} {sum(r.unknown_pieces for r in rows):>8}"
        )
    detected = [r for r in results if r.detected]
    print(
        f"total: {len(results)} episodes in {time.monotonic() - started:.0f} s; faults detected {len(detected)}; "
        f"of those resumed correctly {sum(r.correct for r in detected)}, stopped naming the piece to check "
        f"{sum(r.named_stop for r in detected)}; moves completed correctly overall {sum(r.correct for r in results)}"
    )
    unknown = sum(r.unknown_pieces for r in results)
    bad = [r for r in results if not r.correct and not r.named_stop]
    print(f"pieces whose position is unknown at the end: {unknown} (target 0)")
    print(f"episodes neither completed correctly nor stopped naming the piece: {len(bad)}")
    print(f"episodes whose set-up or recovery raised instead of reporting: {len(crashed)}")
    for line in crashed[:5]:
        print(f"  {line}")
    for r in bad[:5]:
        print(f"  {r.episode.kind} line {r.episode.fault_line} {r.episode.usi}: {r.message}")
    named = [r for r in results if r.named_stop]
    for r in named[:3]:
        print(f"  example stop: {r.message}")


def _balanced_positions(games: list[list[str]], seed: int) -> list[tuple[str, str]]:
    """Equal numbers of plain moves, captures, drops and promotions (sfen, usi), drawn from the games."""
    import random

    by_kind: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for game in games:
        board = cshogi.Board()
        for usi in game:
            by_kind[_category(board, usi)].append((board.sfen(), usi))
            board.push_usi(usi)
    rng = random.Random(seed)
    per_kind = min(len(v) for v in by_kind.values())
    return [p for kind in CATEGORIES for p in rng.sample(by_kind[kind], min(per_kind, 200))]
