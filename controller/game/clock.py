"""Game clocks: sudden death, byoyomi (with periods) and Fischer increment, per side, as pure immutable values.

Owns: the players' time. A `GameClock` never reads a clock itself: every operation takes `now` (seconds on a
monotonic scale, injected) and returns a new `GameClock`, so that the game's step function stays pure and tests
drive time by hand. Also owns the USI `go btime wtime byoyomi binc winc` arguments derived from the clock, the time
spent per move (for records), and the display and spoken forms of a reading.

Rules applied:
- main time runs first; a side whose main time is used up (strictly more than it had) is flagged, unless it has
  byoyomi;
- byoyomi: after the main time, each move must be made within `byoyomi_s`; a move that takes longer uses up one
  period per whole or started period beyond the current one; a side flags when it goes beyond its last period;
- Fischer: `increment_s` is added after every move made in time. Byoyomi and increment are exclusive (as in USI);
- an untimed clock measures time spent and never flags (record mode without a time control).
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass, replace

from controller.game.errors import ClockError
from controller.rules.types import Color

MAX_MAIN_S = 24 * 3600.0
MAX_BYOYOMI_S = 3600.0
MAX_PERIODS = 10


class ClockKind(enum.StrEnum):
    """The time control family a config describes."""

    SUDDEN_DEATH = "sudden_death"
    BYOYOMI = "byoyomi"
    FISCHER = "fischer"
    UNTIMED = "untimed"


@dataclass(frozen=True)
class ClockConfig:
    """One side's time control (seconds).

    Attributes:
        main_s: main time.
        byoyomi_s: time per move once the main time is used up (0: none).
        increment_s: Fischer increment added after each move (0: none).
        periods: byoyomi periods (1 in most shogi games).
        untimed: measure time but never flag; the other fields are ignored.
    """

    main_s: float = 600.0
    byoyomi_s: float = 0.0
    increment_s: float = 0.0
    periods: int = 1
    untimed: bool = False

    def __post_init__(self) -> None:
        for name, high in (("main_s", MAX_MAIN_S), ("byoyomi_s", MAX_BYOYOMI_S), ("increment_s", MAX_BYOYOMI_S)):
            value = getattr(self, name)
            if not math.isfinite(value) or not 0.0 <= value <= high:
                raise ClockError(f"clock {name} must be between 0 and {high:g} seconds, got {value!r}")
        if not 1 <= self.periods <= MAX_PERIODS:
            raise ClockError(f"clock periods must be between 1 and {MAX_PERIODS}, got {self.periods}")
        if self.byoyomi_s > 0 and self.increment_s > 0:
            raise ClockError("clock byoyomi_s and increment_s are exclusive (USI has no clock with both)")
        if not self.untimed and self.main_s + self.byoyomi_s + self.increment_s <= 0:
            raise ClockError("clock gives no time at all: set main_s, byoyomi_s or increment_s, or untimed = true")

    @property
    def kind(self) -> ClockKind:
        """The time control family."""
        if self.untimed:
            return ClockKind.UNTIMED
        if self.byoyomi_s > 0:
            return ClockKind.BYOYOMI
        if self.increment_s > 0:
            return ClockKind.FISCHER
        return ClockKind.SUDDEN_DEATH

    def describe(self) -> str:
        """A short text for headers and screens (`10:00 + 30 s byoyomi`)."""
        kind = self.kind
        if kind is ClockKind.UNTIMED:
            return "untimed"
        text = format_hms(self.main_s)
        if kind is ClockKind.BYOYOMI:
            text += f" + {self.byoyomi_s:g} s byoyomi" + (f" x{self.periods}" if self.periods > 1 else "")
        elif kind is ClockKind.FISCHER:
            text += f" + {self.increment_s:g} s/move"
        return text


@dataclass(frozen=True)
class SideTime:
    """One side's time between moves.

    Attributes:
        main_s: main time left.
        periods: byoyomi periods left.
        used_s: total time spent so far (for records and untimed clocks).
    """

    main_s: float
    periods: int
    used_s: float = 0.0


@dataclass(frozen=True)
class ClockReading:
    """What a clock face shows for one side at one instant.

    Attributes:
        side: whose time.
        main_s: main time left.
        byoyomi_s: time left in the current byoyomi period, or None while in main time (or without byoyomi).
        periods: byoyomi periods left, counting the current one.
        used_s: total time spent, including the running move.
        flagged: the side has run out of time.
        untimed: the clock only measures.
    """

    side: Color
    main_s: float
    byoyomi_s: float | None
    periods: int
    used_s: float
    flagged: bool
    untimed: bool = False


@dataclass(frozen=True)
class MoveTime:
    """The time of one finished move.

    Attributes:
        side: who moved.
        spent_s: time the move took.
        after: the side's time once the move was charged (increment added, periods used).
        flagged: the move was made after the side ran out of time.
    """

    side: Color
    spent_s: float
    after: SideTime
    flagged: bool


@dataclass(frozen=True)
class GoArgs:
    """The clock part of a USI `go` command, in milliseconds (names as in `controller.engines` GoLimits)."""

    btime_ms: int
    wtime_ms: int
    byoyomi_ms: int | None = None
    binc_ms: int | None = None
    winc_ms: int | None = None

    def usi(self) -> str:
        """`btime .. wtime .. byoyomi ..` or `... binc .. winc ..`."""
        text = f"btime {self.btime_ms} wtime {self.wtime_ms}"
        if self.binc_ms is not None or self.winc_ms is not None:
            return text + f" binc {self.binc_ms or 0} winc {self.winc_ms or 0}"
        return text + f" byoyomi {self.byoyomi_ms or 0}"


@dataclass(frozen=True)
class GameClock:
    """Both sides' time, and which side's clock runs since when.

    Build with `GameClock.new(config)`. Every operation returns a new clock.
    """

    black_config: ClockConfig
    white_config: ClockConfig
    black: SideTime
    white: SideTime
    running: Color | None = None
    started_at: float | None = None

    @classmethod
    def new(cls, config: ClockConfig, white_config: ClockConfig | None = None) -> GameClock:
        """A stopped clock with full time (`white_config` for a different time for gote)."""
        white = white_config or config
        return cls(config, white, SideTime(config.main_s, config.periods), SideTime(white.main_s, white.periods))

    def config(self, side: Color) -> ClockConfig:
        """The time control of `side`."""
        return self.black_config if side is Color.BLACK else self.white_config

    def time(self, side: Color) -> SideTime:
        """`side`'s time as of its last move (the running move not deducted)."""
        return self.black if side is Color.BLACK else self.white

    def with_times(self, black: SideTime, white: SideTime) -> GameClock:
        """This clock stopped, with the given times (resuming a journal)."""
        return replace(self, black=black, white=white, running=None, started_at=None)

    def start(self, side: Color, now: float) -> GameClock:
        """Start `side`'s clock.

        Raises:
            ClockError: when a clock is already running.
        """
        if self.running is not None:
            raise ClockError(f"cannot start {side.name.lower()}'s clock: {self.running.name.lower()}'s is running")
        return replace(self, running=side, started_at=now)

    def stop(self, now: float) -> tuple[GameClock, MoveTime]:
        """Stop the running clock and charge its side for the move.

        Raises:
            ClockError: when no clock is running, or `now` is before the start.
        """
        side, started = self._running()
        if now < started:
            raise ClockError(f"clock stopped at {now} before it started at {started}")
        spent = now - started
        after, flagged = _charge(self.config(side), self.time(side), spent)
        black, white = (after, self.white) if side is Color.BLACK else (self.black, after)
        clock = replace(self, black=black, white=white, running=None, started_at=None)
        return clock, MoveTime(side, spent, after, flagged)

    def press(self, now: float) -> tuple[GameClock, MoveTime]:
        """A press of the clock: stop the running side and start the opponent's clock."""
        clock, move = self.stop(now)
        return clock.start(move.side.opponent, now), move

    def cancel(self) -> GameClock:
        """Stop the running clock without charging anyone (a takeback, the end of the game)."""
        return replace(self, running=None, started_at=None)

    def reading(self, side: Color, now: float) -> ClockReading:
        """What `side`'s clock face shows at `now`."""
        config, base = self.config(side), self.time(side)
        elapsed = now - self.started_at if self.running is side and self.started_at is not None else 0.0
        elapsed = max(0.0, elapsed)
        used = base.used_s + elapsed
        if config.untimed:
            return ClockReading(side, 0.0, None, 0, used, False, untimed=True)
        main = base.main_s - elapsed
        if main >= 0:
            byo = config.byoyomi_s if config.byoyomi_s > 0 else None
            return ClockReading(side, main, byo, base.periods if byo else 0, used, False)
        if config.byoyomi_s <= 0:
            return ClockReading(side, 0.0, None, 0, used, True)
        over = -main
        periods_used = math.ceil(over / config.byoyomi_s) - 1
        left = base.periods - periods_used
        if left <= 0:
            return ClockReading(side, 0.0, 0.0, 0, used, True)
        in_period = over - periods_used * config.byoyomi_s
        return ClockReading(side, 0.0, config.byoyomi_s - in_period, left, used, False)

    def remaining(self, side: Color, now: float) -> float:
        """Seconds until `side` flags (infinite for an untimed clock)."""
        r = self.reading(side, now)
        if r.untimed:
            return math.inf
        if r.flagged:
            return 0.0
        periods_after = max(0, r.periods - 1)
        return r.main_s + (r.byoyomi_s or 0.0) + periods_after * self.config(side).byoyomi_s

    def flagged(self, now: float) -> Color | None:
        """The running side when it has run out of time at `now`, else None (a stopped side cannot flag)."""
        if self.running is None:
            return None
        return self.running if self.reading(self.running, now).flagged else None

    def go_args(self, now: float) -> GoArgs | None:
        """USI clock arguments at `now` (the side to move's running time deducted); None for an untimed clock."""
        if self.black_config.untimed or self.white_config.untimed:
            return None
        times = {side: max(0, math.floor(self.reading(side, now).main_s * 1000)) for side in Color}
        mover = self.config(self.running or Color.BLACK)
        if self.black_config.increment_s > 0 or self.white_config.increment_s > 0:
            binc = round(self.black_config.increment_s * 1000)
            winc = round(self.white_config.increment_s * 1000)
            return GoArgs(times[Color.BLACK], times[Color.WHITE], binc_ms=binc, winc_ms=winc)
        return GoArgs(times[Color.BLACK], times[Color.WHITE], byoyomi_ms=round(mover.byoyomi_s * 1000))

    def _running(self) -> tuple[Color, float]:
        if self.running is None or self.started_at is None:
            raise ClockError("no clock is running")
        return self.running, self.started_at


