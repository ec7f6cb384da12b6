"""USI wire format, GUI side: value types for what engines say, and pure parsers and formatters.

Owns: turning engine lines (`info ...`, `bestmove ...`, `checkmate ...`) into frozen values, and
search limits into `go ...` commands. No I/O, no processes: `controller.engines.client` does that. Parsers raise
ValueError on malformed text; the client decides whether to skip the line or fail.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass

USI_MOVE_RE = re.compile(r"^(?:[1-9][a-i][1-9][a-i]\+?|[RBGSNLP]\*[1-9][a-i])$")
"""Syntax of one USI move (`7g7f`, `8h2b+`, `P*5e`); legality is checked against a board elsewhere."""


class Bound(enum.StrEnum):
    """Whether a score is exact or only a bound (`lowerbound` / `upperbound`)."""

    EXACT = "exact"
    LOWER = "lowerbound"
    UPPER = "upperbound"


MATE_CP = 100_000
"""The centipawn value `Score.to_cp` gives a mate (minus the distance in plies when known)."""


@dataclass(frozen=True)
class Score:
    """An evaluation from the side to move's point of view.

    Attributes:
        cp: centipawns, when the score is not a mate.
        mate_sign: +1 the side to move mates, -1 it is mated, 0 not a mate score.
        mate_plies: distance to mate in plies, when the engine gave one (`mate +` / `mate -` give none; neither
            does gpsusi, which reports a mate as a huge `cp`).
        bound: exact, lower or upper bound.
    """

    cp: int | None = None
    mate_sign: int = 0
    mate_plies: int | None = None
    bound: Bound = Bound.EXACT

    @property
    def is_mate(self) -> bool:
        """True for a mate score."""
        return self.mate_sign != 0

    def to_cp(self) -> int:
        """One comparable number: centipawns, or ±(MATE_CP - plies) for a mate."""
        if self.mate_sign:
            return self.mate_sign * (MATE_CP - (abs(self.mate_plies) if self.mate_plies is not None else 0))
        return self.cp if self.cp is not None else 0

    def __str__(self) -> str:
        if self.mate_sign:
            plies = "" if self.mate_plies is None else str(abs(self.mate_plies))
            return f"mate {'+' if self.mate_sign > 0 else '-'}{plies}"
        return f"cp {self.cp}"


@dataclass(frozen=True)
class Info:
    """One `info` line. Fields the line did not carry are None (or empty)."""

    depth: int | None = None
    seldepth: int | None = None
    time_ms: int | None = None
    nodes: int | None = None
    nps: int | None = None
    hashfull: int | None = None
    """Hash table use in permille."""
    multipv: int | None = None
    score: Score | None = None
    pv: tuple[str, ...] = ()
    currmove: str | None = None
    string: str | None = None
    """Free text after `info string`."""


_INT_FIELDS = {
    "depth": "depth",
    "seldepth": "seldepth",
    "time": "time_ms",
    "nodes": "nodes",
    "nps": "nps",
    "hashfull": "hashfull",
    "multipv": "multipv",
}
_INFO_KEYS = {
    *_INT_FIELDS,
    "score",
    "pv",
    "currmove",
    "string",
    "currmovenumber",
    "cpuload",
    "tbhits",
    "refutation",
    "currline",
}


def parse_info(line: str, *, mate_cp_threshold: int | None = None) -> Info:
    """Parse an `info ...` line.

    Args:
        line: the line as received.
        mate_cp_threshold: for engines (gpsusi) that report a mate as a huge `score cp`: a cp at least this large
            in absolute value is read as a mate of unknown distance.

    Raises:
        ValueError: not an info line, or a field whose value is not a number.
    """
    tokens = line.split()
    if not tokens or tokens[0] != "info":
        raise ValueError(f"not a USI info line: {line!r}")
    values: dict[str, object] = {}
    i = 1
    while i < len(tokens):
        key = tokens[i]
        if key == "string":
            values["string"] = line.split("string", 1)[1].strip()
            break
        if key == "score":
            score, i = _parse_score(tokens, i + 1, mate_cp_threshold)
            values["score"] = score
            continue
        if key == "pv":
            end = i + 1
            while end < len(tokens) and tokens[end] not in _INFO_KEYS:
                end += 1
            values["pv"] = tuple(tokens[i + 1 : end])
            i = end
            continue
        if key == "currmove" and i + 1 < len(tokens):
            values["currmove"] = tokens[i + 1]
        elif key in _INT_FIELDS and i + 1 < len(tokens):
            values[_INT_FIELDS[key]] = _int(tokens[i + 1], key, line)
        i += 2 if key in _INFO_KEYS else 1
    return Info(**values)  # type: ignore[arg-type]


def _int(text: str, key: str, line: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise ValueError(f"info {key} is not a number ({text!r}) in {line!r}") from None


def _parse_score(tokens: list[str], i: int, mate_cp_threshold: int | None) -> tuple[Score, int]:
    if i + 1 >= len(tokens) or tokens[i] not in ("cp", "mate"):
        raise ValueError(f"malformed score in {' '.join(tokens)!r}")
    kind, text = tokens[i], tokens[i + 1]
    i += 2
    bound = Bound.EXACT
    if i < len(tokens) and tokens[i] in ("lowerbound", "upperbound"):
        bound = Bound(tokens[i])
        i += 1
    if kind == "cp":
        cp = _int(text, "score cp", " ".join(tokens))
        if mate_cp_threshold is not None and abs(cp) >= mate_cp_threshold:
            return Score(mate_sign=1 if cp > 0 else -1, bound=bound), i
        return Score(cp=cp, bound=bound), i
    if text in ("+", "-"):
        return Score(mate_sign=1 if text == "+" else -1, bound=bound), i
    plies = _int(text, "score mate", " ".join(tokens))
    sign = -1 if plies < 0 or text.startswith("-") else 1
    return Score(mate_sign=sign, mate_plies=plies, bound=bound), i


class BestMoveKind(enum.StrEnum):
    """What a `bestmove` line announces."""

    MOVE = "move"
    RESIGN = "resign"
    WIN = "win"
    """The engine declares an entering-king (impasse) win."""


@dataclass(frozen=True)
class BestMove:
    """A `bestmove` answer.

    Attributes:
        kind: a move, a resignation or an impasse-win declaration.
        move: the USI move for kind MOVE, else None.
        ponder: the reply the engine expects, when it gave one.
    """

    kind: BestMoveKind
    move: str | None = None
    ponder: str | None = None


def parse_bestmove(line: str) -> BestMove:
    """Parse `bestmove <move> [ponder <move>]`, `bestmove resign` or `bestmove win`.

    Raises:
        ValueError: malformed (missing move, bad move syntax, stray words).
    """
    tokens = line.split()
    if len(tokens) < 2 or tokens[0] != "bestmove":
        raise ValueError(f"malformed bestmove line: {line!r}")
    if tokens[1] in ("resign", "win") and len(tokens) == 2:
        return BestMove(BestMoveKind(tokens[1]))
    if not USI_MOVE_RE.match(tokens[1]):
        raise ValueError(f"bestmove is not a USI move: {line!r}")
    ponder = None
    if len(tokens) == 4 and tokens[2] == "ponder" and USI_MOVE_RE.match(tokens[3]):
        ponder = tokens[3]
    elif len(tokens) != 2:
        raise ValueError(f"malformed bestmove line: {line!r}")
    return BestMove(BestMoveKind.MOVE, tokens[1], ponder)


class MateStatus(enum.StrEnum):
    """The outcome of `go mate`."""

    CHECKMATE = "checkmate"
    NOMATE = "nomate"
    TIMEOUT = "timeout"
    NOT_IMPLEMENTED = "notimplemented"


@dataclass(frozen=True)
class MateResult:
    """The answer to a mate search.

    Attributes:
        status: found, proven no mate, out of time, or not supported.
        moves: the mating sequence for CHECKMATE.
    """

    status: MateStatus
    moves: tuple[str, ...] = ()


def parse_checkmate(line: str) -> MateResult:
    """Parse `checkmate <moves...>|nomate|timeout|notimplemented`.

    Raises:
        ValueError: malformed line or a move that is not USI syntax.
    """
    tokens = line.split()
    if len(tokens) < 2 or tokens[0] != "checkmate":
        raise ValueError(f"malformed checkmate line: {line!r}")
    if len(tokens) == 2 and tokens[1] in ("nomate", "timeout", "notimplemented"):
        return MateResult(MateStatus(tokens[1]))
    bad = [t for t in tokens[1:] if not USI_MOVE_RE.match(t)]
    if bad:
        raise ValueError(f"checkmate line has non-moves {bad}: {line!r}")
    return MateResult(MateStatus.CHECKMATE, tuple(tokens[1:]))


@dataclass(frozen=True)
class GoLimits:
    """What to put after `go`: a clock (btime/wtime with byoyomi or binc/winc), or one fixed limit.

    Times are in milliseconds. Set either a clock, or movetime/nodes/depth, or infinite.
    """

    btime_ms: int | None = None
    wtime_ms: int | None = None
    byoyomi_ms: int | None = None
    binc_ms: int | None = None
    winc_ms: int | None = None
    movetime_ms: int | None = None
    nodes: int | None = None
    depth: int | None = None
    infinite: bool = False

    def __post_init__(self) -> None:
        numbers = (self.btime_ms, self.wtime_ms, self.byoyomi_ms, self.binc_ms, self.winc_ms)
        fixed = (self.movetime_ms, self.nodes, self.depth)
        if any(v is not None and v < 0 for v in (*numbers, *fixed)):
            raise ValueError(f"search limits must not be negative: {self}")
        clock = any(v is not None for v in numbers)
        if self.byoyomi_ms is not None and (self.binc_ms is not None or self.winc_ms is not None):
            raise ValueError("byoyomi and binc/winc are exclusive in USI")
        if sum((clock, any(v is not None for v in fixed), self.infinite)) > 1:
            raise ValueError(f"give a clock, a fixed limit or infinite, not several: {self}")

    @property
    def has_clock(self) -> bool:
        """True when btime/wtime/byoyomi/binc/winc are set."""
        return any(v is not None for v in (self.btime_ms, self.wtime_ms, self.byoyomi_ms, self.binc_ms, self.winc_ms))

    def go_command(self, *, ponder: bool = False) -> str:
        """The `go ...` line."""
        parts = ["go", "ponder"] if ponder else ["go"]
        if self.infinite:
            return " ".join([*parts, "infinite"])
        if self.has_clock:
            parts += [f"btime {self.btime_ms or 0}", f"wtime {self.wtime_ms or 0}"]
            if self.binc_ms is not None or self.winc_ms is not None:
                parts += [f"binc {self.binc_ms or 0}", f"winc {self.winc_ms or 0}"]
            else:
                parts.append(f"byoyomi {self.byoyomi_ms or 0}")
        for key, value in (("movetime", self.movetime_ms), ("nodes", self.nodes), ("depth", self.depth)):
            if value is not None:
                parts.append(f"{key} {value}")
        return " ".join(parts)

    def budget_ms(self, black_to_move: bool) -> int | None:
        """The longest the side to move may think under these limits, or None when not bounded by time."""
        if self.movetime_ms is not None:
            return self.movetime_ms
        if not self.has_clock:
            return None
        own = (self.btime_ms if black_to_move else self.wtime_ms) or 0
        inc = (self.binc_ms if black_to_move else self.winc_ms) or 0
        return own + (self.byoyomi_ms or 0) + inc
