"""Translations into the state machine's events: reconciler results, and commands sent by the web page.

Owns: the one-to-one map from `controller.reconcile.types` results to `controller.game.events` (`Waiting` is no
event), and which page command means which event for the side at the board.
"""

from __future__ import annotations

from controller.game.events import (
    AmbiguousSeen,
    BoardConfirmed,
    BoardMoveSeen,
    Declare,
    Event,
    MismatchSeen,
    PromptAnswered,
    Resign,
    TakebackAsked,
    TakebackSeen,
)
from controller.game.state import GameState
from controller.reconcile.types import Ambiguous, Mismatch, MoveCommitted, NoChange, Result, Takeback
from controller.rules.types import Color
from controller.web.hub import CommandKind, WebCommand


def event_of(result: Result) -> Event | None:
    """The machine's event for a reconciler result (None for `Waiting`)."""
    if isinstance(result, MoveCommitted):
        return BoardMoveSeen(result.moves)
    if isinstance(result, Takeback):
        return TakebackSeen(result.plies)
    if isinstance(result, Ambiguous):
        return AmbiguousSeen(tuple(c.moves for c in result.candidates if not c.takeback))
    if isinstance(result, Mismatch):
        return MismatchSeen(result.messages)
    if isinstance(result, NoChange):
        return BoardConfirmed()
    return None


def web_event(command: WebCommand, state: GameState) -> Event | None:
    """The event a page's command stands for (None for the controls that need more than the game: the emergency
    stop, a new game, jogging and calibration are `controller.runner.page_controls`)."""
    human = _human_side(state)
    if command.kind is CommandKind.RESIGN:
        return Resign(human)
    if command.kind is CommandKind.DECLARE:
        return Declare(human)
    if command.kind is CommandKind.ANSWER:
        return PromptAnswered(str(command.args.get("answer", "")))
    if command.kind is CommandKind.TAKEBACK:
        return TakebackAsked(human)
    return None


def _human_side(state: GameState) -> Color:
    """The side a page speaks for: the human's in play mode, the side to move in record mode."""
    side = state.settings.opponent_side
    return side.opponent if side is not None else state.side_to_move
