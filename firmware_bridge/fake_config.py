"""Configuration of the fake GRBL device (settings, boot behaviour, injected faults) and its head-event records.

Owns: `FakeGrblConfig`, `FaultConfig` (fault injection as a frozen value, validated once), the default
`$$` settings of the emulated GRBL 1.1h gantry, and `HeadEvent`, what the emulated head did (for a virtual
board that moves pieces when they are gripped and released).

Machine coordinates follow a GRBL build with HOMING_FORCE_SET_ORIGIN: homing sets MPos to 0,0,0; axes whose
bit is set in `$23` (default 3: X and Y) home to their minimum and travel over [0, $13x]; the others (Z) home
to their maximum and travel over [-$13x, 0], so Z=0 is the top and lower is negative.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from types import MappingProxyType
from typing import Any

DEFAULT_SETTINGS: Mapping[int, float] = MappingProxyType(
    {
        0: 10, 1: 25, 2: 0, 3: 0, 4: 0, 5: 0, 6: 0, 10: 1, 11: 0.010, 12: 0.002, 13: 0,
        20: 1, 21: 0, 22: 1, 23: 3, 24: 100.0, 25: 3000.0, 26: 250, 27: 1.0,
        30: 1000, 31: 0, 32: 0,
        100: 80.0, 101: 80.0, 102: 400.0,
        110: 12000.0, 111: 12000.0, 112: 3000.0,
        120: 1000.0, 121: 1000.0, 122: 500.0,
        130: 600.0, 131: 450.0, 132: 50.0,
    }
)  # fmt: skip
"""GRBL 1.1h settings of a shogi gantry: 200 mm/s and 1000 mm/s² in XY, soft limits and homing on."""

INTEGER_SETTINGS = frozenset({0, 1, 2, 3, 4, 5, 6, 10, 13, 20, 21, 22, 23, 26, 30, 31, 32})
"""Settings `$$` prints without decimals."""

FAST_MOTION: Mapping[int, float] = MappingProxyType(
    {110: 120000.0, 111: 120000.0, 112: 60000.0, 120: 20000.0, 121: 20000.0, 122: 20000.0, 25: 120000.0}
)
"""Overrides that make the fake move fast (tests and quick simulations)."""


class Flavour(enum.StrEnum):
    """Which firmware the fake imitates where they differ on the wire."""

    GRBL = "grbl"
    """GRBL 1.1h: `Grbl 1.1h ['$' for help]`; CR and LF each end a line (CRLF gives two `ok`s)."""
    GRBLHAL = "grblhal"
    """grblHAL: `GrblHAL 1.1f ['$' or '$HELP' for help]`; CRLF is one line end (pair with rx_buffer_bytes=1024)."""
    FLUIDNC = "fluidnc"
    """FluidNC (ESP32): `Grbl 3.7 [FluidNC v3.7.10 (wifi) '$' for help]` after `[MSG:INFO: ...]` boot lines;
    CRLF is one line end (pair with reset_on_open=False)."""


class HeadEventKind(enum.StrEnum):
    """What the emulated head did."""

    GRIP = "grip"
    RELEASE = "release"
    MOVE = "move"
    HOME = "home"
    ALARM = "alarm"
    RESET = "reset"
    DISCONNECT = "disconnect"


@dataclass(frozen=True)
class HeadEvent:
    """One thing the head did, at `time_s` (device clock), at the head's physical position in mm.

    MOVE is reported when a block finishes; RELEASE also when a reset or alarm drops the magnet (M8 off).
    `detail` carries e.g. the alarm code or "power-on".
    """

    time_s: float
    kind: HeadEventKind
    x_mm: float
    y_mm: float
    z_mm: float
    detail: str = ""


class FaultKind(enum.StrEnum):
    """The kinds of injectable fault (for building single-fault episodes with `FaultConfig.single`)."""

    DISCONNECT = "disconnect"
    RESET = "reset"
    ALARM = "alarm"
    MISSING_OK = "missing_ok"
    SLOW_OK = "slow_ok"
    GARBAGE = "garbage"


@dataclass(frozen=True)
class FaultConfig:
    """Faults to inject, counted in lines received (1-based, every non-empty line incl. `$` commands).

    The disconnect, reset and alarm faults fire `fault_delay_s` after line N arrives (so a delay lands the
    fault mid-move when line N is a move).
    """

    disconnect_after_lines: int | None = None
    """Close the port (as if USB were unplugged)."""
    reset_after_lines: int | None = None
    """Spontaneous reboot: motion stops, the magnet drops, position is lost, a new banner follows."""
    alarm_after_lines: int | None = None
    """Raise `alarm_code` (default ALARM:1 hard limit): immediate stop, `[MSG:Reset to continue]`."""
    alarm_code: int = 1
    fault_delay_s: float = 0.0
    missing_ok_lines: frozenset[int] = frozenset()
    """Lines whose `ok`/`error` is never sent."""
    ok_latency_s: float = 0.0
    """Extra delay before every response."""
    garbage_rate: float = 0.0
    """Probability that a garbage or half line precedes each output line."""
    seed: int = 0
    """Seed of the garbage generator."""

    def __post_init__(self) -> None:
        for name in ("disconnect_after_lines", "reset_after_lines", "alarm_after_lines"):
            value = getattr(self, name)
            if value is not None and value < 1:
                raise ValueError(f"{name} must be >= 1, got {value}")
        if any(n < 1 for n in self.missing_ok_lines):
            raise ValueError("missing_ok_lines must be >= 1")
        if self.fault_delay_s < 0 or self.ok_latency_s < 0:
            raise ValueError("fault_delay_s and ok_latency_s must not be negative")
        if not 0.0 <= self.garbage_rate <= 1.0:
            raise ValueError(f"garbage_rate must be within [0, 1], got {self.garbage_rate}")

    @classmethod
    def single(cls, kind: FaultKind, line: int = 1, delay_s: float = 0.0, seed: int = 0) -> FaultConfig:
        """One fault: DISCONNECT/RESET/ALARM (hard limit) `delay_s` after line `line`; MISSING_OK for that line;
        SLOW_OK with `delay_s` of latency on every response; GARBAGE on 30 % of output lines (seeded)."""
        if kind is FaultKind.DISCONNECT:
            return cls(disconnect_after_lines=line, fault_delay_s=delay_s)
        if kind is FaultKind.RESET:
            return cls(reset_after_lines=line, fault_delay_s=delay_s)
        if kind is FaultKind.ALARM:
            return cls(alarm_after_lines=line, fault_delay_s=delay_s)
        if kind is FaultKind.MISSING_OK:
            return cls(missing_ok_lines=frozenset({line}))
        if kind is FaultKind.SLOW_OK:
            return cls(ok_latency_s=delay_s)
        return cls(garbage_rate=0.3, seed=seed)

    @classmethod
    def parse(cls, text: str) -> FaultConfig:
        """Build from `key=value,key=value` (e.g. `alarm_after_lines=5,fault_delay_s=0.1`); `;` separates the
        line numbers of `missing_ok_lines` (`missing_ok_lines=3;7`)."""
        values: dict[str, Any] = {}
        names = {f.name for f in fields(cls)}
        for item in filter(None, (part.strip() for part in text.split(","))):
            key, sep, value = item.partition("=")
            key = key.strip()
            if not sep or key not in names:
                raise ValueError(f"unknown fault setting {item!r}; known: {', '.join(sorted(names))}")
            values[key] = _convert(key, value.strip())
        return cls(**values)


def _convert(key: str, value: str) -> object:
    try:
        if key == "missing_ok_lines":
            return frozenset(int(v) for v in value.split(";") if v)
        if key in ("fault_delay_s", "ok_latency_s", "garbage_rate"):
            return float(value)
        return int(value)
    except ValueError as exc:
        raise ValueError(f"bad value for {key}: {value!r}") from exc


@dataclass(frozen=True)
class FakeGrblConfig:
    """The emulated controller: settings overrides, boot behaviour, faults."""

    settings: Mapping[int, float] = field(default_factory=dict)
    """Overrides of DEFAULT_SETTINGS (e.g. FAST_MOTION)."""
    boot_delay_s: float = 0.05
    """Arduino bootloader delay between a reset on open (DTR) or reboot and the banner (real: ~1-2 s)."""
    reset_on_open: bool = True
    """Uno-style auto-reset when the port is opened; False for ESP32 boards (FluidNC)."""
    rx_buffer_bytes: int = 128
    flavour: Flavour = Flavour.GRBL
    faults: FaultConfig = field(default_factory=FaultConfig)

    def __post_init__(self) -> None:
        unknown = set(self.settings) - set(DEFAULT_SETTINGS)
        if unknown:
            raise ValueError(f"unknown GRBL settings {sorted(unknown)}")
        if self.boot_delay_s < 0 or self.rx_buffer_bytes < 16:
            raise ValueError("boot_delay_s must be >= 0 and rx_buffer_bytes >= 16")

    def merged_settings(self) -> dict[int, float]:
        """DEFAULT_SETTINGS with the overrides applied."""
        return {**DEFAULT_SETTINGS, **self.settings}
