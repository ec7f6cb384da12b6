"""Reconciliation: from the camera's per-square probabilities to legal moves of the game.

Owns: deciding what happened on the board by scoring legal successor positions (one move, two moves, a
takeback) against evidence accumulated over stable frames, and saying in words what is wrong when nothing
legal fits. Pure code: no camera, no OpenCV, no vision import; the composition root adapts the reader's output
into `Observation`.
"""

from controller.reconcile.errors import ConfigError, GameStateError, ObservationError, ReconcileError
from controller.reconcile.reconciler import Reconciler
from controller.reconcile.types import (
    Ambiguous,
    Candidate,
    Mismatch,
    MoveCommitted,
    NoChange,
    Observation,
    ReconcileConfig,
    Result,
    Takeback,
    Waiting,
)

__all__ = [
    "Ambiguous",
    "Candidate",
    "ConfigError",
    "GameStateError",
    "Mismatch",
    "MoveCommitted",
    "NoChange",
    "Observation",
    "ObservationError",
    "ReconcileConfig",
    "ReconcileError",
    "Reconciler",
    "Result",
    "Takeback",
    "Waiting",
]
