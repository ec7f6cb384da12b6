"""Motion timing of the fake GRBL device: trapezoidal velocity profiles and a 15-block planner queue.

Owns: where the emulated head is at time t, from per-axis max rates (mm/min) and accelerations (mm/s²) as
GRBL limits them (the block's rate and acceleration are the tightest axis limits along its direction). Each
block starts and ends at rest (no junction blending: slightly slower than real GRBL, never faster). Feed hold
turns the running block into a deceleration plus a remainder block. Pure: time is passed in.
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass

Vec = tuple[float, float, float]

PLANNER_BLOCKS = 15
"""GRBL 1.1 on an Uno: `[OPT:V,15,128]`."""


def _dist(a: Vec, b: Vec) -> float:
    return math.sqrt(sum((q - p) ** 2 for p, q in zip(a, b, strict=True)))


def _lerp(a: Vec, b: Vec, f: float) -> Vec:
    return (a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f, a[2] + (b[2] - a[2]) * f)


@dataclass(frozen=True)
class Limits:
    """Per-axis limits: max rates in mm/min ($110-$112), accelerations in mm/s² ($120-$122)."""

    max_rate_mm_per_min: Vec
    accel_mm_per_s2: Vec

    def along(self, start: Vec, end: Vec, feed_mm_per_min: float | None) -> tuple[float, float]:
        """(max speed mm/s, acceleration mm/s²) of a straight move, as GRBL's planner limits them."""
        length = _dist(start, end)
        speed, accel = math.inf, math.inf
        for i in range(3):
            unit = abs(end[i] - start[i]) / length if length > 0 else 0.0
            if unit > 1e-12:
                speed = min(speed, self.max_rate_mm_per_min[i] / 60.0 / unit)
                accel = min(accel, self.accel_mm_per_s2[i] / unit)
        if feed_mm_per_min is not None:
            speed = min(speed, feed_mm_per_min / 60.0)
        return (speed if math.isfinite(speed) else 1.0, accel if math.isfinite(accel) else 1.0)


@dataclass(frozen=True)
class Segment:
    """A straight move from `start` to `end` beginning at `t0` with speed `v0`, peaking at most `vmax`, ending at
    rest, with constant acceleration magnitude `accel`."""

    start: Vec
    end: Vec
    t0: float
    v0: float
    vmax: float
    accel: float

    @property
    def length(self) -> float:
        return _dist(self.start, self.end)

    def _phases(self) -> tuple[float, float, float, float, float]:
        """(peak speed, accel distance, cruise distance, accel time, cruise time)."""
        d, a, v0 = self.length, self.accel, self.v0
        if v0 * v0 / (2 * a) >= d:
            return (v0, 0.0, 0.0, 0.0, 0.0)
        vp = max(self.vmax, v0)
        da, dd = (vp * vp - v0 * v0) / (2 * a), vp * vp / (2 * a)
        if da + dd > d:
            vp = math.sqrt((2 * a * d + v0 * v0) / 2)
            da, dd = (vp * vp - v0 * v0) / (2 * a), vp * vp / (2 * a)
        dc = max(d - da - dd, 0.0)
        return (vp, da, dc, (vp - v0) / a, dc / vp if vp > 0 else 0.0)

    def _decel(self) -> float:
        d, v0 = self.length, self.v0
        if v0 > 0 and v0 * v0 / (2 * self.accel) >= d:
            return v0 * v0 / (2 * d) if d > 0 else self.accel
        return self.accel

    @property
    def duration(self) -> float:
        if self.length <= 0:
            return 0.0
        vp, _, _, ta, tc = self._phases()
        return ta + tc + vp / self._decel()

    def distance_and_speed(self, t: float) -> tuple[float, float]:
        """Distance travelled and speed (mm, mm/s) at absolute time `t`."""
        d = self.length
        u = min(max(t - self.t0, 0.0), self.duration)
        vp, da, dc, ta, tc = self._phases()
        a, dec = self.accel, self._decel()
        if u < ta:
            return (self.v0 * u + a * u * u / 2, self.v0 + a * u)
        if u < ta + tc:
            return (da + vp * (u - ta), vp)
        w = u - ta - tc
        return (min(da + dc + vp * w - dec * w * w / 2, d), max(vp - dec * w, 0.0))

    def position(self, t: float) -> Vec:
        d = self.length
        if d <= 0:
            return self.end
        return _lerp(self.start, self.end, self.distance_and_speed(t)[0] / d)


@dataclass(frozen=True)
class Block:
    """A queued move: target and feed (None = rapid)."""

    target: Vec
    feed_mm_per_min: float | None


class Planner:
    """The planner queue and the running segment."""

    def __init__(self, position: Vec) -> None:
        self.queue: deque[Block] = deque()
        self.current: Segment | None = None
        self.current_block: Block | None = None
        self.held = False
        self._rest: Vec = position

    def is_full(self) -> bool:
        return len(self.queue) + (self.current is not None) >= PLANNER_BLOCKS

    def is_empty(self) -> bool:
        return self.current is None and not self.queue

    def free_blocks(self) -> int:
        return PLANNER_BLOCKS - len(self.queue) - (self.current is not None)

    def position(self, t: float) -> Vec:
        return self.current.position(t) if self.current is not None else self._rest

    def speed(self, t: float) -> float:
        return self.current.distance_and_speed(t)[1] if self.current is not None else 0.0

    def advance(self, t: float, limits: Limits) -> list[tuple[float, Vec]]:
        """Run the queue up to time `t`; returns (time, position) of each completed block."""
        done: list[tuple[float, Vec]] = []
        start = t
        while True:
            if self.current is not None:
                end = self.current.t0 + self.current.duration
                if end > t:
                    return done
                self._rest, start = self.current.end, end
                if self.current_block is not None:
                    done.append((end, self.current.end))
                self.current = self.current_block = None
            if self.held or not self.queue:
                return done
            block = self.queue.popleft()
            vmax, accel = limits.along(self._rest, block.target, block.feed_mm_per_min)
            self.current = Segment(self._rest, block.target, min(start, t), 0.0, vmax, accel)
            self.current_block = block

    def hold(self, t: float) -> None:
        """Feed hold: decelerate the running block to a stop; its remainder goes back to the queue front."""
        self.held = True
        seg = self.current
        if seg is None or self.current_block is None:
            return
        travelled, speed = seg.distance_and_speed(t)
        stop = min(travelled + speed * speed / (2 * seg.accel), seg.length)
        here = seg.position(t)
        stop_at = _lerp(seg.start, seg.end, stop / seg.length) if seg.length > 0 else seg.end
        self.queue.appendleft(self.current_block)
        self.current = Segment(here, stop_at, t, speed, speed, seg.accel)
        self.current_block = None

    def cancel(self, t: float) -> None:
        """Jog cancel: decelerate to a stop and drop everything queued."""
        self.hold(t)
        self.queue.clear()
        self.held = False

    def resume(self) -> None:
        self.held = False

    def is_decelerating_to_hold(self) -> bool:
        return self.held and self.current is not None

    def stop_now(self, t: float) -> Vec:
        """Abrupt stop (reset or hard limit): clear everything, return where the head is."""
        here = self.position(t)
        self.queue.clear()
        self.current = self.current_block = None
        self.held = False
        self._rest = here
        return here

    def set_position(self, position: Vec) -> None:
        self._rest = position
