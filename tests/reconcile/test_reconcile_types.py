"""Reconciliation's values: observation and config validation, the label copy, and incremental move effects."""

from __future__ import annotations

import cshogi
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reconcile_scenes import random_game

from controller.reconcile import ConfigError, GameStateError, Observation, ObservationError, ReconcileConfig, Reconciler
from controller.reconcile import labels as rl
from vision import labels as vision_labels


def _uniform() -> np.ndarray:
    return np.full((81, 29), 1.0 / 29)


def test_label_copy_matches_the_reader() -> None:
    """The controller's copy of the label order is the reader's order, and squares are numbered alike."""
    assert rl.SQUARE_LABELS == vision_labels.SQUARE_LABELS
    assert rl.HAND_KINDS == vision_labels.HAND_KINDS
    assert [rl.square_name(i) for i in range(81)] == [vision_labels.square_name(i) for i in range(81)]


def test_board_labels_follow_sfen_order() -> None:
    """Index 0 is 9a (gote's lance), 8 is 1a, 80 is 1i, 70 is 2h (sente's rook) at the start."""
    labels = rl.board_labels(cshogi.Board())
    assert [rl.SQUARE_LABELS[labels[i]] for i in (0, 8, 76, 70, 80)] == ["l", "l", "K", "R", "L"]
    assert vision_labels.labels_from_board_field(cshogi.Board().sfen().split()[0]) == [
        rl.SQUARE_LABELS[i] for i in labels
    ]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"probs": np.full((80, 29), 1 / 29)}, "shape"),
        ({"probs": _uniform() * 2}, "sum to 1"),
        ({"probs": np.where(np.eye(81, 29) > 0, np.nan, 1 / 29)}, "finite"),
        ({"hands": {"X": 1}}, "unknown hand piece"),
        ({"hands": {"P": -1}}, "negative"),
        ({"hand_confidence": 1.5}, "hand_confidence"),
        ({"unreliable": frozenset({81})}, "unreliable"),
    ],
)
def test_bad_observation_is_refused(change: dict, message: str) -> None:
    """Malformed observations raise ObservationError naming what is wrong."""
    fields = {"probs": _uniform(), "hands": None, "hand_confidence": 0.0, "unreliable": frozenset()} | change
    with pytest.raises(ObservationError, match=message):
        Observation(**fields)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"agree_frames": 0}, "at least 1"),
        ({"prune_margin": 1.0}, "prune_margin"),
        ({"drop_kind_margin": 2.5}, "drop_kind_margin"),
        ({"unclear_probability": 1.0}, "unclear_probability"),
        ({"pair_penalty": -1.0}, "penalties"),
        ({"max_candidates": 1}, "max_candidates"),
        ({"stand_wait_seconds": -0.5}, "stand_wait_seconds"),
        ({"decline_cost": {"G": 1.0}}, "decline_cost"),
        ({"decline_cost": {"P": -1.0}}, "decline_cost"),
    ],
)
def test_bad_config_is_refused(change: dict, message: str) -> None:
    """Inconsistent thresholds raise ConfigError at construction."""
    with pytest.raises(ConfigError, match=message):
        ReconcileConfig(**change)


def test_expect_refuses_illegal_move() -> None:
    """An expected move must be legal in the current position."""
    with pytest.raises(GameStateError, match="cannot expect 5i5g"):
        Reconciler().expect("5i5g")


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6), plies=st.integers(0, 150))
def test_move_effect_matches_playing_the_move(seed: int, plies: int) -> None:
    """For every legal move, the incremental effect gives exactly the labels and hands of the played move."""
    board = random_game(seed, plies)
    labels, hands = rl.board_labels(board), rl.board_hands(board)
    pieces, turn = board.pieces, board.turn
    for move in board.legal_moves:
        changes, hand_delta = rl.move_effect(pieces, turn, move)
        predicted, counts = labels.copy(), list(hands)
        for square, label in changes:
            predicted[square] = label
        for slot, delta in hand_delta:
            counts[slot] += delta
        board.push(move)
        assert np.array_equal(predicted, rl.board_labels(board)), cshogi.move_to_usi(move)
        assert tuple(counts) == rl.board_hands(board), cshogi.move_to_usi(move)
        board.pop()
