"""The real GPIO backend: the RPi.GPIO API (provided by RPi.GPIO on a Pi 4, by rpi-lgpio on a Pi 5).

Owns: RpiGpio, the only place that imports `RPi.GPIO`. The import happens when the backend is constructed (the
composition root does so only when the config says `backend = "rpi"`); a missing module is reported as a
GpioError that says which package to install, never answered by falling back to the fake.
Pins are BCM numbers.
"""

from __future__ import annotations

import importlib
from typing import Any

from hardware.errors import GpioError
from hardware.gpio_backend import Edge, EdgeCallback


class RpiGpio:
    """GpioBackend over the RPi.GPIO module."""

    def __init__(self) -> None:
        try:
            self._gpio: Any = importlib.import_module("RPi.GPIO")
        except ImportError as exc:
            raise GpioError(
                "the config selects the real GPIO backend but RPi.GPIO is not importable: install "
                '`rpi-lgpio` (Pi 5) or `RPi.GPIO` (Pi 4 and older), or set [gpio] backend = "fake"'
            ) from exc
        self._gpio.setmode(self._gpio.BCM)
        self._gpio.setwarnings(False)
        self._pwm: dict[int, Any] = {}

    def setup_output(self, pin: int, initial: bool) -> None:
        """GPIO.setup(pin, OUT, initial)."""
        self._gpio.setup(pin, self._gpio.OUT, initial=self._gpio.HIGH if initial else self._gpio.LOW)

    def setup_input(self, pin: int, pull_up: bool) -> None:
        """GPIO.setup(pin, IN, pull_up_down)."""
        pud = self._gpio.PUD_UP if pull_up else self._gpio.PUD_DOWN
        self._gpio.setup(pin, self._gpio.IN, pull_up_down=pud)

    def write(self, pin: int, level: bool) -> None:
        """GPIO.output."""
        self._gpio.output(pin, self._gpio.HIGH if level else self._gpio.LOW)

    def read(self, pin: int) -> bool:
        """GPIO.input."""
        return bool(self._gpio.input(pin))

    def add_edge_callback(self, pin: int, edge: Edge, callback: EdgeCallback, bouncetime_ms: int) -> None:
        """GPIO.add_event_detect with a callback and a bouncetime."""
        edges = {Edge.FALLING: self._gpio.FALLING, Edge.RISING: self._gpio.RISING, Edge.BOTH: self._gpio.BOTH}
        self._gpio.add_event_detect(pin, edges[edge], callback=callback, bouncetime=bouncetime_ms)

    def start_pwm(self, pin: int, frequency_hz: float, duty_percent: float) -> None:
        """GPIO.PWM(pin, frequency).start(duty)."""
        pwm = self._gpio.PWM(pin, frequency_hz)
        pwm.start(duty_percent)
        self._pwm[pin] = pwm

    def set_pwm_duty(self, pin: int, duty_percent: float) -> None:
        """ChangeDutyCycle on a started PWM."""
        if pin not in self._pwm:
            raise GpioError(f"pin {pin} has no PWM started")
        self._pwm[pin].ChangeDutyCycle(duty_percent)

    def cleanup(self) -> None:
        """Stop every PWM and GPIO.cleanup()."""
        for pwm in self._pwm.values():
            pwm.stop()
        self._pwm.clear()
        self._gpio.cleanup()
