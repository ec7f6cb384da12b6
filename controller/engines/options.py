"""USI engine options: the six option types, parsing `option name ... type ...` lines, and checking values.

Owns: `OptionType`, `EngineOption` and `parse_option`. Which names mean the same option on different engines
lives in `controller.engines.quirks`.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass


class OptionType(enum.StrEnum):
    """The USI option types."""

    CHECK = "check"
    SPIN = "spin"
    COMBO = "combo"
    BUTTON = "button"
    STRING = "string"
    FILENAME = "filename"


@dataclass(frozen=True)
class EngineOption:
    """One `option name ... type ...` line as advertised by the engine.

    Attributes:
        name: the option's name exactly as the engine spells it (fairy-stockfish uses spaces: `Skill Level`).
        type: its USI type.
        default: the default value as text (`""` for `<empty>`), None when none was given.
        min: lower bound of a spin.
        max: upper bound of a spin.
        vars: the allowed values of a combo.
    """

    name: str
    type: OptionType
    default: str | None = None
    min: int | None = None
    max: int | None = None
    vars: tuple[str, ...] = ()

    def check_value(self, value: str | int | bool | None) -> str | None:
        """The value as the text to send, or None for a button.

        Raises:
            ValueError: the value does not fit the option's type, range or choices.
        """
        if self.type is OptionType.BUTTON:
            if value is not None:
                raise ValueError(f"option {self.name!r} is a button and takes no value")
            return None
        if value is None:
            raise ValueError(f"option {self.name!r} ({self.type}) needs a value")
        if self.type is OptionType.CHECK:
            return _check_bool(self.name, value)
        if self.type is OptionType.SPIN:
            return str(self._check_spin(value))
        text = str(value)
        if "\n" in text or "\r" in text:
            raise ValueError(f"option {self.name!r}: value must be one line")
        if self.type is OptionType.COMBO and text not in self.vars:
            raise ValueError(f"option {self.name!r}: {text!r} is not one of {', '.join(self.vars)}")
        return text

    def _check_spin(self, value: str | int | bool) -> int:
        if isinstance(value, bool):
            raise ValueError(f"option {self.name!r} is a number, got {value!r}")
        try:
            number = int(value)
        except ValueError:
            raise ValueError(f"option {self.name!r} is a number, got {value!r}") from None
        if (self.min is not None and number < self.min) or (self.max is not None and number > self.max):
            raise ValueError(f"option {self.name!r}: {number} is outside {self.min}..{self.max}")
        return number


def _check_bool(name: str, value: str | int | bool) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if str(value).lower() in ("true", "false"):
        return str(value).lower()
    raise ValueError(f"option {name!r} is true/false, got {value!r}")


def parse_option(line: str) -> EngineOption:
    """Parse `option name <name> type <type> [default <d>] [min <n>] [max <n>] [var <v>]*`.

    Names may contain spaces (fairy-stockfish). A string default `<empty>` becomes "".

    Raises:
        ValueError: not an option line, or a bad type or number.
    """
    match = re.match(r"^option\s+name\s+(.+?)\s+type\s+(\S+)(.*)$", line.strip())
    if match is None:
        raise ValueError(f"not a USI option line: {line!r}")
    name, type_text, rest = match.group(1), match.group(2), match.group(3)
    try:
        option_type = OptionType(type_text)
    except ValueError:
        raise ValueError(f"unknown option type {type_text!r} in {line!r}") from None
    default: str | None = None
    if option_type in (OptionType.STRING, OptionType.FILENAME):
        found = re.match(r"^\s+default(?:\s(.*))?$", rest)
        if found is not None:
            default = (found.group(1) or "").strip()
            default = "" if default == "<empty>" else default
        return EngineOption(name, option_type, default)
    fields = _keyword_values(rest.split(), ("default", "min", "max", "var"))
    default = fields["default"][0] if fields["default"] else None
    low = int(fields["min"][0]) if fields["min"] else None
    high = int(fields["max"][0]) if fields["max"] else None
    return EngineOption(name, option_type, default, low, high, tuple(fields["var"]))


def _keyword_values(tokens: list[str], keys: tuple[str, ...]) -> dict[str, list[str]]:
    """Group tokens after each keyword (a value of several words is joined with spaces)."""
    out: dict[str, list[str]] = {key: [] for key in keys}
    current: list[str] | None = None
    for token in tokens:
        if token in keys:
            current = []
            out[token].append("")
            current = out[token]
        elif current is not None:
            current[-1] = f"{current[-1]} {token}".strip()
    return out
