"""When the fake GRBL device's injected faults fire: the schedule built from a `FaultConfig`.

Owns: arming the line-triggered faults (disconnect, reset, alarm) with their delay, reporting those due,
which responses go missing, the response latency and the seeded noise put in front of output lines. Pure:
time is passed in; the device decides what each fault does to it.
"""

from __future__ import annotations

import random

from firmware_bridge import fake_reports
from firmware_bridge.fake_config import FaultConfig, FaultKind


class FaultSchedule:
    """The live state of the faults of one device."""

    def __init__(self, config: FaultConfig) -> None:
        self.config = config
        self._rng = random.Random(config.seed)
        self._armed: list[tuple[float, FaultKind]] = []

    def arm(self, line_number: int, now: float) -> None:
        """Line `line_number` arrived at `now`: schedule the faults it triggers."""
        due = now + self.config.fault_delay_s
        for kind, line in (
            (FaultKind.DISCONNECT, self.config.disconnect_after_lines),
            (FaultKind.RESET, self.config.reset_after_lines),
            (FaultKind.ALARM, self.config.alarm_after_lines),
        ):
            if line == line_number:
                self._armed.append((due, kind))

    def take_due(self, now: float) -> list[tuple[float, FaultKind]]:
        """The armed faults due by `now`, in time order (removed from the schedule)."""
        due = sorted(item for item in self._armed if item[0] <= now)
        self._armed = [item for item in self._armed if item[0] > now]
        return due

    def pending(self) -> bool:
        """True while a fault is armed and not yet fired."""
        return bool(self._armed)

    def next_due(self) -> float | None:
        """When the earliest armed fault fires (None if none is armed)."""
        return min((due for due, _ in self._armed), default=None)

    def drops_response(self, line_number: int | None) -> bool:
        """True if the response to this line must never be sent."""
        return line_number is not None and line_number in self.config.missing_ok_lines

    @property
    def latency_s(self) -> float:
        return self.config.ok_latency_s

    def noise(self) -> bytes:
        """A garbage or half line to send before the next output line, or nothing."""
        if self.config.garbage_rate and self._rng.random() < self.config.garbage_rate:
            return fake_reports.garbage(self._rng)
        return b""
