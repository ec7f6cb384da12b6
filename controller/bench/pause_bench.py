"""`shogi-robot bench pause`: a hand paused anywhere during a move must not make the reconciler commit a false move.

A person's hand stops for a moment over the board: to lift a piece, to set it down, on its way. A camera then
sees still frames with the hand in them, and the motion gate lets them through. For moves of real games
(`../shared/data/games/`), the virtual board is set at the position before; the simulated human's steps for
the move are applied one after another; after each step the virtual camera's frame is read by the real board
reader (grid found on the frame before the move, as in a game). A fresh reconciler at the position before first
confirms it on the frame before the move (as a game has: its rim, `vision.rim`, is the one later frames are
compared with), then sees an unstable frame, then the paused hand's frame `--repeat` times as stable frames,
1/30 s apart (a hand held still for that long; the default, a second, is longer than the reconciler's
`agree_seconds`, which alone keeps out shorter stops). `--agree-seconds 0` and `--no-rim` show what the other
rules keep out without them.
Piece styles are those the classifier never saw in training (or `--style`).

Printed: paused-hand frames shown, and what the reconciler committed on them: false moves (neither the move
nor what the board's resting pieces show: must be 0), the board's own state (a piece set down face up before it
is turned over to promote: the board really shows that move for a moment), and the true move committed while
the hand is still in the picture (early, harmless).
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import random
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from controller.bench.machine import machine_line
from controller.bench.rules_bench import DEFAULT_GAMES, load_games
from controller.reconcile import MoveCommitted, NoChange, Observation, ReconcileConfig, Reconciler
from controller.reconcile.labels import LABEL_INDEX, board_labels
from controller.rules.positions import STARTPOS_SFEN, board_from_sfen
from controller.runner.eyes import unstable

FRAME_S = 1 / 30
"""Interval between the repeated still frames (a 30 fps camera)."""
CONFIRM_FRAMES = 60
"""Most still frames of the position before the move shown to confirm it (it is confirmed after a few)."""


def register_bench(subparsers: Any) -> None:
    """Add `bench pause`."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "pause", help="false moves committed on frames of a hand paused over the board", description=__doc__
    )
    parser.add_argument("--games", type=Path, default=DEFAULT_GAMES, help="USI games, one per line")
    parser.add_argument("--n", type=int, default=60, help="moves (default 60)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the moves, poses and hands (default 1)")
    parser.add_argument("--style", help="piece style (default: the held-out styles in turn)")
    parser.add_argument(
        "--repeat", type=int, default=30, help="still frames per hand position, at 30 fps (default 30: one second)"
    )
    parser.add_argument(
        "--agree-seconds",
        type=float,
        help="the reconciler's agree_seconds (default: its own; 0 shows what the other rules alone keep out)",
    )
    parser.add_argument(
        "--no-rim", action="store_true", help="frames without the rim strip (`vision.rim`; an ablation)"
    )
    parser.set_defaults(func=run)


@dataclass
class PauseTally:
    """What the reconciler committed on paused-hand frames."""

    moves: int = 0
    frames: int = 0
    false_moves: int = 0
    board_state: int = 0
    early: int = 0
    unconfirmed: int = 0
    """Moves whose position before was not confirmed on its frame (their rim is compared with nothing)."""


def run(args: argparse.Namespace) -> int:
    """Show the paused hands and print the figures; exit status 1 when a false move was committed."""
    from vision.train.train_classifier import HELD_OUT

    if args.n < 1 or args.repeat < 1:
        raise SystemExit("bench pause: --n and --repeat must be at least 1")
    games = load_games(args.games, 500)
    styles = [args.style] if args.style else list(HELD_OUT)
    rng = random.Random(args.seed)
    tally = PauseTally()
    config = ReconcileConfig() if args.agree_seconds is None else ReconcileConfig(agree_seconds=args.agree_seconds)
    watch = Watch(args.repeat, config, rim=not args.no_rim)
    start = time.monotonic()
    for i in range(args.n):
        moves = rng.choice(games)
        ply = rng.randrange(len(moves))
        style, seed = styles[i % len(styles)], args.seed * 1000 + i
        pause_move(moves[:ply], moves[ply], style=style, seed=seed, watch=watch, tally=tally)
    wall = time.monotonic() - start
    rim = "without the rim strip" if args.no_rim else "with the rim strip"
    print(
        f"pause bench: {tally.moves} moves, styles {', '.join(styles)}, {args.repeat} still frames per hand "
        f"position, agree_seconds {config.agree_seconds}, {rim}"
    )
    print(f"  positions not confirmed:   {tally.unconfirmed}  (no rim to compare with on their frames)")
    print(f"  paused-hand frames:        {tally.frames}")
    print(f"  false moves:               {tally.false_moves}")
    print(f"  the board's own state:     {tally.board_state}  (a piece set down face up, turned over after)")
    print(f"  true move, hand in view:   {tally.early}")
    print(f"  wall time:                 {wall:.0f} s")
    print(machine_line())
    return 0 if tally.false_moves == 0 else 1


