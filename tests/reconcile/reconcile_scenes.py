"""Helpers for reconciliation tests: positions edited square by square, seeded random games, frame streams, and
decisions."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterable, Mapping, Sequence

import cshogi
import numpy as np

from controller.reconcile import Observation, ReconcileConfig, Reconciler, Result
from controller.reconcile.labels import HAND_INDEX, LABEL_INDEX, Hands, Labels, board_hands, board_labels, square_index
from controller.reconcile.synthetic import SyntheticReader
from controller.reconcile.types import NoChange, Waiting

DT = 0.1


def random_game(seed: int, plies: int, capture_share: float = 0.0) -> cshogi.Board:
    """A seeded random game of up to `plies` legal moves; with `capture_share`, a capture is preferred that often
    when there is one (drops and promotions then come up by themselves)."""
    rng = random.Random(seed)
    board = cshogi.Board()
    for _ in range(plies):
        moves = list(board.legal_moves)
        if not moves:
            break
        captures = [m for m in moves if board.piece(cshogi.move_to(m))]
        board.push(rng.choice(captures if captures and rng.random() < capture_share else moves))
    return board


def edited(
    board: cshogi.Board, squares: Mapping[str, str], hands: Mapping[str, int] | None = None
) -> tuple[Labels, Hands]:
    """The labels and hands of `board` with some squares set (`{"2g": "empty", "2e": "P"}`) and hand changes."""
    labels = board_labels(board).copy()
    for name, label in squares.items():
        labels[square_index(name)] = LABEL_INDEX[label]
    counts = list(board_hands(board))
    for letter, change in (hands or {}).items():
        counts[HAND_INDEX[letter]] += change
    return labels, tuple(counts)


def after(sfen: str, moves: Iterable[str]) -> cshogi.Board:
    """A cshogi board of `sfen` with `moves` played."""
    board = cshogi.Board(sfen)
    for usi in moves:
        board.push_usi(usi)
    return board


def still(reader: SyntheticReader, labels: Labels, hands: Hands, start: float, n: int) -> list[Observation]:
    """`n` stable frames of one position."""
    return [reader.observe(labels, hands, start + k * DT) for k in range(n)]


def feed(reconciler: Reconciler, frames: Iterable[Observation]) -> list[Result]:
    """Every result, in order."""
    return [reconciler.observe(frame) for frame in frames]


def decisions(results: Iterable[Result]) -> list[Result]:
    """The results that are neither Waiting nor NoChange."""
    return [r for r in results if not isinstance(r, Waiting | NoChange)]


def with_square(obs: Observation, square: str, row: np.ndarray) -> Observation:
    """`obs` with one square's probabilities replaced."""
    probs = obs.probs.copy()
    probs[square_index(square)] = row / row.sum()
    return dataclasses.replace(obs, probs=probs)


def board_frames_with_square(
    reader: SyntheticReader, board: cshogi.Board, square: str, row: np.ndarray, n: int
) -> list[Observation]:
    """`n` frames of `board` (0.1 s apart from time 0) with one square's probabilities replaced by `row`."""
    return [with_square(reader.observe_board(board, 0.1 * k), square, row) for k in range(n)]


def split_row(weights: Mapping[str, float], rest: float = 0.02) -> np.ndarray:
    """A probability row with the given labels' weights and `rest` spread over the other labels."""
    row = np.full(29, rest / (29 - len(weights)))
    for label, weight in weights.items():
        row[LABEL_INDEX[label]] = weight
    return row


def committing_index(frames: Sequence[Observation], config: ReconcileConfig | None = None) -> int:
    """Index of the frame on which a move proposed from `frames[0]` on is committed by the agreement rule:
    the `agree_frames`-th frame, or the first one `agree_seconds` after the first if that comes later."""
    config = config or ReconcileConfig()
    start = frames[0].time
    return next(
        i for i, f in enumerate(frames) if i + 1 >= config.agree_frames and f.time - start >= config.agree_seconds
    )
