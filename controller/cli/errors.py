"""The one exception a command raises to report a failure to the user (exit code 1)."""

from __future__ import annotations


class CommandError(Exception):
    """A reported error: printed to stderr without a traceback, exit code 1."""
