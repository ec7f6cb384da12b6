"""Squares the reader doubts: flagged unseen while read clearly. Ignored at first, weighed once they have stayed
so on still frames for `doubt_seconds`, so a reader's false alarm on a plain square does not stall the game."""

from __future__ import annotations

import dataclasses

import cshogi
import numpy as np
import pytest
from reconcile_scenes import feed

from controller.reconcile import Mismatch, MoveCommitted, Observation, Reconciler, Waiting
from controller.reconcile.errors import ObservationError
from controller.reconcile.labels import EMPTY_INDEX, LABEL_INDEX, square_index
from controller.reconcile.synthetic import SyntheticReader


def _doubted(obs: Observation, square: str, label_index: int) -> Observation:
    """`obs` with `square` read as `label_index` at 0.99 but flagged unseen (doubted)."""
    i = square_index(square)
    probs = obs.probs.copy()
    probs[i] = 0.01 / 28
    probs[i, label_index] = 0.99
    return dataclasses.replace(obs, probs=probs, unreliable=frozenset({i}), doubted=frozenset({i}))


def _frames(board: cshogi.Board, square: str, label_index: int, times: list[float]) -> list[Observation]:
    reader = SyntheticReader(31)
    return [_doubted(reader.observe_board(board, t), square, label_index) for t in times]


def _after_7g7f() -> cshogi.Board:
    board = cshogi.Board()
    board.push_usi("7g7f")
    return board


def test_a_doubted_square_is_weighed_after_doubt_seconds() -> None:
    """7g7f made, the square the pawn left read 'empty' at 0.99 and flagged unseen on every frame: nothing is
    decided before `doubt_seconds`; then the move is committed, before the square would have been told to the
    player as hidden."""
    reconciler = Reconciler()
    config = reconciler.config
    assert config.doubt_seconds < config.hidden_seconds
    frames = _frames(_after_7g7f(), "7g", EMPTY_INDEX, [0.1 * k for k in range(60)])
    results = feed(reconciler, frames)
    early = [r for r, o in zip(results, frames, strict=True) if o.time < config.doubt_seconds]
    assert early and all(isinstance(r, Waiting) for r in early)
    committed = [(r, o.time) for r, o in zip(results, frames, strict=True) if isinstance(r, MoveCommitted)]
    assert [r.moves for r, _ in committed] == [("7g7f",)]
    assert config.doubt_seconds <= committed[0][1] < config.hidden_seconds
    assert not any(isinstance(r, Mismatch) for r in results)


def test_a_hand_in_view_restarts_the_doubt() -> None:
    """An unstable frame (a hand over the board) in between: the doubt is counted again from the next still
    frame, so no decision comes `doubt_seconds` after the first frame."""
    reconciler = Reconciler()
    limit = reconciler.config.doubt_seconds
    board = _after_7g7f()
    first = _frames(board, "7g", EMPTY_INDEX, [0.1 * k for k in range(20)])
    hand = dataclasses.replace(first[-1], stable=False, time=2.0)
    later = _frames(board, "7g", EMPTY_INDEX, [2.1 + 0.1 * k for k in range(40)])
    results = feed(reconciler, [*first, hand, *later])
    times = [o.time for o in [*first, hand, *later]]
    committed = [t for r, t in zip(results, times, strict=True) if isinstance(r, MoveCommitted)]
    assert len(committed) == 1 and committed[0] >= 2.1 + limit


def test_a_doubted_square_read_wrongly_commits_nothing_false() -> None:
    """The doubted square reads a piece that is not there (the pawn still on 7g after 7g7f): once weighed, its
    reading contradicts the move, and 7g7f is not committed."""
    reconciler = Reconciler()
    frames = _frames(_after_7g7f(), "7g", LABEL_INDEX["P"], [0.1 * k for k in range(60)])
    results = feed(reconciler, frames)
    assert not any(isinstance(r, MoveCommitted) for r in results)
    assert reconciler.moves == ()


def test_doubted_squares_must_be_unreliable() -> None:
    """An observation cannot doubt a square it does not flag."""
    with pytest.raises(ObservationError, match="doubted"):
        Observation(np.full((81, 29), 1.0 / 29), doubted=frozenset({3}))
