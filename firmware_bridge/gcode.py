"""Pure builders of the G-code and `$` lines the gantry sends, each checked before it leaves.

Owns: the text of each command, number formatting (millimetres, 3 decimals) and the line rules of GRBL 1.1:
at most 79 characters (the 80-byte line buffer less its terminator), printable ASCII, never a real-time
byte (`?`, `!`, `~`, 0x18) inside a line, no line terminator (the link appends `\\n` only).
"""

from __future__ import annotations

import math

from firmware_bridge.errors import GcodeError
from firmware_bridge.protocol import REALTIME_BYTES

MAX_LINE_CHARS = 79
"""GRBL 1.1 LINE_BUFFER_SIZE is 80 including the terminator."""


def checked(line: str) -> str:
    """Return `line` if it is safe to send, else raise GcodeError saying why."""
    if len(line) > MAX_LINE_CHARS:
        raise GcodeError(f"line has {len(line)} characters, more than {MAX_LINE_CHARS}", line)
    if not line.isascii() or not line.isprintable():
        raise GcodeError("line has a non-printable or non-ASCII character", line)
    if any(ord(ch) in REALTIME_BYTES for ch in line):
        raise GcodeError("line contains a real-time command byte (? ! ~)", line)
    if not line.strip():
        raise GcodeError("empty line", line)
    return line


def number(value: float) -> str:
    """A millimetre or second value with at most 3 decimals and no trailing zeros (`12.5`, `-3`, `0.01`)."""
    if not math.isfinite(value):
        raise GcodeError(f"non-finite number {value!r}")
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _axes(x_mm: float | None, y_mm: float | None, z_mm: float | None) -> str:
    words = [f"{axis}{number(v)}" for axis, v in (("X", x_mm), ("Y", y_mm), ("Z", z_mm)) if v is not None]
    if not words:
        raise GcodeError("a move needs at least one axis word")
    return " ".join(words)


def rapid(x_mm: float | None = None, y_mm: float | None = None, z_mm: float | None = None) -> str:
    """`G0 X.. Y.. Z..`: rapid move at the controller's max rates (absent axes unchanged)."""
    return checked(f"G0 {_axes(x_mm, y_mm, z_mm)}")


def linear(
    x_mm: float | None = None, y_mm: float | None = None, z_mm: float | None = None, *, feed_mm_per_min: float
) -> str:
    """`G1 X.. F..`: a feed move at `feed_mm_per_min`."""
    if feed_mm_per_min <= 0:
        raise GcodeError(f"feed must be positive, got {feed_mm_per_min}")
    return checked(f"G1 {_axes(x_mm, y_mm, z_mm)} F{number(feed_mm_per_min)}")


def set_feed(feed_mm_per_min: float) -> str:
    """`G1 F..`: feed mode and feed rate without motion (later axis-only lines would be feed moves)."""
    if feed_mm_per_min <= 0:
        raise GcodeError(f"feed must be positive, got {feed_mm_per_min}")
    return checked(f"G1 F{number(feed_mm_per_min)}")


def jog(
    x_mm: float | None = None,
    y_mm: float | None = None,
    z_mm: float | None = None,
    *,
    feed_mm_per_min: float,
    relative: bool = False,
) -> str:
    """`$J=G90 X.. F..` (or G91): a jog, cancellable with 0x85; beyond travel GRBL answers error:15, no alarm."""
    if feed_mm_per_min <= 0:
        raise GcodeError(f"feed must be positive, got {feed_mm_per_min}")
    mode = "G91" if relative else "G90"
    return checked(f"$J={mode} {_axes(x_mm, y_mm, z_mm)} F{number(feed_mm_per_min)}")


def dwell(seconds: float = 0.01) -> str:
    """`G4 P<seconds>`: waits for the planner to empty, then dwells; `G4 P0.01` is the sync idiom."""
    if seconds < 0:
        raise GcodeError(f"dwell must not be negative, got {seconds}")
    return checked(f"G4 P{number(seconds)}")


def setting(number_: int, value: float) -> str:
    """`$N=value`: write one setting (EEPROM; send-response only)."""
    if number_ < 0:
        raise GcodeError(f"setting number must not be negative, got {number_}")
    return checked(f"${number_}={number(value)}")


HOME = checked("$H")
"""Run the homing cycle."""
UNLOCK = checked("$X")
"""Kill the alarm lock."""
SETTINGS = checked("$$")
"""Print every setting, then `ok`."""
BUILD_INFO = checked("$I")
"""Print `[VER:...]` and `[OPT:...]`."""
PARSER_STATE = checked("$G")
"""Print `[GC:...]`, the modal state."""
ABSOLUTE = checked("G90")
"""Absolute distances."""
MILLIMETRES = checked("G21")
"""Millimetre units."""
COOLANT_ON = checked("M8")
"""Flood coolant on (Uno A3): the magnet or pump. Synchronised: takes effect once motion stops."""
COOLANT_OFF = checked("M9")
"""Flood coolant off: release. Synchronised like M8."""
SYNC = dwell(0.01)
"""`G4 P0.01`: its `ok` arrives only after every queued motion has finished."""
