"""Small parts of a session: console answers, the emergency stop's target, the simulation's truth check, player
names and the files' time stamp.

Owns: the helpers `controller.runner.session` wires in, kept apart so the session reads as its parts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from controller import compose
from controller.game.settings import GameSettings
from controller.game.state import GameState
from controller.runner.effects import Effects


def console_answers(effects: Effects) -> None:
    """Prompts on the real board can be answered by typing the option's number (besides the web page)."""
    import sys
    import threading

    if not sys.stdin.isatty():
        return

    def read() -> None:
        for line in sys.stdin:
            effects.answer_typed(line)

    threading.Thread(target=read, name="console-answers", daemon=True).start()


class NoGantry:
    """The emergency stop's target when there is no gantry: nothing moves, so nothing to hold."""

    def hold(self) -> None:
        """Nothing to stop."""


@dataclass
class Hold:
    """Feed hold on whichever gantry the restart holds now (it may have reconnected)."""

    restart: compose.GantryRestart

    def hold(self) -> None:
        """GRBL `!`."""
        self.restart.gantry.hold()


def board_matches(board: Any, state: GameState) -> bool:
    """True when the virtual board's squares show the game's final position (the truth check of a simulation)."""
    from controller.reconcile.labels import SQUARE_LABELS, board_labels

    labels, _hands = board.ground_truth()
    return tuple(SQUARE_LABELS[i] for i in board_labels(state.board())) == tuple(labels)


def names(settings: GameSettings, engine: str) -> dict[str, str]:
    side = settings.opponent_side
    if side is None:
        return {}
    return {side.value: engine, side.opponent.value: "human"}


def stamp() -> str:
    import time

    return time.strftime("%Y%m%d-%H%M%S")
