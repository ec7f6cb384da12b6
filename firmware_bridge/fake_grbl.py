"""A byte-level emulator of GRBL 1.1h driving a gantry, on an injected clock (every call passes `now`).

Owns: the controller's behaviour as a host sees it through the serial line: the 128-byte RX ring that drops
bytes when full (as the AVR ISR does); real-time bytes `?` `!` `~` 0x18 0x85 intercepted before the ring;
lines ended by `\\r` or `\\n` (so CRLF gives two `ok`s); `ok`/`error:N`; the planner (15 blocks, trapezoidal
motion from `$110-$122`); synchronised M8/M9/M3/M5/G4 (answered once motion has stopped); `$$` `$I` `$G`
`$H` `$X` `$N=value` `$J=` (error:15 beyond travel); alarms (ALARM:2 soft limit and injected ALARM:1 are
critical: nothing, not even `?`, is answered until 0x18); the banner on power-on/reset with the `$H`/`$X`
lock; injected faults (`FaultConfig`); and a log of what the head did (`HeadEvent`). Not emulated: `$#`,
`$N`, `$C`, `$SLP`, `$RST` (answered error:3), work offsets (WCO is always 0), overrides, limit switches.
Transport-free: `fake_server` serves it on a pty, `fake_transport` in process.
"""

from __future__ import annotations

import enum
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from firmware_bridge import fake_reports as text
from firmware_bridge.fake_config import FakeGrblConfig, FaultKind, Flavour, HeadEvent, HeadEventKind
from firmware_bridge.fake_faults import FaultSchedule
from firmware_bridge.fake_gcode import Block, LineError, Modal, beyond_travel, clean, parse_block, parse_setting
from firmware_bridge.fake_motion import Block as PlannedBlock
from firmware_bridge.fake_motion import Limits, Planner, Vec

_CRITICAL_ALARMS = frozenset({1, 2})
_JOG_CANCEL = 0x85


class DeviceState(enum.Enum):
    """The emulator's top-level state."""

    BOOTING = "booting"
    READY = "ready"
    HOMING = "homing"
    ALARM = "alarm"
    CRITICAL = "critical"
    DEAD = "dead"


@dataclass(frozen=True)
class _Wait:
    """What a running line waits for: the planner empty, a free planner block, or a time."""

    empty: bool = False
    space: bool = False
    until: float | None = None


