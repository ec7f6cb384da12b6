"""Pure parser of what a GRBL-family controller prints, and the real-time command bytes.

Owns: the classification of one received line into a response (`Ok`, `ErrorReply` — exactly one per line
sent, the only items that count for flow control) or a push message (`StatusReport`, `AlarmMessage`,
`Banner`, `Feedback` for `[MSG:]`/`[GC:]`/`[OPT:]`/`[VER:]`..., `Setting` for `$N=value`, `StartupResult`),
and `Garbage` for anything else (noise, half lines, ESP32 boot ROM text): never an exception.
Knows GRBL 1.1, grblHAL and FluidNC banners. Does not own I/O, timing or what to do about a message.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass, field

STATUS_QUERY = b"?"
"""Real-time: ask for a status report (no newline, never inside a line)."""
FEED_HOLD = b"!"
"""Real-time: decelerate to a hold."""
CYCLE_RESUME = b"~"
"""Real-time: resume from a hold."""
SOFT_RESET = b"\x18"
"""Real-time: Ctrl-X soft reset (flushes the controller's buffers, prints the banner again)."""
JOG_CANCEL = b"\x85"
"""Real-time: cancel a `$J=` jog (decelerate, flush the jog)."""
REALTIME_BYTES = frozenset(STATUS_QUERY + FEED_HOLD + CYCLE_RESUME + SOFT_RESET)
"""Bytes the controller intercepts anywhere in the stream; they must never appear inside a G-code line."""


class Firmware(enum.Enum):
    """Which firmware family printed a banner."""

    GRBL = "grbl"
    GRBLHAL = "grblhal"
    FLUIDNC = "fluidnc"


class MachineState(enum.Enum):
    """The state word of a status report (`Hold:0` -> HOLD with substate 0)."""

    IDLE = "Idle"
    RUN = "Run"
    HOLD = "Hold"
    JOG = "Jog"
    ALARM = "Alarm"
    DOOR = "Door"
    CHECK = "Check"
    HOME = "Home"
    SLEEP = "Sleep"
    TOOL = "Tool"


Triple = tuple[float, float, float]


@dataclass(frozen=True)
class Ok:
    """`ok`: the line was parsed and queued (not necessarily executed)."""


@dataclass(frozen=True)
class ErrorReply:
    """`error:N`: the line was rejected and not executed."""

    code: int


@dataclass(frozen=True)
class AlarmMessage:
    """`ALARM:N`, pushed at any time."""

    code: int


@dataclass(frozen=True)
class StatusReport:
    """`<State|MPos:...|...>` with its optional fields (None when absent from this report)."""

    state: MachineState
    substate: int | None
    mpos: Triple | None
    wpos: Triple | None
    wco: Triple | None = None
    feed: float | None = None
    spindle: float | None = None
    buffer: tuple[int, int] | None = None
    """(planner blocks free, RX bytes free) from `Bf:`."""
    line_number: int | None = None
    pins: str | None = None
    overrides: Triple | None = None
    accessories: str | None = None
    """`A:` letters: S spindle CW, C CCW, F flood (our magnet), M mist; "" when `A:` is present but empty."""
    extra: tuple[tuple[str, str], ...] = field(default=())
    """Fields this parser does not interpret (e.g. grblHAL `TLR:`), kept verbatim."""


@dataclass(frozen=True)
class Banner:
    """The start-up banner: the controller (re)initialised."""

    firmware: Firmware
    version: str
    text: str


@dataclass(frozen=True)
class Feedback:
    """A bracketed message such as `[MSG:Reset to continue]` (tag "MSG") or `[OPT:V,15,128]` (tag "OPT")."""

    tag: str
    text: str


@dataclass(frozen=True)
class Setting:
    """One `$N=value` line of a `$$` dump."""

    number: int
    value: str


@dataclass(frozen=True)
class StartupResult:
    """`>G54G20:ok`: the result of a start-up line (not a response to anything the host sent)."""

    text: str


@dataclass(frozen=True)
class Garbage:
    """A line that is none of the above (noise, a half line, an unknown format)."""

    raw: str
    reason: str


Response = Ok | ErrorReply
PushMessage = AlarmMessage | StatusReport | Banner | Feedback | Setting | StartupResult | Garbage
Item = Response | PushMessage

_ERROR = re.compile(r"error:(\d+)")
_ALARM = re.compile(r"ALARM:(\d+)")
_SETTING = re.compile(r"\$(\d+)=(\S*)")
_FEEDBACK = re.compile(r"\[([A-Za-z0-9]+):(.*)\]")
_BANNER = re.compile(r"(Grbl|GrblHAL) (\S+) \[(.*)\]")
_STATUS = re.compile(r"<([^<>]*)>")


def parse_line(raw: bytes | str) -> Item:
    """Classify one received line (with or without its `\\r\\n`). Never raises."""
    text = raw.decode("ascii", errors="replace") if isinstance(raw, bytes) else raw
    line = text.strip("\r\n").strip(" ")
    if not line:
        return Garbage(text, "empty line")
    if not line.isprintable() or not line.isascii():
        return Garbage(text, "non-printable or non-ASCII characters")
    if line == "ok":
        return Ok()
    simple = _parse_simple(line)
    if simple is not None:
        return simple
    if line.startswith("<"):
        return parse_status(line)
    return Garbage(text, "unrecognised line")


def _parse_simple(line: str) -> Item | None:
    if match := _ERROR.fullmatch(line):
        return ErrorReply(int(match.group(1)))
    if match := _ALARM.fullmatch(line):
        return AlarmMessage(int(match.group(1)))
    if match := _SETTING.fullmatch(line):
        return Setting(int(match.group(1)), match.group(2))
    if match := _BANNER.fullmatch(line):
        return _banner(match, line)
    if match := _FEEDBACK.fullmatch(line):
        return Feedback(match.group(1), match.group(2))
    if line.startswith(">") and line.endswith(("ok", "error")):
        return StartupResult(line[1:])
    return None


def _banner(match: re.Match[str], line: str) -> Banner:
    family, version, rest = match.group(1), match.group(2), match.group(3)
    if family == "GrblHAL":
        return Banner(Firmware.GRBLHAL, version, line)
    if "FluidNC" in rest:
        return Banner(Firmware.FLUIDNC, version, line)
    return Banner(Firmware.GRBL, version, line)


def parse_status(line: str) -> StatusReport | Garbage:
    """Parse `<State|Key:value|...>`; fields after the state in any order. Garbage if malformed."""
    match = _STATUS.fullmatch(line)
    if match is None:
        return Garbage(line, "unterminated status report")
    parts = match.group(1).split("|")
    state_word, _, sub = parts[0].partition(":")
    try:
        state = MachineState(state_word)
        substate = int(sub) if sub else None
        fields = dict(_split_field(part) for part in parts[1:])
        report = _status_from_fields(state, substate, fields)
    except ValueError as exc:
        return Garbage(line, f"malformed status report: {exc}")
    if report.mpos is None and report.wpos is None:
        return Garbage(line, "status report without MPos or WPos")
    return report


def _split_field(part: str) -> tuple[str, str]:
    key, sep, value = part.partition(":")
    if not sep:
        raise ValueError(f"field {part!r} has no ':'")
    return key, value


def _floats(value: str, count: int) -> tuple[float, ...]:
    numbers = tuple(float(v) for v in value.split(","))
    if len(numbers) < count:
        raise ValueError(f"expected {count} numbers in {value!r}")
    return numbers


def _triple(value: str | None) -> Triple | None:
    if value is None:
        return None
    a, b, c = _floats(value, 3)[:3]
    return (a, b, c)


_KNOWN = frozenset({"MPos", "WPos", "WCO", "FS", "F", "Bf", "Ln", "Pn", "Ov", "A"})


def _status_from_fields(state: MachineState, substate: int | None, fields: dict[str, str]) -> StatusReport:
    feed = spindle = None
    if "FS" in fields:
        feed, spindle = _floats(fields["FS"], 2)[:2]
    elif "F" in fields:
        feed = _floats(fields["F"], 1)[0]
    buffer = None
    if "Bf" in fields:
        free_blocks, free_rx = _floats(fields["Bf"], 2)[:2]
        buffer = (int(free_blocks), int(free_rx))
    return StatusReport(
        state=state,
        substate=substate,
        mpos=_triple(fields.get("MPos")),
        wpos=_triple(fields.get("WPos")),
        wco=_triple(fields.get("WCO")),
        feed=feed,
        spindle=spindle,
        buffer=buffer,
        line_number=int(fields["Ln"]) if "Ln" in fields else None,
        pins=fields.get("Pn"),
        overrides=_triple(fields.get("Ov")),
        accessories=fields.get("A"),
        extra=tuple((k, v) for k, v in fields.items() if k not in _KNOWN),
    )


def is_response(item: Item) -> bool:
    """True for `ok` and `error:N`, the only items that answer a line the host sent."""
    return isinstance(item, Ok | ErrorReply)
