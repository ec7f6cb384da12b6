"""GRBL error and alarm code meanings, read from the data file `grbl_codes.json` shipped beside this module.

Owns: code -> message lookups and which alarms require re-homing (`$H`) rather than a plain unlock (`$X`).
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any


@cache
def _table() -> dict[str, Any]:
    text = resources.files("firmware_bridge").joinpath("grbl_codes.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def error_meaning(code: int) -> str:
    """The documented meaning of `error:code` (or a note that the code is unknown)."""
    meaning: str | None = _table()["errors"].get(str(code))
    return meaning if meaning is not None else f"unknown error code {code}"


def alarm_meaning(code: int) -> str:
    """The documented meaning of `ALARM:code` (or a note that the code is unknown)."""
    entry: list[Any] | None = _table()["alarms"].get(str(code))
    return str(entry[0]) if entry is not None else f"unknown alarm code {code}"


def alarm_requires_homing(code: int) -> bool:
    """True when position is lost after this alarm (recover with `$H`); False when `$X` suffices.

    Unknown codes are treated as requiring homing: the safe side.
    """
    entry: list[Any] | None = _table()["alarms"].get(str(code))
    return bool(entry[1]) if entry is not None else True