class FakeGrbl:
    """The emulated controller. Feed it bytes with `receive`, move time with `advance`, collect `take_output`."""

    def __init__(self, config: FakeGrblConfig, now: float, on_event: Callable[[HeadEvent], None] | None = None) -> None:
        self.config = config
        self.settings = config.merged_settings()
        self.events: list[HeadEvent] = []
        self.lines_received = 0
        self.dropped_bytes = 0
        self._on_event = on_event
        self._faults = FaultSchedule(config.faults)
        self._planner = Planner((0.0, 0.0, 0.0))
        self._offset: Vec = (0.0, 0.0, 0.0)
        self._modal = Modal()
        self._jogging = False
        self._ring = bytearray()
        self._after_cr = False
        self._out: deque[tuple[float, bytes]] = deque()
        self._last_due = now
        self._job: Iterator[_Wait] | None = None
        self._wait = _Wait()
        self._now = now
        self._status_count = 0
        self._state = DeviceState.BOOTING
        self._boot_until = now
        self._locked = False
        self._reboot(now, "power-on")

    # ----- public surface -------------------------------------------------------------------------------------
    @property
    def state(self) -> DeviceState:
        return self._state

    @property
    def gripping(self) -> bool:
        """Flood coolant (M8) on: the magnet holds."""
        return self._modal.coolant

    @property
    def disconnected(self) -> bool:
        """True once an injected disconnect fired: the server must close the port."""
        return self._state is DeviceState.DEAD

    def quiescent(self) -> bool:
        """True when nothing will happen until the host sends something (no motion, wait, fault or output)."""
        return (
            self._state is not DeviceState.BOOTING
            and self._planner.is_empty()
            and self._job is None
            and not self._faults.pending()
            and not self._out
        )

    def next_change(self) -> float | None:
        """The earliest time at which the device may act by itself (a block or wait ending, a fault, due output,
        the end of booting); None when it waits for the host. Lets a simulated clock jump ahead exactly."""
        planner, times = self._planner, [self._faults.next_due()]
        if self._state is DeviceState.BOOTING:
            times.append(self._boot_until)
        if self._out:
            times.append(self._out[0][0])
        if planner.current is not None:
            times.append(planner.current.t0 + planner.current.duration)
        elif planner.queue and not planner.held:
            times.append(self._now)
        if self._job is not None and self._wait.until is not None:
            times.append(self._wait.until)
        return min((t for t in times if t is not None), default=None)

    def physical_position(self) -> Vec:
        """Where the head really is (homed frame), whatever the controller believes."""
        return self._planner.position(self._now)

    def reported_position(self) -> Vec:
        """What MPos says."""
        p = self.physical_position()
        return (p[0] + self._offset[0], p[1] + self._offset[1], p[2] + self._offset[2])

    def power_cycle(self, now: float) -> None:
        """A hard reset (Arduino DTR auto-reset on port open, or power): reboots after the boot delay. A boot in
        progress starts again and its banner never comes, so the host sees exactly one banner after opening the
        port even when it opens just as an earlier boot ends (finishing that boot first sent two: the second was
        taken for an unexpected reset, a rare CI failure)."""
        if self._state is not DeviceState.BOOTING:
            self.advance(now)
        self._now = max(now, self._now)
        self._stop_everything(now, "power-cycle")
        self._reboot(now, "power-cycle")

    def receive(self, data: bytes, now: float) -> None:
        """Bytes arriving from the host, in order, all at time `now`."""
        self.advance(now)
        for byte in data:
            if self._state in (DeviceState.DEAD, DeviceState.BOOTING):
                continue
            if byte in b"?!~\x18" or byte == _JOG_CANCEL:
                self._realtime(byte, now)
            elif byte > 0x7F:
                continue
            elif len(self._ring) >= self.config.rx_buffer_bytes:
                self.dropped_bytes += 1
            else:
                self._ring.append(byte)
                if byte in b"\r\n":
                    self._drain(now)

    def advance(self, now: float) -> None:
        """Move the emulation forward to `now`: boot, scheduled faults, motion, waiting lines."""
        self._now = max(now, self._now)
        if self._state is DeviceState.DEAD:
            return
        if self._state is DeviceState.BOOTING and now >= self._boot_until:
            self._finish_boot(now)
        for due, kind in self._faults.take_due(now):
            self._fire(kind, due)
        if self._state in (DeviceState.READY, DeviceState.ALARM):
            limits = self._limits()
            for when, where in self._planner.advance(now, limits):
                self._event(HeadEventKind.MOVE, when, where)
            self._jogging = self._jogging and not self._planner.is_empty()
        self._drain(now)

    def take_output(self, now: float) -> bytes:
        """Everything due to be sent by `now`."""
        out = bytearray()
        while self._out and self._out[0][0] <= now:
            out += self._out.popleft()[1]
        return bytes(out)

    # ----- real-time commands ---------------------------------------------------------------------------------
    def _realtime(self, byte: int, now: float) -> None:
        if byte == 0x18:
            self._soft_reset(now)
        elif self._state in (DeviceState.CRITICAL, DeviceState.HOMING):
            return
        elif byte == ord("?"):
            self._emit(self._status(now), ordered=False)
        elif byte == ord("!") and self._state is DeviceState.READY:
            self._planner.hold(now)
        elif byte == ord("~") and self._planner.held:
            self._planner.resume()
            self.advance(now)
        elif byte == _JOG_CANCEL and self._jogging:
            self._planner.cancel(now)

    def _status(self, now: float) -> bytes:
        planner = self._planner
        if self._state is DeviceState.ALARM:
            word = "Alarm"
        elif planner.held:
            word = "Hold:1" if planner.is_decelerating_to_hold() else "Hold:0"
        else:
            word = "Idle" if planner.is_empty() else "Jog" if self._jogging else "Run"
        self._status_count += 1
        accessories = ("S" if self._modal.spindle in (3, 4) else "") + ("F" if self._modal.coolant else "")
        extras = (planner.free_blocks(), self.config.rx_buffer_bytes - len(self._ring), accessories)
        speed = planner.speed(now) * 60.0
        mask = int(self.settings[10])
        return text.status_report(
            word, self.reported_position(), speed, report_count=self._status_count - 1, mask=mask, extras=extras
        )

    # ----- line processing ------------------------------------------------------------------------------------
    def _drain(self, now: float) -> None:
        while self._state in (DeviceState.READY, DeviceState.ALARM, DeviceState.HOMING):
            if self._job is not None:
                if not self._satisfied(now):
                    return
                try:
                    self._wait = next(self._job)
                    continue
                except StopIteration:
                    self._job = None
            raw = self._pop_line()
            if raw is None:
                return
            self._job = self._line(raw, now)
            self._wait = _Wait()

    def _satisfied(self, now: float) -> bool:
        wait, planner = self._wait, self._planner
        if wait.empty and not planner.is_empty():
            return False
        if wait.space and planner.is_full():
            return False
        return wait.until is None or now >= wait.until

    def _pop_line(self) -> str | None:
        """The next line; grblHAL and FluidNC take CRLF as one line end, GRBL 1.1 as two."""
        if self._after_cr and self._ring[:1] == b"\n" and self.config.flavour is not Flavour.GRBL:
            del self._ring[:1]
        ends = [i for i in (self._ring.find(b"\n"), self._ring.find(b"\r")) if i >= 0]
        if not ends:
            self._after_cr = self._after_cr and not self._ring
            return None
        end = min(ends)
        raw = self._ring[:end].decode("ascii", errors="replace")
        self._after_cr = self._ring[end] == ord("\r")
        del self._ring[: end + 1]
        return raw

    def _line(self, raw: str, now: float) -> Iterator[_Wait]:
        line = clean(raw)
        if not line:
            self._respond(None, "ok")
            return
        self.lines_received += 1
        number = self.lines_received
        self._faults.arm(number, now)
        if len(line) > 79:
            self._respond(number, "error:11")
        elif line.startswith("$"):
            yield from self._system(line, number)
        elif self._state is DeviceState.ALARM:
            self._respond(number, "error:9")
        else:
            try:
                block = parse_block(line)
            except LineError as exc:
                self._respond(number, f"error:{exc.code}")
                return
            yield from self._gcode(block, number)

    # ----- `$` commands ---------------------------------------------------------------------------------------
    def _system(self, line: str, number: int) -> Iterator[_Wait]:
        busy = not self._planner.is_empty()
        if line in ("$$", "$I", "$G", "$H") and busy:
            self._respond(number, "error:8")
        elif line == "$$":
            self._emit(text.settings_dump(self.settings))
            self._respond(number, "ok")
        elif line == "$I":
            self._emit(text.BUILD_INFO)
            self._respond(number, "ok")
        elif line == "$G":
            self._emit(text.parser_state(self._modal))
            self._respond(number, "ok")
        elif line == "$X":
            if self._state is DeviceState.ALARM:
                self._state = DeviceState.READY
                self._locked = False
                self._emit(text.UNLOCKED)
            self._respond(number, "ok")
        elif line == "$H":
            yield from self._home(number)
        elif line.startswith("$J="):
            self._jog(line[3:], number, busy)
        else:
            self._write_setting(line, number)

    def _write_setting(self, line: str, number: int) -> None:
        try:
            key, value = parse_setting(line, self.settings)
        except LineError as exc:
            self._respond(number, f"error:{exc.code}")
            return
        self.settings[key] = value
        self._respond(number, "ok")

    def _jog(self, text_: str, number: int, busy: bool) -> None:
        """`$J=`: only from Idle (or another jog); a target beyond travel is error:15, no alarm."""
        if self._state is not DeviceState.READY or (busy and not self._jogging) or self._planner.is_full():
            self._respond(number, "error:8")
            return
        try:
            target, feed = self._modal.jog(parse_block(text_))
        except LineError as exc:
            self._respond(number, f"error:{exc.code}")
            return
        if beyond_travel(self.settings, target):
            self._respond(number, "error:15")
            return
        self._jogging = True
        self._queue_move(target, feed)
        self._respond(number, "ok")

    def _home(self, number: int) -> Iterator[_Wait]:
        if not self.settings[22]:
            self._respond(number, "error:5")
            return
        self._state = DeviceState.HOMING
        start = self.physical_position()
        seek = max(self.settings[25], 1.0) / 60.0
        yield _Wait(until=self._now + max(abs(v) for v in start) / seek + 0.02)
        self._planner.set_position((0.0, 0.0, 0.0))
        self._offset = (0.0, 0.0, 0.0)
        self._modal.target = (0.0, 0.0, 0.0)
        self._state = DeviceState.READY
        self._locked = False
        self._event(HeadEventKind.HOME, self._now, (0.0, 0.0, 0.0))
        self._respond(number, "ok")

    # ----- G-code ---------------------------------------------------------------------------------------------
    def _gcode(self, block: Block, number: int) -> Iterator[_Wait]:
        try:
            step = self._modal.step(block)
        except LineError as exc:
            self._respond(number, f"error:{exc.code}")
            return
        if step.synchronised:
            yield _Wait(empty=True)
        if step.spindle is not None:
            self._modal.spindle = step.spindle
        if step.coolant is not None:
            self._set_coolant(step.coolant)
        if step.dwell_s is not None:
            yield _Wait(until=self._now + step.dwell_s)
        if step.target is not None:
            if beyond_travel(self.settings, step.target):
                self._fire_alarm(2, self._now)
                return
            while self._planner.is_full():
                yield _Wait(space=True)
            self._queue_move(step.target, step.feed_mm_per_min)
        self._respond(number, "ok")

    def _queue_move(self, target: Vec, feed: float | None) -> None:
        self._modal.target = target
        physical = (target[0] - self._offset[0], target[1] - self._offset[1], target[2] - self._offset[2])
        self._planner.queue.append(PlannedBlock(physical, feed))
        self._planner.advance(self._now, self._limits())

    def _set_coolant(self, on: bool) -> None:
        if on != self._modal.coolant:
            self._modal.coolant = on
            kind = HeadEventKind.GRIP if on else HeadEventKind.RELEASE
            self._event(kind, self._now, self.physical_position())

    # ----- resets, alarms, faults -----------------------------------------------------------------------------
    def _soft_reset(self, now: float) -> None:
        was_moving = self._planner.current is not None
        was_homing = self._state is DeviceState.HOMING
        was_critical = self._state is DeviceState.CRITICAL
        self._stop_everything(now, "soft reset")
        self._reset_modal()
        if was_moving or was_homing:
            code = 6 if was_homing else 3
            self._emit(text.line(f"ALARM:{code}"))
            self._event(HeadEventKind.ALARM, now, self.physical_position(), str(code))
        self._locked = self._locked or was_moving or was_homing or was_critical
        self._event(HeadEventKind.RESET, now, self.physical_position(), "soft reset")
        self._announce()

    def _reboot(self, now: float, reason: str) -> None:
        x, y, z = self.physical_position()
        self._offset = (-x, -y, -z)
        self._reset_modal()
        self._locked = bool(self.settings[22])
        self._state = DeviceState.BOOTING
        self._boot_until = now + self.config.boot_delay_s
        self._event(HeadEventKind.RESET, now, self.physical_position(), reason)

    def _finish_boot(self, now: float) -> None:
        self._now = now
        self._emit(text.BOOT_NOISE[self.config.flavour])
        self._announce()

    def _announce(self) -> None:
        self._state = DeviceState.ALARM if self._locked else DeviceState.READY
        self._emit(text.BANNERS[self.config.flavour])
        if self._locked:
            self._emit(text.UNLOCK_HINT)

    def _stop_everything(self, now: float, why: str) -> None:
        """What mc_reset does: motion stops at once, the coolant (magnet) goes off, queues are flushed."""
        self._planner.stop_now(now)
        self._jogging = False
        if self._modal.coolant:
            self._modal.coolant = False
            self._event(HeadEventKind.RELEASE, now, self.physical_position(), why)
        self._modal.spindle = 5
        self._ring.clear()
        self._job = None
        self._wait = _Wait()
        self._out = deque(item for item in self._out if item[0] <= now)
        self._last_due = now

    def _fire_alarm(self, code: int, now: float) -> None:
        self._stop_everything(now, f"ALARM:{code}")
        self._event(HeadEventKind.ALARM, now, self.physical_position(), str(code))
        self._emit(text.line(f"ALARM:{code}"))
        if code in _CRITICAL_ALARMS:
            self._emit(text.RESET_TO_CONTINUE)
            self._state = DeviceState.CRITICAL
        else:
            self._state = DeviceState.ALARM
        self._locked = True

    def _fire(self, kind: FaultKind, now: float) -> None:
        self._now = max(self._now, now)
        self._planner.advance(now, self._limits())
        if kind is FaultKind.ALARM:
            self._fire_alarm(self._faults.config.alarm_code, now)
        elif kind is FaultKind.RESET:
            self._stop_everything(now, "spontaneous reset")
            self._reboot(now, "spontaneous reset")
        else:
            self._stop_everything(now, "disconnected")
            self._event(HeadEventKind.DISCONNECT, now, self.physical_position(), "port closed")
            self._state = DeviceState.DEAD

    # ----- helpers --------------------------------------------------------------------------------------------
    def _reset_modal(self) -> None:
        self._modal = Modal(target=self.reported_position())

    def _limits(self) -> Limits:
        s = self.settings
        return Limits((s[110], s[111], s[112]), (s[120], s[121], s[122]))

    def _respond(self, number: int | None, response: str) -> None:
        if not self._faults.drops_response(number):
            self._emit(text.line(response), self._faults.latency_s)

    def _emit(self, data: bytes, delay_s: float = 0.0, ordered: bool = True) -> None:
        """Queue output; ordered items keep their order (a slow `ok` delays what follows it), a status report
        (ordered=False) goes out at once, as GRBL answers `?` from its real-time handler."""
        due = self._now + delay_s
        if ordered:
            due = max(due, self._last_due)
            self._last_due = due
        data = self._faults.noise() + data
        index = len(self._out)
        while index > 0 and self._out[index - 1][0] > due:
            index -= 1
        self._out.insert(index, (due, data))

    def _event(self, kind: HeadEventKind, when: float, where: Vec, detail: str = "") -> None:
        event = HeadEvent(when, kind, where[0], where[1], where[2], detail)
        self.events.append(event)
        if self._on_event is not None:
            self._on_event(event)
