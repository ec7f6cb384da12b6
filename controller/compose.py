"""The composition root: the only place (besides the CLI edge) that builds concrete firmware_bridge and hardware
objects, choosing real or fake explicitly from config or flags (never by catching ImportError).

Owns: loading the hardware settings, building the GPIO backend the config names, opening the GRBL gantry on a
port, the gantry restart used by recovery (soft reset or reconnect, then home), and an executor wired to them.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from controller.planning.executor import AskHuman, Executor, Interruption
from controller.planning.model import Transfer
from controller.planning.state import PhysicalState
from hardware.devices import DeviceHandlers, Devices, build_devices
from hardware.geometry import Side
from hardware.gpio_backend import GpioBackend
from hardware.gpio_settings import GpioBackendKind, GpioSettings
from hardware.settings import HardwareSettings, load_settings

if TYPE_CHECKING:
    from firmware_bridge.gantry import GrblGantry
    from firmware_bridge.link import LinkTimings


class MonotonicClock:
    """The real clock (time.monotonic)."""

    def now(self) -> float:
        """Monotonic seconds."""
        return time.monotonic()


def hardware_settings(config: Path | None) -> HardwareSettings:
    """The [gantry]/[board]/[stands]/[gpio] settings of `config`, or the documented default when None."""
    return load_settings(config)


def gpio_backend(settings: GpioSettings, clock: MonotonicClock | None = None) -> GpioBackend:
    """The backend the config names: the recording fake or the RPi.GPIO API."""
    if settings.backend is GpioBackendKind.FAKE:
        from hardware.gpio_fake import FakeGpio

        return FakeGpio(clock or MonotonicClock())
    from hardware.gpio_rpi import RpiGpio

    return RpiGpio()


class Holdable(Protocol):
    """What the emergency stop needs from the gantry: a real-time feed hold."""

    def hold(self) -> None:
        """Decelerate and stop at once (GRBL `!`)."""
        ...


def panel(
    backend: GpioBackend,
    settings: GpioSettings,
    gantry: Holdable,
    *,
    on_move_done: Callable[[Side], None],
    on_clock: Callable[[Side], None],
) -> Devices:
    """The GPIO devices, with the emergency stop wired to feed hold and to releasing every Pi-driven output.

    An M8 (firmware) magnet is not switched off here: GRBL runs M9 only after the held motion, so the gantry
    stays in Hold with the piece held until a person decides (a reset would drop it where it is).
    """
    holder: list[Devices] = []

    def emergency_stop() -> None:
        with contextlib.suppress(Exception):  # the e-stop must reach the outputs even if the link is dead
            gantry.hold()
        for device in holder:
            device.all_off()

    handlers = DeviceHandlers(on_move_done=on_move_done, on_clock=on_clock, on_emergency_stop=emergency_stop)
    devices = build_devices(backend, settings, handlers)
    holder.append(devices)
    return devices


def firmware_faults() -> tuple[type[BaseException], ...]:
    """The exception types that mean "the firmware link failed" (what the executor stops on)."""
    from firmware_bridge.errors import FirmwareBridgeError

    return (FirmwareBridgeError,)


def open_gantry(
    port: str,
    settings: HardwareSettings,
    *,
    link_timings: LinkTimings | None = None,
    motion_timeout_s: float = 60.0,
    expect_reset: bool = True,
) -> GrblGantry:
    """Open the GRBL gantry on a device path (e.g. what `shogi-robot sim grbl` prints) or a pyserial URL."""
    from firmware_bridge.gantry import GantryTimings, GrblGantry

    timings = GantryTimings(
        motion_timeout_s=motion_timeout_s,
        homing_timeout_s=max(motion_timeout_s, 10.0),
        grip_dwell_s=settings.motion.grip_dwell_s,
        release_dwell_s=settings.motion.release_dwell_s,
    )
    return GrblGantry.open(port, timings=timings, link_timings=link_timings, expect_reset=expect_reset)


@dataclass
class GantryRestart:
    """Brings the machine back after a fault: soft reset (or reopen when the link is gone), release the gripper
    (a piece under the head stays where it rests), then home.

    `reopen` opens a fresh gantry (same port, or a new device after a USB replug) when the old link is unusable.
    """

    gantry: GrblGantry
    reopen: Callable[[], GrblGantry]

    def __call__(self, interruption: Interruption) -> GrblGantry:
        """Reset or reconnect, then home; returns the gantry to use."""
        from firmware_bridge.errors import FirmwareBridgeError

        try:
            self.gantry.reset()
        except FirmwareBridgeError:
            with contextlib.suppress(OSError, FirmwareBridgeError):
                self.gantry.close()
            self.gantry = self.reopen()
        self.gantry.release()
        self.gantry.home()
        return self.gantry


def executor(
    gantry: GrblGantry,
    settings: HardwareSettings,
    state: PhysicalState,
    *,
    ask_human: AskHuman,
    on_transfer: Callable[[int, Transfer], None] | None = None,
) -> Executor:
    """An executor on the GRBL gantry with the configured geometry (no rotator: the gantry has no yaw axis)."""
    return Executor(
        gantry,
        settings.geometry,
        state,
        ask_human=ask_human,
        fault_types=firmware_faults(),
        on_transfer=on_transfer,
    )
