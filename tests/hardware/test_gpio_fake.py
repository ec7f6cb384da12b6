"""The recording fake GPIO backend: timestamps from the injected clock, button presses, bounce filtering."""

from __future__ import annotations

import pytest

from hardware.errors import GpioError
from hardware.gpio_backend import Edge
from hardware.gpio_fake import FakeGpio, Write


class ManualClock:
    def __init__(self) -> None:
        self.t = 0.0

    def now(self) -> float:
        return self.t


def test_writes_are_recorded_with_the_injected_clock() -> None:
    """Every output change is kept with the time the clock gave at that moment."""
    clock = ManualClock()
    gpio = FakeGpio(clock)
    gpio.setup_output(4, initial=False)
    clock.t = 1.5
    gpio.write(4, True)
    assert gpio.writes == [Write(0.0, 4, level=False), Write(1.5, 4, level=True)]
    assert gpio.level_history(4) == [(0.0, False), (1.5, True)]


def test_press_fires_a_falling_edge_callback_once() -> None:
    """Pressing a pulled-up button drives it low and calls the falling-edge callback with the pin."""
    gpio = FakeGpio(ManualClock())
    gpio.setup_input(5, pull_up=True)
    seen: list[int] = []
    gpio.add_edge_callback(5, Edge.FALLING, seen.append, bouncetime_ms=50)
    gpio.press(5)
    gpio.release(5)
    assert seen == [5]
    assert gpio.read(5) is True


def test_edges_inside_the_bouncetime_are_ignored() -> None:
    """A second press 10 ms after the first is contact bounce; one 60 ms later counts."""
    clock = ManualClock()
    gpio = FakeGpio(clock)
    gpio.setup_input(5, pull_up=True)
    seen: list[float] = []
    gpio.add_edge_callback(5, Edge.FALLING, lambda _pin: seen.append(clock.t), bouncetime_ms=50)
    for t in (0.0, 0.010, 0.060):
        clock.t = t
        gpio.press(5)
        gpio.release(5)
    assert seen == [0.0, 0.060]


def test_writing_an_input_is_an_error() -> None:
    """Inputs cannot be driven by the program; the error names the pin."""
    gpio = FakeGpio(ManualClock())
    gpio.setup_input(6, pull_up=True)
    with pytest.raises(GpioError, match="pin 6"):
        gpio.write(6, True)


def test_unset_pin_is_an_error() -> None:
    """Reading a pin that was never set up is refused."""
    with pytest.raises(GpioError, match="not set up"):
        FakeGpio(ManualClock()).read(3)


def test_pwm_duty_changes_are_recorded() -> None:
    """Starting PWM and changing its duty are both recorded."""
    gpio = FakeGpio(ManualClock())
    gpio.setup_output(18, initial=False)
    gpio.start_pwm(18, 50.0, 7.5)
    gpio.set_pwm_duty(18, 12.5)
    assert [w.duty_percent for w in gpio.writes if w.duty_percent is not None] == [7.5, 12.5]