@dataclass(frozen=True)
class Watch:
    """How the reconciler watches: still frames per hand position, its settings, whether reads carry the rim."""

    repeat: int
    config: ReconcileConfig
    rim: bool = True


def pause_move(before: list[str], usi: str, *, style: str, seed: int, watch: Watch, tally: PauseTally) -> None:
    """Show the reconciler every hand position of one move, each held still for `watch.repeat` frames, after the
    position before it was confirmed on the frame before the move."""
    from controller.sim import CameraSettings, SimulatedHuman, VirtualBoard, VirtualCamera
    from hardware.geometry import Side
    from vision.orientation import sente_direction
    from vision.reader import BoardReader, ReaderSettings

    board = board_from_sfen(STARTPOS_SFEN)
    for move in before:
        board.push_usi(move)
    sfen = str(board.sfen())
    world = VirtualBoard(_sim_geometry(), sfen, seed=seed)
    camera = VirtualCamera(world, CameraSettings(style=style, seed=seed, size=(800, 600)))
    first = camera.read()
    assert camera.last is not None
    reader = BoardReader(settings=ReaderSettings(sente_side=float(sente_direction(camera.last.board_corners_px))))
    confirmed = reader.read(first)
    tally.unconfirmed += not _confirmed_reconciler(confirmed, sfen, watch, reader.settings.min_confidence)[2]
    mover = Side.BLACK if board.turn == 0 else Side.WHITE
    steps = SimulatedHuman(world, seed=seed).plan_move(usi, mover, 0.0)
    tally.moves += 1
    for k, step in enumerate(steps):
        step.action(world)
        if k + 1 < len(steps) and steps[k + 1].at_s == step.at_s:
            continue  # changes at one instant are seen together
        committed = _committed(confirmed, reader.read(camera.read()), sfen, watch, reader.settings.min_confidence)
        tally.frames += 1
        if committed is None:
            continue
        position = board_from_sfen(sfen)
        for move in committed:
            position.push_usi(move)
        labels = tuple(board_labels(position))
        if committed == (usi,):
            tally.early += world.arm is not None
        elif labels == _resting(world):
            tally.board_state += 1
        else:
            tally.false_moves += 1
            print(f"  false: {usi} played after {len(before)} plies, {' '.join(committed)} committed ({step.note})")


@functools.cache
def _sim_geometry() -> Any:
    """The board geometry of the shipped simulation config (`controller/data/sim_config.toml`), read once."""
    from controller.compose import sim_config_path
    from controller.config import load_config

    hardware = load_config(sim_config_path()).hardware
    if hardware is None:
        raise SystemExit("bench pause: the simulation config has no hardware sections")
    return hardware.geometry


def _committed(confirmed: Any, read: Any, sfen: str, watch: Watch, min_confidence: float) -> tuple[str, ...] | None:
    """The moves a fresh reconciler at `sfen` commits from `read` seen `watch.repeat` times still, after motion,
    the position having first been confirmed on the still frame `confirmed` (its rim is the one compared with)."""
    from controller.vision_adapter import observation_from_read

    reconciler, now, _ = _confirmed_reconciler(confirmed, sfen, watch, min_confidence)
    reconciler.observe(unstable(now))
    for _ in range(watch.repeat):
        now += FRAME_S
        obs = observation_from_read(read, stable=True, now=now, min_confidence=min_confidence)
        result = reconciler.observe(_without_rim(obs, watch))
        if isinstance(result, MoveCommitted):
            return result.moves
    return None


def _confirmed_reconciler(
    confirmed: Any, sfen: str, watch: Watch, min_confidence: float
) -> tuple[Reconciler, float, bool]:
    """A fresh reconciler at `sfen` shown the still frame `confirmed` until it confirms the position (at most
    `CONFIRM_FRAMES`): the reconciler, the time reached, and whether it confirmed."""
    from controller.vision_adapter import observation_from_read

    reconciler = Reconciler(watch.config, sfen=sfen)
    now = 0.0
    for _ in range(CONFIRM_FRAMES):
        now += FRAME_S
        obs = observation_from_read(confirmed, stable=True, now=now, min_confidence=min_confidence)
        if isinstance(reconciler.observe(_without_rim(obs, watch)), NoChange):
            return reconciler, now, True
    return reconciler, now, False


def _without_rim(obs: Observation, watch: Watch) -> Observation:
    return obs if watch.rim else dataclasses.replace(obs, rim=None)


def _resting(world: Any) -> tuple[int, ...]:
    """The labels (indices) of the pieces resting on the virtual board."""
    return tuple(LABEL_INDEX[label] for label in world.ground_truth()[0])
