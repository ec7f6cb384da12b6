"""The fake GRBL device's G-code line parser: the subset a gantry uses, with GRBL 1.1h's error codes.

Owns: cleaning a line as GRBL does (drop spaces and control characters, strip `(...)` and `;` comments,
upper-case), splitting it into words and checking them: error:1 (letter expected), 2 (bad number), 20
(unsupported command), 21 (modal group violation), 25 (repeated word), 28 (G4 without P), 36 (unused words).
Supported: G0 G1 G4 G17 G20 G21 G54 G90 G91 G94, M3 M4 M5 M8 M9, words F P S N T X Y Z. Also the modal
state (`Modal`) that turns a block into what to do (`Step`), `$N=value` parsing and the soft-limit check. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

_NUMBER = re.compile(r"[-+]?(\d+\.?\d*|\.\d+)")
_SUPPORTED_G = {0.0, 1.0, 4.0, 17.0, 20.0, 21.0, 53.0, 54.0, 90.0, 91.0, 94.0}
_SUPPORTED_M = {3.0, 4.0, 5.0, 8.0, 9.0}
_MOTION = {0.0, 1.0}
_NON_MODAL = {4.0}
_MODAL_GROUPS = ({0.0, 1.0}, {90.0, 91.0}, {20.0, 21.0})
_VALUE_WORDS = set("FPSNTXYZ")
_NOT_EMULATED = ("#", "N", "C", "SLP", "RST")
_JOG_G = {20.0, 21.0, 53.0, 90.0, 91.0}


@dataclass(frozen=True)
class Block:
    """One parsed line: G and M codes, and the value words by letter."""

    g: tuple[float, ...]
    m: tuple[float, ...]
    words: dict[str, float]


class LineError(Exception):
    """The GRBL error code for a rejected line."""

    def __init__(self, code: int) -> None:
        super().__init__(f"error:{code}")
        self.code = code


def clean(raw: str) -> str:
    """What GRBL's protocol loop keeps of a line: no whitespace/control characters, no comments, upper case."""
    text = re.sub(r"\([^)]*\)", "", raw).split(";", 1)[0]
    return "".join(ch for ch in text if ord(ch) > 0x20 and ch not in "/%").upper()


def parse_block(line: str) -> Block:
    """Parse a cleaned, non-`$` line; raise LineError with GRBL's code when it is rejected."""
    g: list[float] = []
    m: list[float] = []
    words: dict[str, float] = {}
    pos = 0
    while pos < len(line):
        letter = line[pos]
        if not letter.isalpha():
            raise LineError(1)
        match = _NUMBER.match(line, pos + 1)
        if match is None:
            raise LineError(2)
        value = float(match.group(0))
        pos = match.end()
        if letter == "G":
            g.append(value)
        elif letter == "M":
            m.append(value)
        elif letter in _VALUE_WORDS:
            if letter in words:
                raise LineError(25)
            words[letter] = value
        else:
            raise LineError(20)
    _check(g, m, words)
    return Block(tuple(g), tuple(m), words)


def _check(g: list[float], m: list[float], words: dict[str, float]) -> None:
    if any(code not in _SUPPORTED_G for code in g) or any(code not in _SUPPORTED_M for code in m):
        raise LineError(20)
    for group in (*_MODAL_GROUPS, _NON_MODAL | _MOTION):
        if sum(code in group for code in g) > 1:
            raise LineError(21)
    if sum(code in (3.0, 4.0, 5.0) for code in m) > 1 or sum(code in (8.0, 9.0) for code in m) > 1:
        raise LineError(21)
    if 4.0 in g and "P" not in words:
        raise LineError(28)
    if "P" in words and 4.0 not in g:
        raise LineError(36)


def parse_setting(line: str, settings: Mapping[int, float]) -> tuple[int, float]:
    """`$N=value` as GRBL parses it: a non-number after `$` is error:2 (`$Z`), a missing `=` or an unknown N
    error:3, a bad value error:2, soft limits without homing error:10. Known but not emulated `$` commands
    (`$#`, `$N`, `$C`, `$SLP`, `$RST`) get error:3."""
    key, sep, value = line[1:].partition("=")
    if not key.isdigit():
        raise LineError(3 if line[1:].startswith(_NOT_EMULATED) else 2)
    if not sep or int(key) not in settings:
        raise LineError(3)
    try:
        parsed = float(value)
    except ValueError:
        raise LineError(2) from None
    if int(key) == 20 and parsed and not settings[22]:
        raise LineError(10)
    return int(key), parsed


