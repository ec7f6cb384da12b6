"""`shogi-robot demo`: the README's main job.

Until the simulated game (virtual camera, gantry and engine) exists, this is the most complete thing there is:
a rules and records demonstration. It replays a shipped real game through the referee, shows the board as it
goes, rules on the outcome, and writes the game in every record format.
"""

from __future__ import annotations

import argparse
from importlib import resources
from pathlib import Path
from typing import Any

from controller.rules.game import push_checked
from controller.rules.outcome import game_outcome
from controller.rules.positions import STARTPOS_SFEN, board_from_sfen

RECORD_FORMATS = ("kifu", "kif", "csa", "ki2", "jkf", "usi")


def register(subparsers: Any) -> None:
    """Add `demo`."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "demo", help="run the main demonstration", description=__doc__
    )
    parser.add_argument("--out", type=Path, default=Path("out/demo"), help="folder for the records written")
    parser.add_argument("--every", type=int, default=25, help="show the board every N plies")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Replay the sample game, then write it out in every format."""
    text = resources.files("controller.data").joinpath("sample_game.usi").read_text(encoding="utf-8")
    moves = text.split()[2:]
    print("shogi-robot demo: rules and records (the simulated game will replace this demonstration)")
    board = board_from_sfen(STARTPOS_SFEN)
    for ply, usi in enumerate(moves, start=1):
        push_checked(board, usi, ply)
        if ply % args.every == 0:
            print(f"\nafter ply {ply} ({usi}):\n{board.to_bod()}")
    outcome = game_outcome(STARTPOS_SFEN, moves)
    print(f"\nfinal position:\n{board.to_bod()}\noutcome: {outcome.kind}, winner {outcome.winner}: {outcome.detail}")
    _write_records(moves, outcome, args.out)
    return 0


def _write_records(moves: list[str], outcome: Any, out: Path) -> None:
    from controller.records.io import write_record
    from controller.rules.types import GameRecord, GameResult, HeaderKey, RecordedMove, Termination

    winner = outcome.winner
    result = GameResult(Termination.CHECKMATE, winner) if str(outcome.kind) == "checkmate" else None
    headers = {
        HeaderKey.BLACK.value: "lishogi player (sente)",
        HeaderKey.WHITE.value: "lishogi player (gote)",
    }
    record = GameRecord(STARTPOS_SFEN, [RecordedMove(m) for m in moves], headers, result)
    out.mkdir(parents=True, exist_ok=True)
    for ext in RECORD_FORMATS:
        path = out / f"sample.{ext}"
        write_record(record, path)
        print(f"wrote {path}")
