"""Errors of transfer planning and execution: one base, subclasses with context."""

from __future__ import annotations


class PlanningError(ValueError):
    """A move or target position cannot be turned into transfers (illegal move, piece counts differ)."""


class CollisionError(PlanningError):
    """A transfer would put a piece onto an occupied square, slot or station, or take one from an empty place."""


class OutOfRangeError(PlanningError):
    """A transfer's path leaves the gantry's travel limits."""
