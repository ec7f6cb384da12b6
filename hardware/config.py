"""A strict reader for one TOML section: typed getters with ranges, unknown keys are errors.

Owns: turning a parsed TOML table (a dict) into checked Python values, naming the section and the key in every
error. Reusable by any package that keeps a section of the project's one TOML config (hardware uses it for
[gantry], [board], [stands], [gpio]; the controller may reuse it).

Usage: `r = Section("board", table)`, then `r.number("file_spacing_mm", default=35.2, low=20, high=60)` for each
key, `r.table("flip_station")` for a sub-table, and finally `r.finish()`, which raises on any key nobody read.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from hardware.errors import ConfigError

_MISSING: Any = object()


def load_toml(path: Path) -> dict[str, Any]:
    """Parse a TOML file; a syntax error or unreadable file becomes a ConfigError naming the file."""
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(str(path), None, f"not valid TOML: {exc}") from exc
    except OSError as exc:
        raise ConfigError(str(path), None, f"cannot read the config file: {exc}") from exc


class Section:
    """One TOML table being read; every getter marks its key as known."""

    def __init__(self, name: str, table: Mapping[str, Any] | None) -> None:
        if table is not None and not isinstance(table, Mapping):
            raise ConfigError(name, None, f"must be a table, got {type(table).__name__}")
        self.name = name
        self._table: Mapping[str, Any] = table or {}
        self._seen: set[str] = set()

    def has(self, key: str) -> bool:
        """True when the key is present (it still has to be read)."""
        return key in self._table

    def _raw(self, key: str, default: Any) -> Any:
        self._seen.add(key)
        if key in self._table:
            return self._table[key]
        if default is _MISSING:
            raise ConfigError(self.name, key, "required key is missing")
        return default

    def _error(self, key: str, message: str) -> ConfigError:
        return ConfigError(self.name, key, message)

    def number(
        self, key: str, *, default: float = _MISSING, low: float | None = None, high: float | None = None
    ) -> float:
        """A number (int or float in TOML), checked against [low, high]."""
        value = self._raw(key, default)
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self._error(key, f"must be a number, got {type(value).__name__} {value!r}")
        self._check_range(key, float(value), low, high)
        return float(value)

    def integer(self, key: str, *, default: int = _MISSING, low: int | None = None, high: int | None = None) -> int:
        """An integer, checked against [low, high]."""
        value = self._raw(key, default)
        if isinstance(value, bool) or not isinstance(value, int):
            raise self._error(key, f"must be an integer, got {type(value).__name__} {value!r}")
        self._check_range(key, value, low, high)
        return value

    def optional_integer(self, key: str, *, low: int | None = None, high: int | None = None) -> int | None:
        """An integer when the key is present, None when it is absent."""
        if self.has(key):
            return self.integer(key, low=low, high=high)
        self._seen.add(key)
        return None

    def boolean(self, key: str, *, default: bool = _MISSING) -> bool:
        """A TOML boolean."""
        value = self._raw(key, default)
        if not isinstance(value, bool):
            raise self._error(key, f"must be true or false, got {type(value).__name__} {value!r}")
        return value

    def string(self, key: str, *, default: str = _MISSING, choices: Sequence[str] | None = None) -> str:
        """A string, optionally one of `choices`."""
        value = self._raw(key, default)
        if not isinstance(value, str):
            raise self._error(key, f"must be a string, got {type(value).__name__} {value!r}")
        if choices is not None and value not in choices:
            raise self._error(key, f"must be one of {', '.join(map(repr, choices))}, got {value!r}")
        return value

    def numbers(self, key: str, count: int) -> tuple[float, ...] | None:
        """An array of exactly `count` numbers when present, None when absent."""
        if not self.has(key):
            self._seen.add(key)
            return None
        value = self._raw(key, _MISSING)
        if not isinstance(value, list) or len(value) != count:
            raise self._error(key, f"must be an array of {count} numbers, got {value!r}")
        if any(isinstance(v, bool) or not isinstance(v, int | float) for v in value):
            raise self._error(key, f"must hold only numbers, got {value!r}")
        return tuple(float(v) for v in value)

    def table(self, key: str) -> Section | None:
        """The sub-table `key` as a Section (named `section.key`), or None when absent."""
        self._seen.add(key)
        if key not in self._table:
            return None
        return Section(f"{self.name}.{key}", self._table[key])

    def finish(self) -> None:
        """Raise on the first key that no getter asked for (typos, keys of another version)."""
        unknown = sorted(set(self._table) - self._seen)
        if unknown:
            raise ConfigError(self.name, unknown[0], "unknown key" + _also(unknown[1:]))

    def _check_range(self, key: str, value: float, low: float | None, high: float | None) -> None:
        if low is not None and value < low:
            raise self._error(key, f"{value} is below the minimum {low}")
        if high is not None and value > high:
            raise self._error(key, f"{value} is above the maximum {high}")


def _also(rest: Sequence[str]) -> str:
    return f" (also unknown: {', '.join(rest)})" if rest else ""
