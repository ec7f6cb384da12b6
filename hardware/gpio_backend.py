"""The GPIO backend interface devices are written against (a Protocol), shaped after the RPi.GPIO API.

Owns: GpioBackend, Edge and the Clock the fake backend stamps writes with. Pins are BCM numbers; levels are
booleans (True = high). Implementations: `hardware.gpio_rpi.RpiGpio` (the RPi.GPIO module, which rpi-lgpio
provides on a Pi 5) and `hardware.gpio_fake.FakeGpio`.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from typing import Protocol

EdgeCallback = Callable[[int], None]
"""Called with the pin number when a watched edge is detected (from the backend's event thread)."""


class Edge(enum.StrEnum):
    """Which transition fires an edge callback."""

    FALLING = "falling"
    RISING = "rising"
    BOTH = "both"


class Clock(Protocol):
    """Monotonic seconds (structurally the same as controller.ports.Clock)."""

    def now(self) -> float:
        """Seconds on a monotonic scale."""
        ...


class GpioBackend(Protocol):
    """The operations the devices need, one-to-one with RPi.GPIO calls."""

    def setup_output(self, pin: int, initial: bool) -> None:
        """GPIO.setup(pin, GPIO.OUT, initial=...)."""
        ...

    def setup_input(self, pin: int, pull_up: bool) -> None:
        """GPIO.setup(pin, GPIO.IN, pull_up_down=PUD_UP or PUD_DOWN)."""
        ...

    def write(self, pin: int, level: bool) -> None:
        """GPIO.output(pin, level)."""
        ...

    def read(self, pin: int) -> bool:
        """GPIO.input(pin)."""
        ...

    def add_edge_callback(self, pin: int, edge: Edge, callback: EdgeCallback, bouncetime_ms: int) -> None:
        """GPIO.add_event_detect(pin, edge, callback=..., bouncetime=...)."""
        ...

    def start_pwm(self, pin: int, frequency_hz: float, duty_percent: float) -> None:
        """GPIO.PWM(pin, frequency).start(duty)."""
        ...

    def set_pwm_duty(self, pin: int, duty_percent: float) -> None:
        """pwm.ChangeDutyCycle(duty) on a started PWM pin."""
        ...

    def cleanup(self) -> None:
        """Stop PWM and release every pin (GPIO.cleanup())."""
        ...