def _charge(config: ClockConfig, before: SideTime, spent: float) -> tuple[SideTime, bool]:
    """`before` after a move that took `spent` seconds, and whether the side had run out of time."""
    used = before.used_s + spent
    if config.untimed:
        return SideTime(before.main_s, before.periods, used), False
    if spent <= before.main_s:
        return SideTime(before.main_s - spent + config.increment_s, before.periods, used), False
    if config.byoyomi_s <= 0:
        return SideTime(0.0, before.periods, used), True
    over = spent - before.main_s
    periods_used = math.ceil(over / config.byoyomi_s) - 1
    left = before.periods - periods_used
    if left <= 0:
        return SideTime(0.0, 0, used), True
    return SideTime(0.0, left, used), False


def format_hms(seconds: float) -> str:
    """`mm:ss`, or `h:mm:ss` from an hour, rounded up to the second (a clock shows 00:01 until it flags)."""
    total = max(0, math.ceil(seconds - 1e-9))
    hours, rest = divmod(total, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes:02d}:{secs:02d}"


def display(reading: ClockReading) -> str:
    """The face of a clock: `09:58`, `B 27` in byoyomi (`B 27 x3` with periods), `used 12:04` when untimed."""
    if reading.untimed:
        return f"used {format_hms(reading.used_s)}"
    if reading.flagged:
        return "00:00 flag"
    if reading.main_s > 0 or reading.byoyomi_s is None:
        return format_hms(reading.main_s)
    secs = max(0, math.ceil(reading.byoyomi_s - 1e-9))
    return f"B {secs:02d}" + (f" x{reading.periods}" if reading.periods > 1 else "")


