"""The exceptions of the firmware bridge: one base, one subclass per fault kind, each carrying its context.

Owns: FirmwareBridgeError and its subclasses. A gantry attaches a `HeadSnapshot` (last confirmed position,
whether the gripper is believed on) to any error it lets through, so the controller knows where the piece is.
"""

from __future__ import annotations

from dataclasses import dataclass

from firmware_bridge.codes import alarm_meaning, alarm_requires_homing, error_meaning


@dataclass(frozen=True)
class Position:
    """A point in machine coordinates, millimetres."""

    x_mm: float
    y_mm: float
    z_mm: float


@dataclass(frozen=True)
class HeadSnapshot:
    """What the host knows about the head at the moment of a fault (or at any time).

    `confirmed_position` was reported by the controller while Idle; `last_reported_position` is the latest
    status report (maybe mid-move); `target` the last queued destination. `gripper_on` is None when a grip or
    release command was sent but never acknowledged (state unknown). `position_trusted` is False after a
    reset in motion, a hard-limit alarm or a lost connection: the machine must be re-homed.
    """

    confirmed_position: Position | None
    last_reported_position: Position | None
    target: Position | None
    gripper_on: bool | None
    position_trusted: bool
    interrupted_line: str | None


class FirmwareBridgeError(Exception):
    """Base of every firmware-bridge failure. `snapshot` is filled in by the gantry when it knows the head."""

    def __init__(self, message: str, line: str | None = None) -> None:
        super().__init__(message)
        self.line = line
        """The line in flight when the fault happened; None if none (e.g. a reset noticed before writing)."""
        self.snapshot: HeadSnapshot | None = None

    def __str__(self) -> str:
        text = super().__str__()
        if self.line is not None:
            text += f" (line {self.line!r})"
        return text


class ConnectionLost(FirmwareBridgeError):  # noqa: N818 (names fixed by the project's API)
    """The serial port vanished or failed (USB unplugged, device closed); the link is unusable."""


class NoResponse(FirmwareBridgeError):  # noqa: N818 (names fixed by the project's API)
    """The controller did not answer within the timeout."""

    def __init__(self, message: str, line: str | None = None, timeout_s: float = 0.0) -> None:
        super().__init__(message, line)
        self.timeout_s = timeout_s


class GrblError(FirmwareBridgeError):
    """The controller rejected a line with `error:N` (the line was not executed)."""

    def __init__(self, code: int, line: str | None = None) -> None:
        super().__init__(f"error:{code} {error_meaning(code)}", line)
        self.code = code


class GrblAlarm(FirmwareBridgeError):  # noqa: N818 (names fixed by the project's API)
    """The controller is in alarm `ALARM:N`; motion stopped. `requires_homing` says `$H` (True) or `$X`."""

    def __init__(self, code: int, line: str | None = None) -> None:
        super().__init__(f"ALARM:{code} {alarm_meaning(code)}", line)
        self.code = code
        self.requires_homing = alarm_requires_homing(code)


class ControllerReset(FirmwareBridgeError):  # noqa: N818 (names fixed by the project's API)
    """A start-up banner arrived mid-session: the controller re-initialised and forgot its queue."""

    def __init__(self, banner: str, line: str | None = None) -> None:
        super().__init__(f"controller reset (banner {banner!r})", line)
        self.banner = banner


class GcodeError(FirmwareBridgeError, ValueError):
    """A G-code line could not be built (too long, forbidden character, non-finite number)."""