def beyond_travel(settings: Mapping[int, float], target: Sequence[float]) -> bool:
    """Soft-limit check ($20) in the HOMING_FORCE_SET_ORIGIN frame: axes with their `$23` bit set travel over
    [0, $13x], the others over [-$13x, 0]."""
    if not settings[20]:
        return False
    mask = int(settings[23])
    for i, value in enumerate(target):
        travel = settings[130 + i]
        low, high = (0.0, travel) if mask & (1 << i) else (-travel, 0.0)
        if not low - 1e-6 <= value <= high + 1e-6:
            return True
    return False


Vec = tuple[float, float, float]


@dataclass(frozen=True)
class Step:
    """What one accepted block asks for, in execution order: spindle, coolant, dwell, then the move."""

    spindle: int | None
    coolant: bool | None
    dwell_s: float | None
    target: Vec | None
    feed_mm_per_min: float | None
    """None for a rapid (G0)."""

    @property
    def synchronised(self) -> bool:
        """True when GRBL waits for the planner to empty first (M3/M4/M5, M8/M9, G4)."""
        return self.spindle is not None or self.coolant is not None or self.dwell_s is not None


@dataclass
class Modal:
    """The parser's modal state (reset by a soft reset) and the programmed position in machine mm."""

    target: Vec = (0.0, 0.0, 0.0)
    motion: int = 0
    absolute: bool = True
    inches: bool = False
    feed: float | None = None
    spindle: int = 5
    coolant: bool = field(default=False)

    def step(self, block: Block) -> Step:
        """Apply `block` to the modal state; raise LineError(22) for a feed move without a feed rate."""
        scale = 25.4 if (20.0 in block.g or (self.inches and 21.0 not in block.g)) else 1.0
        motion = next((int(g) for g in block.g if g in _MOTION), self.motion)
        feed = block.words["F"] * scale if "F" in block.words else self.feed
        axes = [block.words.get(a) for a in "XYZ"]
        moving = any(v is not None for v in axes) and 4.0 not in block.g
        if moving and motion == 1 and not feed:
            raise LineError(22)
        self.motion, self.feed = motion, feed
        if 20.0 in block.g or 21.0 in block.g:
            self.inches = 20.0 in block.g
        if 90.0 in block.g or 91.0 in block.g:
            self.absolute = 90.0 in block.g
        spindle = next((int(m) for m in block.m if m in (3.0, 4.0, 5.0)), None)
        coolant = (8.0 in block.m) if (8.0 in block.m or 9.0 in block.m) else None
        target = self._target(axes, scale) if moving else None
        dwell = block.words["P"] if 4.0 in block.g else None
        return Step(spindle, coolant, dwell, target, None if motion == 0 else feed)

    def jog(self, block: Block) -> tuple[Vec, float]:
        """A `$J=` block's (target, feed): only G20/G21/G53/G90/G91, axis words and F (error:16 otherwise,
        error:22 without F). The units and distance mode apply to this jog only; the modal state is unchanged."""
        if block.m or any(g not in _JOG_G for g in block.g) or set(block.words) - set("XYZF"):
            raise LineError(16)
        if "F" not in block.words:
            raise LineError(22)
        scale = 25.4 if (20.0 in block.g or (self.inches and 21.0 not in block.g)) else 1.0
        absolute = 90.0 in block.g or (self.absolute and 91.0 not in block.g)
        axes = [block.words.get(a) for a in "XYZ"]
        base = self.target
        out = [base[i] if v is None else v * scale if absolute else base[i] + v * scale for i, v in enumerate(axes)]
        return (out[0], out[1], out[2]), block.words["F"] * scale

    def _target(self, axes: list[float | None], scale: float) -> Vec:
        base = self.target
        out = [
            base[i] if v is None else v * scale if self.absolute else base[i] + v * scale for i, v in enumerate(axes)
        ]
        return (out[0], out[1], out[2])
