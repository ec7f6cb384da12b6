"""Devices on the fake backend: gripper output, servos, debounced buttons per player, LEDs, emergency stop."""

from __future__ import annotations

import dataclasses

import pytest

from hardware.devices import DeviceHandlers, Output, Servo, build_devices
from hardware.geometry import Side
from hardware.gpio_fake import FakeGpio
from hardware.settings import load_settings


class ManualClock:
    def __init__(self) -> None:
        self.t = 0.0

    def now(self) -> float:
        return self.t


def _devices(**overrides: object) -> tuple[FakeGpio, dict[str, list[object]], ManualClock]:
    clock = ManualClock()
    gpio = FakeGpio(clock)
    cfg = dataclasses.replace(load_settings(None).gpio, **overrides)
    calls: dict[str, list[object]] = {"done": [], "clock": [], "estop": []}
    handlers = DeviceHandlers(
        on_move_done=calls["done"].append,
        on_clock=calls["clock"].append,
        on_emergency_stop=lambda: calls["estop"].append(True),
    )
    build_devices(gpio, cfg, handlers)
    return gpio, calls, clock


def test_move_done_buttons_report_their_player() -> None:
    """Each player's move-done button calls the handler with that player's side."""
    gpio, calls, _ = _devices()
    gpio.press(5)
    gpio.release(5)
    gpio.press(6)
    assert calls["done"] == [Side.BLACK, Side.WHITE]


def test_clock_button_is_debounced() -> None:
    """Contact bounce on the clock button gives one press."""
    gpio, calls, clock = _devices()
    for t in (0.0, 0.005, 0.012):
        clock.t = t
        gpio.press(13)
        gpio.release(13)
    assert calls["clock"] == [Side.BLACK]


def test_emergency_stop_calls_its_handler() -> None:
    """Pulling the active-low e-stop input low triggers the wired handler (feed hold + release all)."""
    gpio, calls, _ = _devices()
    gpio.press(26)
    assert calls["estop"] == [True]


def test_active_low_gripper_drives_low_when_on() -> None:
    """An active-low relay idles high and goes low when the gripper is switched on."""
    gpio = FakeGpio(ManualClock())
    gripper = Output(gpio, 23, active_high=False)
    gripper.on()
    gripper.off()
    assert [level for _, level in gpio.level_history(23)] == [True, False, True]
    assert gripper.is_on is False


def test_servo_maps_angles_to_duty() -> None:
    """0 and 180 degrees are 2.5 % and 12.5 % duty at 50 Hz; angles beyond are refused."""
    gpio = FakeGpio(ManualClock())
    servo = Servo(gpio, 18, 0.0)
    servo.move_to(180.0)
    assert [w.duty_percent for w in gpio.writes if w.duty_percent is not None] == [2.5, 12.5]
    with pytest.raises(ValueError, match="outside"):
        servo.move_to(190.0)


def test_lift_servo_moves_between_its_two_angles() -> None:
    """A configured lift servo starts up and goes to the down angle when lowered."""
    clock = ManualClock()
    gpio = FakeGpio(clock)
    cfg = dataclasses.replace(load_settings(None).gpio, lift_servo_pin=18, lift_servo_down_deg=30.0)
    handlers = DeviceHandlers(lambda _s: None, lambda _s: None, lambda: None)
    devices = build_devices(gpio, cfg, handlers)
    assert devices.lift is not None
    devices.lift.down()
    duties = [w.duty_percent for w in gpio.writes if w.duty_percent is not None]
    assert duties == [Servo.duty_for(90.0), Servo.duty_for(30.0)]
