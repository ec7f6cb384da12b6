"""`shogi-robot bench reconcile`: decision time and correctness of reconciliation on real games, synthetic frames.

Games come from `../shared/data/games/lishogi-500.usi` (or `--games FILE`). Each move is shown to the
reconciler as a camera would: frames with a hand over the board, then stable frames with seeded reader noise
(look-alike kinds, owner flips, hard errors, flagged squares); every `--pairs-every`-th move is made together
with the next one between two stable reads. When the reconciler asks (Ambiguous), the simulated player
answers with the truth. Printed: decision time per stable frame (median, p95, max), stable frames until a
commit, moves recovered, false moves (must be 0), prompts per 100 moves, mismatches and takebacks reported.
"""

from __future__ import annotations

import argparse
import statistics
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cshogi

from controller.bench.machine import machine_line
from controller.bench.rules_bench import DEFAULT_GAMES, load_games
from controller.reconcile import Ambiguous, Mismatch, MoveCommitted, Reconciler, Takeback
from controller.reconcile.synthetic import NoiseModel, SyntheticReader
from controller.reconcile.types import Observation

EXTRA_FRAMES = 30


def register_bench(subparsers: Any) -> None:
    """Add `bench reconcile`."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "reconcile", help="reconciliation decision time and false moves on synthetic frames", description=__doc__
    )
    parser.add_argument("--games", type=Path, default=DEFAULT_GAMES, help="USI games, one per line")
    parser.add_argument("--n", type=int, default=10, help="games to replay (default 10)")
    parser.add_argument("--seed", type=int, default=1, help="noise seed (default 1)")
    parser.add_argument("--pairs-every", type=int, default=9, help="make every Nth move a pair (0: never)")
    parser.add_argument("--hard-error-rate", type=float, default=0.01, help="per square and frame (default 0.01)")
    parser.add_argument("--unreliable-rate", type=float, default=0.2, help="per frame (default 0.2)")
    parser.add_argument("--hands-hidden", action="store_true", help="the reader reports no piece-stand counts")
    parser.add_argument(
        "--misread", default="", help="kinds the reader always takes for a look-alike (an unseen piece style), e.g. SG"
    )
    parser.set_defaults(func=run)


@dataclass
class Tally:
    """Counts and timings over all replayed games."""

    moves: int = 0
    recovered: int = 0
    false_moves: int = 0
    prompts: int = 0
    mismatches: int = 0
    takebacks: int = 0
    unresolved: int = 0
    decision_s: list[float] = field(default_factory=list)
    frames_to_commit: list[int] = field(default_factory=list)


def run(args: argparse.Namespace) -> int:
    """Replay the games and print the figures."""
    games = load_games(args.games, args.n)
    noise = NoiseModel(
        hard_error_rate=args.hard_error_rate,
        unreliable_rate=args.unreliable_rate,
        hands_visible=not args.hands_hidden,
        misread_kinds=tuple(args.misread.upper()),
    )
    tally = Tally()
    for number, moves in enumerate(games):
        replay_game(moves, SyntheticReader(args.seed * 1000 + number, noise), args.pairs_every, tally)
    _print(tally, len(games))
    print(machine_line())
    return 0 if tally.false_moves == 0 else 1


def replay_game(moves: list[str], reader: SyntheticReader, pairs_every: int, tally: Tally) -> None:
    """Show one game to a fresh reconciler, batch by batch, and count what happens."""
    reconciler = Reconciler()
    board = cshogi.Board()
    clock, index = 0.0, 0
    while index < len(moves):
        batch = moves[index : index + (2 if pairs_every and index % pairs_every == pairs_every - 1 else 1)]
        frames = reader.move_frames(board, batch, clock, stable=4)
        clock = frames[-1].time
        extra = [reader.observe_board(board, clock + 0.1 * (k + 1)) for k in range(EXTRA_FRAMES)]
        clock += 0.1 * EXTRA_FRAMES + 1.0
        _show_batch(reconciler, [*frames, *extra], batch, tally)
        if list(reconciler.moves) != moves[: index + len(batch)]:
            tally.unresolved += 1
            reconciler.set_position(reconciler.start_sfen, moves[: index + len(batch)])
        index += len(batch)
        tally.moves += len(batch)


def _show_batch(reconciler: Reconciler, frames: list[Observation], batch: list[str], tally: Tally) -> None:
    stable_seen = 0
    for frame in frames:
        start = time.perf_counter()
        result = reconciler.observe(frame)
        if frame.stable:
            tally.decision_s.append(time.perf_counter() - start)
            stable_seen += 1
        if isinstance(result, MoveCommitted):
            good = list(result.moves) == batch
            tally.recovered += len(batch) if good else 0
            tally.false_moves += 0 if good else len(result.moves)
            tally.frames_to_commit.append(stable_seen)
            return
        if isinstance(result, Ambiguous):
            tally.prompts += 1
            if any(c.moves == tuple(batch) and not c.takeback for c in result.candidates):
                reconciler.play(batch)
                tally.recovered += len(batch)
            return
        if isinstance(result, Mismatch | Takeback):
            tally.mismatches += isinstance(result, Mismatch)
            tally.takebacks += isinstance(result, Takeback)
            return


def _print(tally: Tally, games: int) -> None:
    times = sorted(tally.decision_s)
    if not times:
        print("no stable frames were shown")
        return
    p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
    print(
        f"decision time per stable frame over {len(times)} frames: median {statistics.median(times) * 1e3:.1f} ms, "
        f"p95 {p95 * 1e3:.1f} ms, max {times[-1] * 1e3:.1f} ms"
    )
    if tally.frames_to_commit:
        print(f"stable frames until commit: median {statistics.median(tally.frames_to_commit):.0f}")
    print(f"moves recovered: {tally.recovered}/{tally.moves} in {games} games ({tally.unresolved} batches not)")
    print(f"false moves committed: {tally.false_moves}")
    per_100 = 100.0 * tally.prompts / max(tally.moves, 1)
    print(f"prompts to the player: {tally.prompts} ({per_100:.2f} per 100 moves)")
    print(f"mismatches reported: {tally.mismatches}, takebacks reported: {tally.takebacks}")
