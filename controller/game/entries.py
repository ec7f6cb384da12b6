"""The entries of a game journal and their JSON-lines form.

Owns: the header (start, mode, settings, engine, impasse rule) and the events (move, takeback, result), their
encoding as one JSON object per line, and strict decoding (every field checked; a bad field is an `EntryError`
that the journal reader turns into a line-numbered `JournalCorruptError`).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from controller.game.clock import SideTime
from controller.game.errors import GameError
from controller.game.settings import GameSettings, MoveSource
from controller.rules.types import Color, GameResult, Termination

JOURNAL_VERSION = 1


class EntryError(GameError):
    """A JSON object that is not a valid journal entry (without line context)."""


@dataclass(frozen=True)
class ClockSnapshot:
    """Both sides' time between moves."""

    black: SideTime
    white: SideTime

    def to_json(self) -> dict[str, Any]:
        """`{"b": {...}, "w": {...}}`."""
        return {"b": _side_json(self.black), "w": _side_json(self.white)}

    @classmethod
    def from_json(cls, data: object) -> ClockSnapshot:
        """Parse `to_json` output."""
        table = _mapping(data, "clock")
        return cls(_side(table.get("b"), "clock.b"), _side(table.get("w"), "clock.w"))


@dataclass(frozen=True)
class JournalHeader:
    """The first line of a journal.

    Attributes:
        settings: the game's settings (start position, mode, clock, impasse rule, opponent).
        engine: how the engine was configured (name, options, limits), free-form, for the record.
        started: the wall-clock start time as text (injected by the caller).
    """

    settings: GameSettings
    engine: Mapping[str, Any] = field(default_factory=dict)
    started: str = ""


@dataclass(frozen=True)
class MoveEntry:
    """A committed move.

    Attributes:
        ply: 1-based number of the move in the game.
        usi: the move.
        source: who made it.
        spent_s: time the move took, None when unknown.
        clock: both sides' time after the move was charged.
    """

    ply: int
    usi: str
    source: MoveSource
    spent_s: float | None
    clock: ClockSnapshot


@dataclass(frozen=True)
class TakebackEntry:
    """Moves taken back.

    Attributes:
        plies: how many moves were taken back.
        clock: both sides' time afterwards.
    """

    plies: int
    clock: ClockSnapshot


@dataclass(frozen=True)
class ResultEntry:
    """The end of the game."""

    result: GameResult


JournalEvent = MoveEntry | TakebackEntry | ResultEntry
JournalEntry = JournalHeader | JournalEvent


def encode(entry: JournalEntry) -> str:
    """One JSON line (with its newline)."""
    return json.dumps(_to_json(entry), ensure_ascii=False, separators=(",", ":")) + "\n"


def _to_json(entry: JournalEntry) -> dict[str, Any]:
    if isinstance(entry, JournalHeader):
        s = entry.settings
        return {
            "type": "header",
            "version": JOURNAL_VERSION,
            "start_sfen": s.start_sfen,
            "mode": s.mode.value,
            "impasse_rule": s.impasse.value,
            "settings": s.to_json(),
            "engine": dict(entry.engine),
            "started": entry.started,
        }
    if isinstance(entry, MoveEntry):
        return {
            "type": "move",
            "ply": entry.ply,
            "usi": entry.usi,
            "source": entry.source.value,
            "spent_s": entry.spent_s,
            "clock": entry.clock.to_json(),
        }
    if isinstance(entry, TakebackEntry):
        return {"type": "takeback", "plies": entry.plies, "clock": entry.clock.to_json()}
    r = entry.result
    return {
        "type": "result",
        "termination": r.termination.value,
        "winner": r.winner.value if r.winner else None,
        "detail": r.detail,
    }


def decode(line: str) -> JournalEntry:
    """Parse one line.

    Raises:
        EntryError: not JSON, not an object, unknown type, or a missing or malformed field.
    """
    try:
        data = json.loads(line)
    except json.JSONDecodeError as exc:
        raise EntryError(f"not JSON: {exc.msg} at column {exc.colno}") from exc
    table = _mapping(data, "entry")
    kind = table.get("type")
    parsers: dict[str, Callable[[Mapping[str, Any]], JournalEntry]] = {
        "header": _header,
        "move": _move,
        "takeback": _takeback,
        "result": _result,
    }
    if kind not in parsers:
        raise EntryError(f"unknown entry type {kind!r}")
    try:
        return parsers[str(kind)](table)
    except EntryError:
        raise
    except (KeyError, TypeError, ValueError) as exc:
        raise EntryError(f"malformed {kind} entry: {exc}") from exc


def _header(t: Mapping[str, Any]) -> JournalHeader:
    if t.get("version") != JOURNAL_VERSION:
        raise EntryError(f"journal version {t.get('version')!r} is not {JOURNAL_VERSION}")
    settings = GameSettings.from_json(_mapping(t["settings"], "settings"))
    return JournalHeader(settings, _mapping(t.get("engine", {}), "engine"), _str(t.get("started", ""), "started"))


def _move(t: Mapping[str, Any]) -> MoveEntry:
    spent = t["spent_s"]
    return MoveEntry(
        ply=_int(t["ply"], "ply", low=1),
        usi=_str(t["usi"], "usi"),
        source=MoveSource(t["source"]),
        spent_s=None if spent is None else _number(spent, "spent_s"),
        clock=ClockSnapshot.from_json(t["clock"]),
    )


def _takeback(t: Mapping[str, Any]) -> TakebackEntry:
    return TakebackEntry(_int(t["plies"], "plies", low=1), ClockSnapshot.from_json(t["clock"]))


def _result(t: Mapping[str, Any]) -> ResultEntry:
    winner = t["winner"]
    result = GameResult(Termination(t["termination"]), Color(winner) if winner is not None else None)
    return ResultEntry(GameResult(result.termination, result.winner, _str(t.get("detail", ""), "detail")))


def _side_json(s: SideTime) -> dict[str, Any]:
    return {"main_s": s.main_s, "periods": s.periods, "used_s": s.used_s}


def _side(data: object, name: str) -> SideTime:
    t = _mapping(data, name)
    return SideTime(
        _number(t.get("main_s"), f"{name}.main_s"),
        _int(t.get("periods"), f"{name}.periods", low=0),
        _number(t.get("used_s"), f"{name}.used_s"),
    )


def _mapping(data: object, name: str) -> Mapping[str, Any]:
    if not isinstance(data, dict):
        raise EntryError(f"{name} must be a JSON object, got {type(data).__name__}")
    return data


def _str(value: object, name: str) -> str:
    if not isinstance(value, str):
        raise EntryError(f"{name} must be text, got {value!r}")
    return value


def _int(value: object, name: str, low: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise EntryError(f"{name} must be an integer >= {low}, got {value!r}")
    return value


def _number(value: object, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value) or value < 0:
        raise EntryError(f"{name} must be a non-negative number, got {value!r}")
    return float(value)
