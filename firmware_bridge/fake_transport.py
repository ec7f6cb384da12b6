"""An in-process `Transport` to a `FakeGrbl` on a simulated clock: the same bytes as over the pty, no waiting.

Owns: `SimClock` (a manual monotonic clock shared by the link and the device) and `FakeGrblTransport`, whose
`read_line(timeout)` advances simulated time in small steps until the device prints a line or the timeout
passes. A whole pick-and-place, or a fault episode with a 60 s timeout, runs in milliseconds and is
deterministic, which suits benchmarks with hundreds of fault episodes. The pty server (`fake_server`) stays
the end-to-end path with the real `SerialTransport`; this one skips pyserial and the OS.
"""

from __future__ import annotations

from collections.abc import Callable

from firmware_bridge.errors import ConnectionLost
from firmware_bridge.fake_config import FakeGrblConfig, HeadEvent
from firmware_bridge.fake_grbl import FakeGrbl


class SimClock:
    """Simulated monotonic seconds; `advance` moves it forward."""

    def __init__(self, start_s: float = 0.0) -> None:
        self._now = start_s

    def now(self) -> float:
        return self._now

    def advance(self, seconds: float) -> None:
        if seconds < 0:
            raise ValueError("time does not run backwards")
        self._now += seconds


class FakeGrblTransport:
    """`Transport` wired straight to a `FakeGrbl`. Opening it is opening the port (an Uno reboots)."""

    def __init__(
        self,
        config: FakeGrblConfig | None = None,
        clock: SimClock | None = None,
        on_event: Callable[[HeadEvent], None] | None = None,
        step_s: float = 0.001,
    ) -> None:
        self.clock = clock if clock is not None else SimClock()
        self.config = config if config is not None else FakeGrblConfig()
        self.device = FakeGrbl(self.config, self.clock.now(), on_event)
        self._step = step_s
        self._pending = bytearray()
        self._closed = False
        if not self.config.reset_on_open:
            self._run_for(self.config.boot_delay_s)
            self.device.take_output(self.clock.now())
        else:
            self.device.power_cycle(self.clock.now())

    def write(self, data: bytes) -> None:
        self._check()
        self.device.receive(data, self.clock.now())

    def read_line(self, timeout_s: float) -> bytes | None:
        self._check()
        end = self.clock.now() + max(timeout_s, 0.0)
        while True:
            self._pending += self.device.take_output(self.clock.now())
            index = self._pending.find(b"\n")
            if index >= 0:
                line = bytes(self._pending[: index + 1])
                del self._pending[: index + 1]
                return line
            self._check()
            if self.clock.now() >= end:
                return None
            change = self.device.next_change()
            target = end if change is None else min(end, max(change, self.clock.now() + self._step))
            self.clock.advance(target - self.clock.now())
            self.device.advance(self.clock.now())

    def reset_input(self) -> None:
        self._check()
        self._pending.clear()
        self.device.take_output(self.clock.now())

    def close(self) -> None:
        self._closed = True

    def _run_for(self, seconds: float) -> None:
        end = self.clock.now() + seconds
        while self.clock.now() < end:
            self.clock.advance(min(self._step, end - self.clock.now()))
            self.device.advance(self.clock.now())

    def _check(self) -> None:
        if self._closed:
            raise ConnectionLost("fake transport closed")
        if self.device.disconnected:
            raise ConnectionLost("fake GRBL device disconnected (injected fault)")
