"""Engine self-play games, for statistics of where pieces stand that owe nothing to the shared real games
(training only; `vision.train.square_prior` counts them).

The benchmark (`shogi-robot bench vision`) and the development frames draw their positions from the shared games
(`vision.train.rendered.GAMES`), so a prior learnt from those games would have seen the positions it is scored on.
These games are played by a USI engine against itself instead (Fairy-Stockfish from Debian by default): each
game opens with a few random legal moves (0-6 plies, so that games differ), then the engine plays both sides at a
small, random node budget, until mate, resignation, a draw by repetition or `MAX_PLIES`. Writes one game a line,
USI moves separated by spaces, as the shared games file is written.

    .venv/bin/python -m vision.train.selfplay --games 400 --seed 1 -o vision/train/data/selfplay.usi
"""

from __future__ import annotations

import argparse
import subprocess
from pathlib import Path

import cshogi
import numpy as np

ENGINE = "/usr/games/fairy-stockfish"
MAX_PLIES = 300
NODES = (1500, 12000)
"""Each game's node budget a move is drawn from this range (log-uniform)."""


class Engine:
    """A USI engine on pipes, asked for one move at a time."""

    def __init__(self, path: str) -> None:
        self._proc = subprocess.Popen(
            [path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1
        )
        self._send("usi")
        self._wait("usiok")
        self._send("isready")
        self._wait("readyok")

    def _send(self, line: str) -> None:
        assert self._proc.stdin is not None
        self._proc.stdin.write(line + "\n")

    def _wait(self, word: str) -> str:
        assert self._proc.stdout is not None
        for line in self._proc.stdout:
            if line.startswith(word):
                return line.strip()
        raise RuntimeError(f"engine closed before {word!r}")

    def best(self, moves: list[str], nodes: int) -> str:
        """The engine's move in the position after `moves` from the start ("resign" or "win" possible)."""
        if not moves:
            self._send("usinewgame")
        self._send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
        self._send(f"go nodes {nodes}")
        return self._wait("bestmove").split()[1]

    def close(self) -> None:
        """Quit the engine."""
        self._send("quit")
        self._proc.wait(timeout=10)


def play(engine: Engine, rng: np.random.Generator) -> list[str]:
    """One game's USI moves."""
    board = cshogi.Board()
    moves: list[str] = []
    nodes = int(np.exp(rng.uniform(np.log(NODES[0]), np.log(NODES[1]))))
    for _ in range(int(rng.integers(0, 7))):
        legal = [cshogi.move_to_usi(m) for m in board.legal_moves]
        if not legal:
            return moves
        move = legal[int(rng.integers(len(legal)))]
        board.push_usi(move)
        moves.append(move)
    while len(moves) < MAX_PLIES and not board.is_game_over() and board.is_draw() != cshogi.REPETITION_DRAW:
        move = engine.best(moves, nodes)
        if move in ("resign", "win"):
            break
        board.push_usi(move)
        moves.append(move)
    return moves


def main(argv: list[str] | None = None) -> int:
    """Command line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--engine", default=ENGINE)
    parser.add_argument("-o", "--out", type=Path, required=True)
    args = parser.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    try:
        engine = Engine(args.engine)
    except OSError as exc:
        parser.error(f"cannot start the engine {args.engine}: {exc} (scripts/install-debs.sh installs fairy-stockfish)")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with args.out.open("w") as out:
        for i in range(args.games):
            moves = play(engine, rng)
            out.write(" ".join(moves) + "\n")
            out.flush()
            if i % 50 == 0:
                print(f"game {i}: {len(moves)} plies", flush=True)
    engine.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
