"""Errors of the simulated world (one base, subclasses carry their context)."""

from __future__ import annotations


class SimError(Exception):
    """Something impossible was asked of the simulated board, person or camera."""
