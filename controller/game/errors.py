"""Narrow exceptions of the game package. All subclass ValueError: they describe bad input or bad files."""

from __future__ import annotations


class GameError(ValueError):
    """Base class for every error the game package raises."""


class ClockError(GameError):
    """A clock setting out of range, or a clock operation that makes no sense (stopping a stopped clock)."""


class SettingsError(GameError):
    """Game settings that cannot be played (an engine side in record mode, an unknown impasse rule...)."""


class JournalError(GameError):
    """A journal that cannot be created, written or read."""


class JournalCorruptError(JournalError):
    """A journal line that is not a valid entry, anywhere but a torn final line.

    Attributes:
        line: the 1-based line number of the bad line.
    """

    def __init__(self, path: str, line: int, message: str) -> None:
        super().__init__(f"{path}:{line}: {message}")
        self.path = path
        self.line = line
