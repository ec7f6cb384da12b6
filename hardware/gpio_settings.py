"""The [gpio] section: which backend drives the pins, and the BCM pin of every device.

Owns: GpioSettings and its validation (BCM pins 0..27, no pin used twice, backend chosen explicitly).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, fields

from hardware.config import Section
from hardware.errors import ConfigError


class GpioBackendKind(enum.StrEnum):
    """Which GPIO backend to build: chosen by config, never by probing imports."""

    FAKE = "fake"
    """The recording fake (simulation, tests, a desk without a Pi)."""
    RPI = "rpi"
    """The RPi.GPIO API (RPi.GPIO on a Pi 4, rpi-lgpio on a Pi 5)."""


@dataclass(frozen=True)
class GpioSettings:
    """BCM pin numbers (None = device absent) and device options.

    The gripper pin is None when the firmware switches the magnet (GRBL M8/M9).
    Buttons are wired to ground with the internal pull-up (pressed = low).
    """

    backend: GpioBackendKind
    gripper_pin: int | None
    gripper_active_high: bool
    lift_servo_pin: int | None
    lift_servo_up_deg: float
    lift_servo_down_deg: float
    yaw_servo_pin: int | None
    move_done_black_pin: int | None
    move_done_white_pin: int | None
    clock_black_pin: int | None
    clock_white_pin: int | None
    button_bouncetime_ms: int
    led_ready_pin: int | None
    led_busy_pin: int | None
    led_error_pin: int | None
    estop_pin: int | None
    estop_active_low: bool

    def used_pins(self) -> dict[str, int]:
        """Key name to pin, for every configured pin."""
        return {
            f.name: value
            for f in fields(self)
            if f.name.endswith("_pin") and isinstance(value := getattr(self, f.name), int)
        }


_PIN_KEYS = (
    "gripper_pin",
    "lift_servo_pin",
    "yaw_servo_pin",
    "move_done_black_pin",
    "move_done_white_pin",
    "clock_black_pin",
    "clock_white_pin",
    "led_ready_pin",
    "led_busy_pin",
    "led_error_pin",
    "estop_pin",
)


def read_gpio(s: Section) -> GpioSettings:
    """Read the [gpio] section (the caller calls `s.finish()`)."""
    backend = GpioBackendKind(s.string("backend", choices=[k.value for k in GpioBackendKind]))
    pins = {key: s.optional_integer(key, low=0, high=27) for key in _PIN_KEYS}
    settings = GpioSettings(
        backend=backend,
        gripper_active_high=s.boolean("gripper_active_high", default=True),
        lift_servo_up_deg=s.number("lift_servo_up_deg", default=90.0, low=0.0, high=180.0),
        lift_servo_down_deg=s.number("lift_servo_down_deg", default=0.0, low=0.0, high=180.0),
        button_bouncetime_ms=s.integer("button_bouncetime_ms", default=50, low=1, high=1000),
        estop_active_low=s.boolean("estop_active_low", default=True),
        **pins,
    )
    seen: dict[int, str] = {}
    for key, pin in settings.used_pins().items():
        if pin in seen:
            raise ConfigError(s.name, key, f"pin {pin} is already used by {seen[pin]}")
        seen[pin] = key
    return settings