def spoken(reading: ClockReading) -> str:
    """A sentence for speech: `9 minutes 58 seconds`, `byoyomi, 27 seconds, 3 periods left`."""
    if reading.untimed:
        return f"{_spoken_duration(reading.used_s)} used"
    if reading.flagged:
        return "time is up"
    if reading.main_s > 0 or reading.byoyomi_s is None:
        return _spoken_duration(reading.main_s)
    text = f"byoyomi, {_plural(max(0, math.ceil(reading.byoyomi_s - 1e-9)), 'second')}"
    return text + (f", {reading.periods} periods left" if reading.periods > 1 else "")


COUNTDOWN_FROM_S = 5
"""The last seconds of a period (or of sudden-death time) are called one by one."""
CALLS_AT_S = (60, 30, 10)
"""Time left at which a call is made."""


def countdown_calls(before: ClockReading, after: ClockReading) -> list[str]:
    """The calls a time-keeper makes between two readings of the same running side (for speech), in order.

    In main time: `1 minute`, `30 seconds`, `10 seconds` left, then `5`, `4`... `1` when no byoyomi follows.
    Entering byoyomi: `byoyomi`; a period used up: `next period` (`last period` when one is left). In a
    byoyomi period: `30 seconds` and `10 seconds` left, then the last five seconds.
    """
    if after.untimed or after.flagged or before.side is not after.side:
        return []
    if after.main_s > 0 or after.byoyomi_s is None:
        return _crossed(before.main_s, after.main_s, final=after.byoyomi_s is None)
    if before.main_s > 0:
        return ["byoyomi"]
    if before.periods != after.periods:
        return ["last period" if after.periods == 1 else "next period"]
    return _crossed(before.byoyomi_s if before.byoyomi_s is not None else 0.0, after.byoyomi_s, final=True)


def _crossed(before_s: float, after_s: float, *, final: bool) -> list[str]:
    """Calls for the thresholds crossed going from `before_s` to `after_s` seconds left."""
    calls = ["1 minute" if t == 60 else f"{t} seconds" for t in CALLS_AT_S if after_s <= t < before_s]
    if final:
        calls += [str(t) for t in range(COUNTDOWN_FROM_S, 0, -1) if after_s <= t < before_s]
    return calls


def _spoken_duration(seconds: float) -> str:
    total = max(0, math.ceil(seconds - 1e-9))
    hours, rest = divmod(total, 3600)
    minutes, secs = divmod(rest, 60)
    parts = [_plural(n, unit) for n, unit in ((hours, "hour"), (minutes, "minute"), (secs, "second")) if n]
    return " ".join(parts) if parts else "0 seconds"


def _plural(n: int, unit: str) -> str:
    return f"{n} {unit}" + ("" if n == 1 else "s")
