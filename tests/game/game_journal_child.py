"""A game process for the crash test: appends the sample game's moves to a journal, acknowledging each one on
stdout after it is fsynced, until it is killed. With `--tear K` it writes half of move K's line and waits."""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from controller.game.clock import SideTime
from controller.game.entries import ClockSnapshot, JournalHeader, MoveEntry, encode
from controller.game.journal import Journal
from controller.game.settings import GameSettings, MoveSource


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("journal", type=Path)
    parser.add_argument("moves", type=Path)
    parser.add_argument("--tear", type=int, default=0)
    args = parser.parse_args()
    moves = args.moves.read_text().split()[2:]
    journal = Journal.create(args.journal, JournalHeader(GameSettings(), {"name": "test"}, "now"))
    for ply, usi in enumerate(moves, start=1):
        snapshot = ClockSnapshot(SideTime(600.0 - ply, 1, ply), SideTime(600.0, 1, 0.0))
        source = MoveSource.HUMAN if ply % 2 else MoveSource.ENGINE
        entry = MoveEntry(ply, usi, source, 1.0, snapshot)
        if ply == args.tear:
            line = encode(entry).encode()
            fd = os.open(args.journal, os.O_WRONLY | os.O_APPEND)
            os.write(fd, line[: len(line) // 2])
            os.fsync(fd)
            print("torn", flush=True)
            time.sleep(600)
        journal.append(entry)
        print(f"ok {ply}", flush=True)
    print("done", flush=True)
    sys.stdout.close()
    time.sleep(600)


if __name__ == "__main__":
    main()
