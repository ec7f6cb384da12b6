"""Counting where pieces stand in self-play games, for the reader's square prior (training only; the prior itself
is `vision.square_prior`).

Every position of every game counts, a game's positions each weighted 1 / (its plies + 1): the positions a random
prefix of a random game gives (as `vision.train.rendered.random_sfen` draws them), in expectation. Each position
counts twice, as it is and turned by 180 degrees with the owners swapped, so the prior is the same for both
players.

    .venv/bin/python -m vision.train.square_prior vision/train/data/selfplay.usi -o vision/models/square_prior.json
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import cshogi
import numpy as np
from numpy.typing import NDArray

from vision.labels import SQUARE_LABELS, labels_from_board_field
from vision.set_examples import swap_owner

_INDEX = {label: i for i, label in enumerate(SQUARE_LABELS)}


def count_games(games: list[list[str]]) -> NDArray[np.float64]:
    """81×29 weighted counts of the games' positions' labels (both orientations)."""
    counts = np.zeros((81, len(SQUARE_LABELS)))
    squares = np.arange(81)
    for moves in games:
        board = cshogi.Board()
        weight = 1.0 / (len(moves) + 1)
        for ply in range(len(moves) + 1):
            if ply:
                board.push_usi(moves[ply - 1])
            labels = labels_from_board_field(str(board.sfen()).split()[0])
            seen = np.array([_INDEX[label] for label in labels])
            turned = np.array([_INDEX[swap_owner(label)] for label in labels[::-1]])
            np.add.at(counts, (squares, seen), weight)
            np.add.at(counts, (squares, turned), weight)
    return counts


def main(argv: list[str] | None = None) -> int:
    """Command line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", type=Path, help="USI games, one a line")
    parser.add_argument("-o", "--out", type=Path, required=True)
    args = parser.parse_args(argv)
    games = [line.split() for line in args.games.read_text().splitlines() if line.strip()]
    counts = count_games(games)
    data = {
        "version": 1,
        "source": f"{args.games.name}: {len(games)} self-play games (vision.train.selfplay)",
        "labels": list(SQUARE_LABELS),
        "counts": [[round(float(v), 4) for v in row] for row in counts],
    }
    args.out.write_text(json.dumps(data) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
