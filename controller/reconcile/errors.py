"""Narrow exceptions of reconciliation. All subclass ValueError: they describe bad input, not bugs."""

from __future__ import annotations


class ReconcileError(ValueError):
    """Base class for every error reconciliation raises."""


class ObservationError(ReconcileError):
    """An observation that cannot be used (wrong shape, rows not summing to 1, unknown hand letters)."""


class ConfigError(ReconcileError):
    """Thresholds that do not make sense together."""


class GameStateError(ReconcileError):
    """A request on the reconciler's game that cannot be honoured (illegal move, takeback past the start)."""
