"""The settings of one game: mode, who the opponent is and plays which side, start, clock and impasse rule.

Owns: `GameSettings` (validated when built) and its JSON form, which the journal's header stores so that a resumed
game continues under exactly the settings it started with.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from controller.game.clock import ClockConfig
from controller.game.errors import ClockError, SettingsError
from controller.rules.impasse import ImpasseRule
from controller.rules.positions import STARTPOS_SFEN, board_from_sfen
from controller.rules.types import Color


class Mode(enum.StrEnum):
    """What the game is."""

    PLAY = "play"
    """A human on the board against an opponent (an engine, or later a remote player)."""
    RECORD = "record"
    """Two humans on the board; the game is recorded."""


class OpponentKind(enum.StrEnum):
    """Who answers the human in play mode."""

    ENGINE = "engine"
    REMOTE = "remote"


class MoveSource(enum.StrEnum):
    """Where a committed move came from."""

    HUMAN = "human"
    ENGINE = "engine"
    REMOTE = "remote"


class ImpasseSetting(enum.StrEnum):
    """The game's impasse rule: a declaration under the 24- or 27-point rule, or the agreement count."""

    DECLARE_24 = "24"
    DECLARE_27 = "27"
    COUNT_24 = "count24"
    COUNT_27 = "count27"

    @property
    def points(self) -> ImpasseRule:
        """The point rule of `controller.rules.impasse`."""
        return ImpasseRule.POINTS_24 if self.value.endswith("24") else ImpasseRule.POINTS_27

    @property
    def counting(self) -> bool:
        """True when a declaration is judged by counting both sides' points."""
        return self.value.startswith("count")


@dataclass(frozen=True)
class GameSettings:
    """Everything the state machine needs to know about the game.

    Attributes:
        mode: play or record.
        start_sfen: the starting position (full SFEN).
        opponent_side: the side the opponent plays (play mode), None in record mode.
        opponent: engine or remote (play mode).
        gantry: the robot moves the opponent's pieces; without it (assist mode) the human makes them.
        clock: the time control (both sides).
        impasse: the impasse rule.
        clock_button: a clock press (GPIO) ends a move's time; otherwise the camera's commit does.
    """

    mode: Mode = Mode.PLAY
    start_sfen: str = STARTPOS_SFEN
    opponent_side: Color | None = Color.WHITE
    opponent: OpponentKind = OpponentKind.ENGINE
    gantry: bool = True
    clock: ClockConfig = field(default_factory=ClockConfig)
    impasse: ImpasseSetting = ImpasseSetting.DECLARE_27
    clock_button: bool = False

    def __post_init__(self) -> None:
        if self.mode is Mode.PLAY and self.opponent_side is None:
            raise SettingsError("play mode needs the opponent's side")
        if self.mode is Mode.RECORD and self.opponent_side is not None:
            raise SettingsError("record mode has two humans: no opponent side")
        if self.mode is Mode.RECORD and self.gantry:
            raise SettingsError("record mode does not move pieces: gantry must be false")
        board_from_sfen(self.start_sfen)

    def is_opponent(self, side: Color) -> bool:
        """True when `side` is played by the engine or remote player (never in record mode)."""
        return self.mode is Mode.PLAY and side is self.opponent_side

    @property
    def opponent_source(self) -> MoveSource:
        """The source recorded for the opponent's moves."""
        return MoveSource.ENGINE if self.opponent is OpponentKind.ENGINE else MoveSource.REMOTE

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict (the journal header's `settings`)."""
        c = self.clock
        return {
            "mode": self.mode.value,
            "start_sfen": self.start_sfen,
            "opponent_side": self.opponent_side.value if self.opponent_side else None,
            "opponent": self.opponent.value,
            "gantry": self.gantry,
            "clock": {
                "main_s": c.main_s,
                "byoyomi_s": c.byoyomi_s,
                "increment_s": c.increment_s,
                "periods": c.periods,
                "untimed": c.untimed,
            },
            "impasse": self.impasse.value,
            "clock_button": self.clock_button,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GameSettings:
        """Rebuild from `to_json` output.

        Raises:
            SettingsError: on a missing or malformed field.
        """
        try:
            clock = data["clock"]
            side = data["opponent_side"]
            return cls(
                mode=Mode(data["mode"]),
                start_sfen=str(data["start_sfen"]),
                opponent_side=Color(side) if side is not None else None,
                opponent=OpponentKind(data["opponent"]),
                gantry=_bool(data["gantry"]),
                clock=ClockConfig(
                    main_s=float(clock["main_s"]),
                    byoyomi_s=float(clock["byoyomi_s"]),
                    increment_s=float(clock["increment_s"]),
                    periods=int(clock["periods"]),
                    untimed=_bool(clock["untimed"]),
                ),
                impasse=ImpasseSetting(data["impasse"]),
                clock_button=_bool(data["clock_button"]),
            )
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, SettingsError | ClockError):
                raise SettingsError(str(exc)) from exc
            raise SettingsError(f"malformed game settings: {exc!r}") from exc


def _bool(value: object) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"expected true or false, got {value!r}")
    return value
