"""A new game asked for on the web page: its form's fields turned into the next game's settings.

Owns: validating the form (`mode` play|record, `engine_side` b|w, `time_control` minutes+increment+byoyomi,
`handicap` a name or an SFEN, `engine`) against what this session can do (no gantry: the engine's moves are
announced; a remote game is set up on its server, not here), with a sentence for each thing that is wrong.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from controller.game.clock import ClockConfig
from controller.game.errors import ClockError
from controller.game.settings import GameSettings, Mode, OpponentKind
from controller.rules.errors import RulesError
from controller.rules.positions import resolve_start
from controller.rules.types import Color


class NewGameError(ValueError):
    """The page's new-game form cannot be followed (the message says why)."""


@dataclass(frozen=True)
class NewGameChoice:
    """The next game: its settings, and the engine to play it (None: keep the current one)."""

    settings: GameSettings
    engine: str | None = None


def new_game_choice(current: GameSettings, form: dict[str, Any], *, has_gantry: bool) -> NewGameChoice:
    """The next game from the page's form; fields left out keep the current game's values."""
    if current.opponent is OpponentKind.REMOTE:
        raise NewGameError("A remote game is set up on its server: start the next one from there.")
    mode = _mode(form.get("mode"), current.mode)
    start = _start(form.get("handicap"), current.start_sfen)
    clock = _clock(form.get("time_control"), current.clock)
    if mode is Mode.RECORD:
        settings = replace(current, mode=mode, opponent_side=None, gantry=False, start_sfen=start, clock=clock)
        return NewGameChoice(settings)
    side = _side(form.get("engine_side"), current.opponent_side or Color.WHITE)
    settings = replace(
        current, mode=mode, opponent_side=side, gantry=has_gantry, start_sfen=start, clock=clock,
        opponent=OpponentKind.ENGINE,
    )  # fmt: skip
    engine = str(form.get("engine") or "").strip() or None
    return NewGameChoice(settings, engine)


def _mode(value: Any, default: Mode) -> Mode:
    if value in (None, ""):
        return default
    try:
        return Mode(str(value))
    except ValueError as exc:
        raise NewGameError(f"Mode must be play or record, not {value!r}.") from exc


def _side(value: Any, default: Color) -> Color:
    if value in (None, ""):
        return default
    sides = {"b": Color.BLACK, "w": Color.WHITE}
    if str(value) not in sides:
        raise NewGameError(f"The engine's side must be b (sente) or w (gote), not {value!r}.")
    return sides[str(value)]


def _start(value: Any, default: str) -> str:
    if value in (None, ""):
        return default
    try:
        return resolve_start("startpos" if value == "even" else str(value))
    except RulesError as exc:
        raise NewGameError(f"Unknown handicap {value!r}: {exc}") from exc


def _clock(value: Any, default: ClockConfig) -> ClockConfig:
    """`minutes+increment+byoyomi` (`10+0+30`), `minutes+increment` or `untimed`."""
    if value in (None, ""):
        return default
    text = str(value).strip()
    if text == "untimed":
        return ClockConfig(untimed=True)
    parts = text.split("+")
    try:
        minutes, increment, byoyomi = (float(p) for p in [*parts, "0", "0"][:3])
        if len(parts) > 3:
            raise ValueError(text)
        return ClockConfig(main_s=minutes * 60, increment_s=increment, byoyomi_s=byoyomi)
    except (ValueError, ClockError) as exc:
        raise NewGameError(
            f"Time control {text!r}: give minutes+increment+byoyomi in seconds, e.g. 10+0+30 (not both an "
            "increment and byoyomi), or untimed."
        ) from exc
