"""Devices on top of a GpioBackend: gripper output, servos, debounced buttons, status LEDs, emergency stop.

Owns: the small device classes and `build_devices`, which makes every device the [gpio] section configures.
What a button or the emergency stop *does* is not decided here: the composition root passes callbacks (the
e-stop handler, for instance, triggers the gantry's feed hold and releases every gripper).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from hardware.geometry import Side
from hardware.gpio_backend import Edge, GpioBackend
from hardware.gpio_settings import GpioSettings

SERVO_HZ = 50.0
"""Hobby servos expect a 50 Hz frame."""


class Output:
    """A digital output (gripper magnet or pump relay, LED), with its active level."""

    def __init__(self, backend: GpioBackend, pin: int, active_high: bool = True) -> None:
        self._backend, self.pin, self._active_high = backend, pin, active_high
        self._on = False
        backend.setup_output(pin, initial=not active_high)

    @property
    def is_on(self) -> bool:
        """Whether the device is energised."""
        return self._on

    def on(self) -> None:
        """Energise."""
        self._backend.write(self.pin, self._active_high)
        self._on = True

    def off(self) -> None:
        """De-energise."""
        self._backend.write(self.pin, not self._active_high)
        self._on = False


class Servo:
    """An RC servo on a PWM pin: 0..180 degrees mapped to 0.5..2.5 ms pulses (2.5..12.5 % at 50 Hz)."""

    def __init__(self, backend: GpioBackend, pin: int, initial_deg: float) -> None:
        self._backend, self.pin = backend, pin
        self.angle_deg = initial_deg
        backend.setup_output(pin, initial=False)
        backend.start_pwm(pin, SERVO_HZ, self.duty_for(initial_deg))

    @staticmethod
    def duty_for(angle_deg: float) -> float:
        """PWM duty (percent) for an angle."""
        if not 0.0 <= angle_deg <= 180.0:
            raise ValueError(f"servo angle {angle_deg} outside 0..180 degrees")
        return 2.5 + angle_deg / 18.0

    def move_to(self, angle_deg: float) -> None:
        """Command an angle."""
        self._backend.set_pwm_duty(self.pin, self.duty_for(angle_deg))
        self.angle_deg = angle_deg


class LiftServo:
    """A servo-driven lifting head with two positions."""

    def __init__(self, servo: Servo, up_deg: float, down_deg: float) -> None:
        self._servo, self._up, self._down = servo, up_deg, down_deg

    def up(self) -> None:
        """Raise the head to travel height."""
        self._servo.move_to(self._up)

    def down(self) -> None:
        """Lower the head to pick height."""
        self._servo.move_to(self._down)


class Button:
    """A push button to ground with the internal pull-up; `on_press` runs once per debounced press."""

    def __init__(self, backend: GpioBackend, pin: int, bouncetime_ms: int, on_press: Callable[[], None]) -> None:
        self._backend, self.pin = backend, pin
        backend.setup_input(pin, pull_up=True)
        backend.add_edge_callback(pin, Edge.FALLING, lambda _pin: on_press(), bouncetime_ms)

    @property
    def is_pressed(self) -> bool:
        """True while held down (the input is low)."""
        return not self._backend.read(self.pin)


class EmergencyStop:
    """The e-stop input: on the tripping edge it calls `on_trip` (wired to feed hold + release everything)."""

    def __init__(self, backend: GpioBackend, pin: int, active_low: bool, on_trip: Callable[[], None]) -> None:
        self._backend, self.pin, self._active_low = backend, pin, active_low
        self.trip_count = 0
        backend.setup_input(pin, pull_up=active_low)
        edge = Edge.FALLING if active_low else Edge.RISING

        def handle(_pin: int) -> None:
            self.trip_count += 1
            on_trip()

        backend.add_edge_callback(pin, edge, handle, 20)

    @property
    def is_tripped(self) -> bool:
        """True while the e-stop input is at its active level."""
        return self._backend.read(self.pin) != self._active_low


@dataclass(frozen=True)
class DeviceHandlers:
    """What the composition root wants done when an input fires."""

    on_move_done: Callable[[Side], None]
    on_clock: Callable[[Side], None]
    on_emergency_stop: Callable[[], None]


@dataclass(frozen=True)
class Devices:
    """Every configured device (None when its pin is not configured)."""

    gripper: Output | None
    lift: LiftServo | None
    yaw: Servo | None
    move_done: dict[Side, Button]
    clock: dict[Side, Button]
    leds: dict[str, Output]
    estop: EmergencyStop | None

    def all_off(self) -> None:
        """De-energise every output the Pi drives (gripper, LEDs except the error LED, which goes on)."""
        if self.gripper is not None:
            self.gripper.off()
        for name, led in self.leds.items():
            if name == "error":
                led.on()
            else:
                led.off()


def build_devices(backend: GpioBackend, cfg: GpioSettings, handlers: DeviceHandlers) -> Devices:
    """Set up every pin the config names, on `backend`."""
    bounce = cfg.button_bouncetime_ms

    def buttons(pins: dict[Side, int | None], action: Callable[[Side], None]) -> dict[Side, Button]:
        return {
            side: Button(backend, pin, bounce, lambda side=side: action(side))  # type: ignore[misc]
            for side, pin in pins.items()
            if pin is not None
        }

    leds = {"ready": cfg.led_ready_pin, "busy": cfg.led_busy_pin, "error": cfg.led_error_pin}
    return Devices(
        gripper=None if cfg.gripper_pin is None else Output(backend, cfg.gripper_pin, cfg.gripper_active_high),
        lift=None
        if cfg.lift_servo_pin is None
        else LiftServo(
            Servo(backend, cfg.lift_servo_pin, cfg.lift_servo_up_deg), cfg.lift_servo_up_deg, cfg.lift_servo_down_deg
        ),
        yaw=None if cfg.yaw_servo_pin is None else Servo(backend, cfg.yaw_servo_pin, 0.0),
        move_done=buttons(
            {Side.BLACK: cfg.move_done_black_pin, Side.WHITE: cfg.move_done_white_pin}, handlers.on_move_done
        ),
        clock=buttons({Side.BLACK: cfg.clock_black_pin, Side.WHITE: cfg.clock_white_pin}, handlers.on_clock),
        leds={name: Output(backend, pin) for name, pin in leds.items() if pin is not None},
        estop=None
        if cfg.estop_pin is None
        else EmergencyStop(backend, cfg.estop_pin, cfg.estop_active_low, handlers.on_emergency_stop),
    )
