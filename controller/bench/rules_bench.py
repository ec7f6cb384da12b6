"""`shogi-robot bench rules`: perft speed, legal-move generation time per position, record parse time.

Positions for move generation come from the real games in `../shared/data/games/lishogi-500.usi` (or
`--games FILE`); nothing here is tuned on them.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path
from typing import Any

import cshogi

from controller.bench.machine import machine_line
from controller.rules.perft import perft
from controller.rules.positions import STARTPOS_SFEN, board_from_sfen
from controller.rules.referee import legal_usi_moves

DEFAULT_GAMES = Path("../shared/data/games/lishogi-500.usi")


def register_bench(subparsers: Any) -> None:
    """Add `bench rules`."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "rules", help="perft nodes/s, legal-move generation, record parsing", description=__doc__
    )
    parser.add_argument("--depth", type=int, default=5, help="perft depth from the start position (default 5)")
    parser.add_argument("--games", type=Path, default=DEFAULT_GAMES, help="USI games, one per line")
    parser.add_argument("--n", type=int, default=200, help="games to use for move generation and parsing")
    parser.set_defaults(func=run)


def load_games(path: Path, limit: int) -> list[list[str]]:
    """The first `limit` games of a one-game-per-line USI move file."""
    if not path.is_file():
        raise FileNotFoundError(f"games file not found: {path} (run from the project root, or pass --games)")
    lines = [line.split() for line in path.read_text().splitlines() if line.strip()]
    return lines[:limit]


def run(args: argparse.Namespace) -> int:
    """Print the figures."""
    board = board_from_sfen(STARTPOS_SFEN)
    start = time.perf_counter()
    nodes = perft(board, args.depth)
    elapsed = time.perf_counter() - start
    print(f"perft depth {args.depth}: {nodes} nodes in {elapsed:.2f} s = {nodes / elapsed / 1e6:.2f} M nodes/s")
    games = load_games(args.games, args.n)
    _bench_movegen(games)
    _bench_parsing(games)
    print(machine_line())
    return 0


def _bench_movegen(games: list[list[str]]) -> None:
    raw, usi = [], []
    positions = 0
    for moves in games:
        board = cshogi.Board()
        for move in moves:
            t0 = time.perf_counter()
            list(board.legal_moves)
            t1 = time.perf_counter()
            legal_usi_moves(board)
            t2 = time.perf_counter()
            raw.append(t1 - t0)
            usi.append(t2 - t1)
            board.push_usi(move)
            positions += 1
    print(
        f"legal moves over {positions} positions: cshogi list {statistics.mean(raw) * 1e6:.1f} µs/position, "
        f"as USI strings {statistics.mean(usi) * 1e6:.1f} µs/position"
    )


def _bench_parsing(games: list[list[str]]) -> None:
    from controller.records.io import format_record, parse_record
    from controller.rules.types import GameRecord, RecordedMove

    for fmt in ("kif", "csa", "ki2", "jkf", "usi"):
        texts, total_moves = [], 0
        for moves in games:
            record = GameRecord(STARTPOS_SFEN, [RecordedMove(m, seconds=3.0) for m in moves])
            texts.append(format_record(record, fmt))
            total_moves += len(moves)
        start = time.perf_counter()
        for text in texts:
            parse_record(text, fmt)
        elapsed = time.perf_counter() - start
        print(f"parse {fmt}: {elapsed / total_moves * 100 * 1e3:.2f} ms per 100 moves ({len(texts)} games)")
