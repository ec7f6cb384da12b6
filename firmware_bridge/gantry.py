"""`GrblGantry`: the gantry API in millimetres over a `GrblLink`; structurally a `controller.ports.Gantry`.

Owns: the command sequences (home = `$H` then `G90 G21`; a move = `G0`; wait_idle = `G4 P0.01` whose `ok`
only comes once motion has stopped, then `?` to confirm Idle and read the position; grip/release = M8/M9,
which GRBL itself synchronises with motion, or an injected callable such as a GPIO pin driven after a sync),
and what the host knows about the head: the last position confirmed at Idle, the last reported one, the
target, whether the gripper is on (None = a grip/release was sent and never acknowledged) and whether machine
coordinates are still trusted. Every fault that escapes carries that `HeadSnapshot`. Never retries: after a
fault the caller decides (`reset()`, then `unlock()` or `home()` as `GrblAlarm.requires_homing` says).
Note: GRBL's reset and alarms switch the coolant (M8) off, so an M8 magnet drops its piece on any alarm or
reset; a host-driven gripper stays as the host left it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from firmware_bridge import gcode
from firmware_bridge.errors import (
    ConnectionLost,
    ControllerReset,
    FirmwareBridgeError,
    GrblAlarm,
    HeadSnapshot,
    NoResponse,
    Position,
)
from firmware_bridge.link import Clock, GrblLink, LinkState, LinkTimings, ResetResult
from firmware_bridge.protocol import (
    CYCLE_RESUME,
    FEED_HOLD,
    Banner,
    MachineState,
    PushMessage,
    Setting,
    StatusReport,
)


@dataclass(frozen=True)
class GantryTimings:
    """Timeouts and dwells, seconds."""

    motion_timeout_s: float = 60.0
    """Longest wait for queued motion to finish (G4/M8/M9 answered after it)."""
    homing_timeout_s: float = 90.0
    grip_dwell_s: float = 0.15
    """Dwell after switching the magnet on (field or vacuum builds up)."""
    release_dwell_s: float = 0.15
    """Dwell after switching it off (the piece lets go) before the head moves."""


class GrblGantry:
    """A GRBL-driven XY gantry with a lifting Z axis and a gripper."""

    def __init__(
        self,
        link: GrblLink,
        timings: GantryTimings | None = None,
        gripper: Callable[[bool], None] | None = None,
    ) -> None:
        self.link = link
        self.timings = timings if timings is not None else GantryTimings()
        self._gripper = gripper
        self._confirmed: Position | None = None
        self._reported: Position | None = None
        self._target: Position | None = None
        self._gripper_on: bool | None = False
        self._trusted = False
        self._wco = (0.0, 0.0, 0.0)
        self._interrupted: str | None = None
        link.subscribe(self._on_push)

    @classmethod
    def open(
        cls,
        url: str,
        *,
        timings: GantryTimings | None = None,
        link_timings: LinkTimings | None = None,
        gripper: Callable[[bool], None] | None = None,
        clock: Clock | None = None,
        expect_reset: bool = True,
    ) -> GrblGantry:
        """Open a serial port (device path or pyserial URL), wait for the banner and return the gantry."""
        from firmware_bridge.transport import SerialTransport

        link = GrblLink(SerialTransport(url), clock, link_timings)
        gantry = cls(link, timings, gripper)
        gantry.connect(expect_reset)
        return gantry

    def connect(self, expect_reset: bool = True) -> Banner:
        """Wait for the banner (Uno auto-reset) or soft-reset to get one; position untrusted until homed."""
        with self._guard(None):
            banner = self.link.open(expect_reset)
        self._trusted = False
        return banner

    # ----- motion ---------------------------------------------------------------------------------------------
    def home(self) -> None:
        """`$H` (no status polling: GRBL ignores `?` while homing), then absolute millimetres, then confirm."""
        with self._guard(gcode.HOME):
            self.link.send(gcode.HOME, self.timings.homing_timeout_s)
        self._trusted = True
        for line in (gcode.ABSOLUTE, gcode.MILLIMETRES):
            self._send(line)
        self._confirm_idle()
        self._target = self._confirmed

    def unlock(self) -> None:
        """`$X`: leave the alarm lock without homing (only when the alarm kept the position, e.g. ALARM:2)."""
        self._send(gcode.UNLOCK)

    def move_to(self, x_mm: float, y_mm: float, z_mm: float | None = None) -> None:
        """Queue a rapid move (returns once GRBL has queued it, not when the head arrives)."""
        line = gcode.rapid(x_mm, y_mm, z_mm)
        self._send(line)
        known = self._target or self._reported
        z = z_mm if z_mm is not None else known.z_mm if known is not None else None
        self._target = Position(x_mm, y_mm, z) if z is not None else None

    def wait_idle(self) -> None:
        """Block until every queued motion has finished (`G4 P0.01` + `ok`), then confirm Idle with `?`."""
        self._send(gcode.SYNC, self.timings.motion_timeout_s, poll_status=True)
        self._confirm_idle()

    def grip(self) -> None:
        """Switch the gripper on once motion has stopped, dwell, and confirm where (`position()`)."""
        self._switch(True)

    def release(self) -> None:
        """Switch the gripper off once motion has stopped, dwell, and confirm where (`position()`)."""
        self._switch(False)

    def _switch(self, on: bool) -> None:
        if not on and self.link.state in (LinkState.ALARM_LOCKED, LinkState.ALARM_CRITICAL):
            self._release_in_alarm()
            return
        dwell = self.timings.grip_dwell_s if on else self.timings.release_dwell_s
        if self._gripper is not None:
            self.wait_idle()
            self._gripper(on)
            self._gripper_on = on
        else:
            self._gripper_on = None
            self._send(gcode.COOLANT_ON if on else gcode.COOLANT_OFF, self.timings.motion_timeout_s, True)
            self._gripper_on = on
        self._send(gcode.dwell(dwell), self.timings.motion_timeout_s + dwell, poll_status=True)
        self._confirm_idle()

    def _release_in_alarm(self) -> None:
        """Release while the controller is in alarm: nothing moves and G-code (M9, G4) would get error:9.
        GRBL's alarm/reset already switched M8 off; a host-driven gripper is switched off here, without a dwell."""
        if self._gripper is not None:
            self._gripper(False)
        self._gripper_on = False

    # ----- status and real-time -------------------------------------------------------------------------------
    def status(self) -> StatusReport:
        """Ask for a status report (`?`)."""
        with self._guard(None):
            return self.link.request_status()

    def hold(self) -> None:
        """Feed hold `!`: decelerate and stop; the gripper stays as it is."""
        with self._guard(None):
            self.link.realtime(FEED_HOLD)

    def resume(self) -> None:
        """Cycle start `~`: continue after a hold."""
        with self._guard(None):
            self.link.realtime(CYCLE_RESUME)

    def reset(self) -> ResetResult:
        """Soft reset 0x18: flush the controller; an M8 gripper turns off. Then `unlock()` or `home()`."""
        with self._guard(None):
            result = self.link.soft_reset()
        if self._gripper is None:
            self._gripper_on = False
        if result.alarm_code is not None and GrblAlarm(result.alarm_code).requires_homing:
            self._trusted = False
        self._target = self._reported
        return result

    def settings(self) -> dict[int, float]:
        """`$$`: the controller's numeric settings (e.g. $110-$112 max rates mm/min, $120-$122 mm/s²)."""
        with self._guard(gcode.SETTINGS):
            reply = self.link.send(gcode.SETTINGS)
        values: dict[int, float] = {}
        for item in reply.pushes:
            if isinstance(item, Setting):
                try:
                    values[item.number] = float(item.value)
                except ValueError:
                    continue
        return values

    def position(self) -> Position | None:
        """The last position the controller reported while Idle (None before the first)."""
        return self._confirmed

    def snapshot(self) -> HeadSnapshot:
        """What the host knows about the head now."""
        return HeadSnapshot(
            confirmed_position=self._confirmed,
            last_reported_position=self._reported,
            target=self._target,
            gripper_on=self._gripper_on,
            position_trusted=self._trusted,
            interrupted_line=self._interrupted,
        )

    def close(self) -> None:
        self.link.close()

    # ----- internals ------------------------------------------------------------------------------------------
    def _send(self, line: str, timeout_s: float | None = None, poll_status: bool = False) -> None:
        with self._guard(line):
            self.link.send(line, timeout_s, poll_status)

    def _confirm_idle(self, attempts: int = 3) -> None:
        """Ask `?` until a report says Idle (an answer to an earlier poll may still be on its way)."""
        for _ in range(attempts):
            report = self.status()
            if report.state is MachineState.IDLE:
                self._confirmed = self._reported
                return
        raise self._with_snapshot(NoResponse(f"controller not Idle after a sync but {report.state.value}"))

    def _on_push(self, item: PushMessage) -> None:
        if isinstance(item, StatusReport):
            if item.wco is not None:
                self._wco = item.wco
            self._reported = _machine_position(item, self._wco)

    @contextmanager
    def _guard(self, line: str | None) -> Iterator[None]:
        try:
            yield
        except FirmwareBridgeError as exc:
            self._interrupted = line
            self._absorb(exc)
            raise self._with_snapshot(exc) from None

    def _absorb(self, exc: FirmwareBridgeError) -> None:
        """Update what we believe about the head after a fault."""
        coolant_gripper = self._gripper is None
        if isinstance(exc, GrblAlarm | ControllerReset):
            if coolant_gripper:
                self._gripper_on = False
            if isinstance(exc, ControllerReset) or exc.requires_homing:
                self._trusted = False
        elif isinstance(exc, ConnectionLost):
            self._trusted = False
            if coolant_gripper:
                self._gripper_on = None

    def _with_snapshot(self, exc: FirmwareBridgeError) -> FirmwareBridgeError:
        exc.snapshot = self.snapshot()
        return exc


def _machine_position(report: StatusReport, wco: tuple[float, float, float]) -> Position | None:
    if report.mpos is not None:
        return Position(*report.mpos)
    if report.wpos is not None:
        return Position(*(w + o for w, o in zip(report.wpos, wco, strict=True)))
    return None
