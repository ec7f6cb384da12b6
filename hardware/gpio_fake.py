"""A recording GPIO backend with the same interface as the real one, for simulation and tests.

Owns: FakeGpio. It keeps every write and PWM change with a timestamp from the injected clock, holds input levels,
and lets callers press and release buttons; edge callbacks fire synchronously, filtered by the bouncetime the
way RPi.GPIO filters them (an edge within `bouncetime_ms` of the last accepted one on that pin is ignored).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from hardware.errors import GpioError
from hardware.gpio_backend import Clock, Edge, EdgeCallback


@dataclass(frozen=True)
class Write:
    """One recorded output change: `level` for digital pins, `duty_percent` for PWM (the other is None)."""

    time_s: float
    pin: int
    level: bool | None = None
    duty_percent: float | None = None


@dataclass
class _Watch:
    edge: Edge
    callback: EdgeCallback
    bouncetime_s: float
    last_fired_s: float | None = None


@dataclass
class _PinState:
    output: bool
    level: bool
    pull_up: bool = False
    pwm_hz: float | None = None
    watches: list[_Watch] = field(default_factory=list)


class FakeGpio:
    """In-memory GpioBackend."""

    def __init__(self, clock: Clock) -> None:
        self._clock = clock
        self._pins: dict[int, _PinState] = {}
        self.writes: list[Write] = []
        """Every output change, in order."""

    def setup_output(self, pin: int, initial: bool) -> None:
        """Configure an output at `initial` (recorded as a write)."""
        self._pins[pin] = _PinState(output=True, level=initial)
        self.writes.append(Write(self._clock.now(), pin, level=initial))

    def setup_input(self, pin: int, pull_up: bool) -> None:
        """Configure an input; it idles at the pull level."""
        self._pins[pin] = _PinState(output=False, level=pull_up, pull_up=pull_up)

    def write(self, pin: int, level: bool) -> None:
        """Drive an output (recorded)."""
        state = self._pin(pin)
        if not state.output:
            raise GpioError(f"pin {pin} is an input; it cannot be written")
        state.level = level
        self.writes.append(Write(self._clock.now(), pin, level=level))

    def read(self, pin: int) -> bool:
        """The level of a pin."""
        return self._pin(pin).level

    def add_edge_callback(self, pin: int, edge: Edge, callback: EdgeCallback, bouncetime_ms: int) -> None:
        """Watch an input for edges."""
        state = self._pin(pin)
        if state.output:
            raise GpioError(f"pin {pin} is an output; edge detection needs an input")
        state.watches.append(_Watch(edge, callback, bouncetime_ms / 1000.0))

    def start_pwm(self, pin: int, frequency_hz: float, duty_percent: float) -> None:
        """Start PWM on an output (recorded)."""
        state = self._pin(pin)
        if not state.output:
            raise GpioError(f"pin {pin} is an input; PWM needs an output")
        state.pwm_hz = frequency_hz
        self.writes.append(Write(self._clock.now(), pin, duty_percent=duty_percent))

    def set_pwm_duty(self, pin: int, duty_percent: float) -> None:
        """Change the duty of a started PWM (recorded)."""
        if self._pin(pin).pwm_hz is None:
            raise GpioError(f"pin {pin} has no PWM started")
        self.writes.append(Write(self._clock.now(), pin, duty_percent=duty_percent))

    def cleanup(self) -> None:
        """Forget every pin."""
        self._pins.clear()

    # --- test and simulation side -------------------------------------------------------------------

    def set_input(self, pin: int, level: bool) -> None:
        """Drive an input to `level`; matching edge callbacks fire unless inside their bounce window."""
        state = self._pin(pin)
        if state.output:
            raise GpioError(f"pin {pin} is an output; only inputs can be driven from outside")
        if level == state.level:
            return
        state.level = level
        edge = Edge.RISING if level else Edge.FALLING
        now = self._clock.now()
        for watch in state.watches:
            if watch.edge not in (edge, Edge.BOTH):
                continue
            if watch.last_fired_s is not None and now - watch.last_fired_s < watch.bouncetime_s:
                continue
            watch.last_fired_s = now
            watch.callback(pin)

    def press(self, pin: int) -> None:
        """Press a button wired to ground with a pull-up (the input goes low)."""
        self.set_input(pin, not self._pin(pin).pull_up)

    def release(self, pin: int) -> None:
        """Let go of a button (the input returns to its pull level)."""
        self.set_input(pin, self._pin(pin).pull_up)

    def level_history(self, pin: int) -> list[tuple[float, bool]]:
        """(time, level) of every digital write to `pin`."""
        return [(w.time_s, w.level) for w in self.writes if w.pin == pin and w.level is not None]

    def _pin(self, pin: int) -> _PinState:
        if pin not in self._pins:
            raise GpioError(f"pin {pin} was not set up")
        return self._pins[pin]
