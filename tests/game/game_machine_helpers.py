"""Helpers for the state machine tests: settings, a driver that feeds events at given times, command filters."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TypeVar

from controller.game.clock import ClockConfig
from controller.game.commands import Command
from controller.game.events import BoardConfirmed, Event
from controller.game.machine import initial, step
from controller.game.settings import GameSettings, Mode, OpponentKind
from controller.game.state import GameState
from controller.rules.positions import STARTPOS_SFEN
from controller.rules.types import Color

T = TypeVar("T")

CLOCK = ClockConfig(main_s=300, byoyomi_s=10)


def play_settings(**changes: object) -> GameSettings:
    """Human sente against an engine gote with a gantry, 5 min + 10 s byoyomi."""
    base: dict[str, object] = {
        "mode": Mode.PLAY,
        "start_sfen": STARTPOS_SFEN,
        "opponent_side": Color.WHITE,
        "opponent": OpponentKind.ENGINE,
        "gantry": True,
        "clock": CLOCK,
    }
    base.update(changes)
    return GameSettings(**base)  # type: ignore[arg-type]


def record_settings(**changes: object) -> GameSettings:
    """Two humans, 5 min + 10 s byoyomi."""
    return play_settings(mode=Mode.RECORD, opponent_side=None, gantry=False, **changes)


@dataclass
class Driver:
    """Feeds events to the step function and keeps every command emitted."""

    state: GameState
    log: list[Command] = field(default_factory=list)
    last: list[Command] = field(default_factory=list)

    @classmethod
    def started(cls, settings: GameSettings, at: float = 0.0) -> Driver:
        """A game past its setup check at time `at`."""
        state, commands = initial(settings)
        driver = cls(state, list(commands))
        driver.send(BoardConfirmed(), at)
        return driver

    def send(self, event: Event, now: float) -> list[Command]:
        """One step; returns (and logs) its commands."""
        self.state, self.last = step(self.state, event, now)
        self.log += self.last
        return self.last

    def run(self, script: Iterable[tuple[float, Event]]) -> None:
        """Several steps."""
        for now, event in script:
            self.send(event, now)


def of_type(commands: Iterable[Command], kind: type[T]) -> list[T]:
    """The commands of one kind, in order."""
    return [c for c in commands if isinstance(c, kind)]


def kinds(commands: Iterable[Command]) -> list[str]:
    """The class names of the commands, in order."""
    return [type(c).__name__ for c in commands]
