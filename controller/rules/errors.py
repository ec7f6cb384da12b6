"""Narrow exceptions of the rules layer. All subclass ValueError: they describe bad input, not bugs."""

from __future__ import annotations


class RulesError(ValueError):
    """Base class for every error the rules layer raises."""


class PositionError(RulesError):
    """An SFEN, handicap name or starting position that cannot be used."""


class MoveSyntaxError(RulesError):
    """Text that is not a USI move at all."""


class IllegalMoveError(RulesError):
    """A well-formed move that is not legal in its position.

    Attributes:
        ply: the 1-based ply number of the move within its game, when known.
        usi: the move as given.
        reason: a short reason code (see `controller.rules.referee.Reason`).
    """

    def __init__(self, message: str, *, usi: str, reason: str, ply: int | None = None) -> None:
        super().__init__(message)
        self.usi = usi
        self.reason = reason
        self.ply = ply
