"""The line link to a GRBL-family controller: send-response streaming, push-message routing, fault detection.

Owns: flow control — send-response (GRBL's recommended mode): one line in flight, the next is written only
after its `ok`/`error:N`, so at most 80 bytes sit in the controller's 128-byte RX buffer and it can never
overflow (real-time bytes bypass that buffer). Lines end with `\\n` only (CRLF would earn two `ok`s). An
explicit poll loop (no thread) with an injected clock: every wait reads lines until its deadline, parses them
and routes push messages (status, alarms, `[MSG:]`, settings, garbage) to subscribers. Faults become
exceptions: a timeout -> NoResponse (the link then refuses lines until a soft reset: a late `ok` would
otherwise be credited to the wrong line); `error:N` -> GrblError with the line; `ALARM:N` -> GrblAlarm (after
ALARM:1/2 or `[MSG:Reset to continue]` nothing is sent until `soft_reset`); a banner mid-session ->
ControllerReset; a vanished port -> ConnectionLost. An unprompted push fault is raised by the next call.
Does not own what a move means (that is `gantry`).
"""

from __future__ import annotations

import enum
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from firmware_bridge import gcode
from firmware_bridge.errors import (
    ConnectionLost,
    ControllerReset,
    FirmwareBridgeError,
    GrblAlarm,
    GrblError,
    NoResponse,
)
from firmware_bridge.protocol import (
    SOFT_RESET,
    STATUS_QUERY,
    AlarmMessage,
    Banner,
    ErrorReply,
    Feedback,
    Garbage,
    Item,
    Ok,
    PushMessage,
    StatusReport,
    parse_line,
)
from firmware_bridge.transport import Transport

_log = logging.getLogger(__name__)
_CRITICAL_ALARMS = frozenset({1, 2})
_READ_SLICE_S = 0.05


class Clock(Protocol):
    """Monotonic seconds (structurally the controller's Clock port)."""

    def now(self) -> float: ...


class MonotonicClock:
    """The real clock."""

    def now(self) -> float:
        return time.monotonic()


class LinkState(enum.Enum):
    """What the link may do next."""

    CLOSED = "closed"
    READY = "ready"
    ALARM_LOCKED = "alarm-locked"
    """G-code gets error:9; `$X` or `$H` unlock."""
    ALARM_CRITICAL = "alarm-critical"
    """Nothing is answered until a soft reset."""
    UNSYNCED = "unsynced"
    """A response went missing; soft reset before sending lines."""
    LOST = "lost"


@dataclass(frozen=True)
class Reply:
    """The answer to one line: push messages that arrived while waiting (e.g. `$$` settings) and the `ok`."""

    line: str
    pushes: tuple[PushMessage, ...]


@dataclass(frozen=True)
class ResetResult:
    """After a soft reset: the banner, the alarm it raised (ALARM:3 if it stopped motion) and the lock state."""

    banner: Banner
    alarm_code: int | None
    locked: bool


@dataclass(frozen=True)
class LinkTimings:
    """Timeouts and intervals, seconds."""

    response_timeout_s: float = 2.0
    boot_timeout_s: float = 3.0
    """Arduino bootloader delay after the auto-reset on open (real: 1-2 s)."""
    settle_s: float = 0.1
    """Quiet time that ends the messages following a banner."""
    status_interval_s: float = 0.2
    """`?` period while waiting for a long command (GRBL advises <= 5 Hz)."""
    status_timeout_s: float = 1.5
    """No status report for this long while polling -> NoResponse."""


class GrblLink:
    """Send-response link over a Transport. One thread drives it; `realtime` (e.g. an emergency `!` from a
    button thread) may be called from another: writes are serialised by a lock."""

    def __init__(self, transport: Transport, clock: Clock | None = None, timings: LinkTimings | None = None) -> None:
        self._transport = transport
        self._clock = clock if clock is not None else MonotonicClock()
        self.timings = timings if timings is not None else LinkTimings()
        self._subscribers: list[Callable[[PushMessage], None]] = []
        self.state = LinkState.CLOSED
        self.alarm_code: int | None = None
        self.banner: Banner | None = None
        self.last_status: StatusReport | None = None
        self.garbage_count = 0
        self.stray_responses = 0
        self._pending_fault: FirmwareBridgeError | None = None
        self._write_lock = threading.Lock()

    def subscribe(self, callback: Callable[[PushMessage], None]) -> None:
        """Call `callback` with every push message (status, alarm, banner, feedback, setting, garbage)."""
        self._subscribers.append(callback)

    # ----- opening and resetting ------------------------------------------------------------------------------
    def open(self, expect_reset: bool = True) -> Banner:
        """Wait for the banner of an auto-reset (Uno); without one (ESP32), soft-reset to get it. Then flush."""
        self._transport.reset_input()
        banner = self._await_banner(self.timings.boot_timeout_s) if expect_reset else None
        if banner is None:
            self._write(SOFT_RESET, None)
            banner = self._await_banner(self.timings.boot_timeout_s)
        if banner is None:
            raise NoResponse("no banner from the controller", timeout_s=self.timings.boot_timeout_s)
        self._settle()
        return banner

    def soft_reset(self) -> ResetResult:
        """Send 0x18, wait for the banner, flush; clears alarms-to-report and the unsynced state."""
        self._write(SOFT_RESET, None)
        self.alarm_code = None
        banner = self._await_banner(self.timings.response_timeout_s)
        if banner is None:
            raise NoResponse("no banner after a soft reset", timeout_s=self.timings.response_timeout_s)
        alarm = self.alarm_code
        self._settle()
        return ResetResult(banner, alarm, self.state is LinkState.ALARM_LOCKED)

    def _await_banner(self, timeout_s: float) -> Banner | None:
        deadline = self._clock.now() + timeout_s
        while (item := self._read_item(deadline)) is not None:
            if isinstance(item, Banner):
                return item
        return None

    def _settle(self) -> None:
        self._pending_fault = None
        if self.state not in (LinkState.ALARM_LOCKED, LinkState.ALARM_CRITICAL):
            self.state = LinkState.READY
        while self._read_item(self._clock.now() + self.timings.settle_s) is not None:
            pass
        self._pending_fault = None

    # ----- lines ----------------------------------------------------------------------------------------------
    def send(self, line: str, timeout_s: float | None = None, poll_status: bool = False) -> Reply:
        """Send one line and wait for its `ok`; `poll_status` sends `?` periodically meanwhile (motion waits)."""
        gcode.checked(line)
        self._drain_available()
        self._raise_pending(None)
        if self.state is LinkState.ALARM_CRITICAL:
            raise GrblAlarm(self.alarm_code or 0, line)
        if self.state is LinkState.UNSYNCED:
            raise NoResponse("link unsynchronised after a missing response: soft reset first", line)
        self._write(line.encode("ascii") + b"\n", line)
        timeout = timeout_s if timeout_s is not None else self.timings.response_timeout_s
        pushes = self._await_response(line, timeout, poll_status)
        if line in (gcode.UNLOCK, gcode.HOME) and self.state is LinkState.ALARM_LOCKED:
            self.state = LinkState.READY
            self.alarm_code = None
        return Reply(line, pushes)

    def _await_response(self, line: str, timeout_s: float, poll_status: bool) -> tuple[PushMessage, ...]:
        deadline = self._clock.now() + timeout_s
        pushes: list[PushMessage] = []
        alarm: GrblAlarm | None = None
        status_clock = _StatusPoll(self._clock.now(), self.timings) if poll_status else None
        while True:
            now = self._clock.now()
            if now >= deadline:
                self._pending_fault = None
                if alarm is not None:
                    raise alarm
                self.state = LinkState.UNSYNCED
                raise NoResponse(f"no response within {timeout_s:g} s", line, timeout_s)
            if status_clock is not None:
                self._poll_status_tick(status_clock, now, line)
            item = self._read_item(min(deadline, now + _READ_SLICE_S))
            if item is None:
                continue
            if isinstance(item, Ok | ErrorReply):
                break
            pushes.append(item)
            if status_clock is not None and isinstance(item, StatusReport):
                status_clock.answered(now)
            alarm = self._fault_for(item, line) or alarm
        self._pending_fault = None
        if alarm is not None:
            raise alarm
        if isinstance(item, ErrorReply):
            raise GrblError(item.code, line)
        return tuple(pushes)

    def _fault_for(self, item: Item, line: str) -> GrblAlarm | None:
        """A push that ends the wait at once (critical alarm, reset) raises; a plain alarm waits for the ok."""
        if isinstance(item, Banner):
            self._discard_until_quiet()
            self._pending_fault = None
            raise ControllerReset(item.text, line)
        if isinstance(item, AlarmMessage):
            self._pending_fault = None
            if item.code in _CRITICAL_ALARMS:
                raise GrblAlarm(item.code, line)
            return GrblAlarm(item.code, line)
        if self.state is LinkState.ALARM_CRITICAL:
            self._pending_fault = None
            raise GrblAlarm(self.alarm_code or 0, line)
        return None

    def _poll_status_tick(self, poll: _StatusPoll, now: float, line: str) -> None:
        if poll.overdue(now):
            self.state = LinkState.UNSYNCED
            raise NoResponse("controller stopped answering status queries", line, self.timings.status_timeout_s)
        if poll.due(now):
            self._write(STATUS_QUERY, line)
            poll.sent(now)

    # ----- status, polling, real-time -------------------------------------------------------------------------
    def request_status(self, timeout_s: float | None = None) -> StatusReport:
        """Send `?` and return the next status report."""
        self._raise_pending(None)
        if self.state is LinkState.ALARM_CRITICAL:
            raise GrblAlarm(self.alarm_code or 0)
        self._write(STATUS_QUERY, None)
        deadline = self._clock.now() + (timeout_s if timeout_s is not None else self.timings.response_timeout_s)
        while (item := self._read_item(deadline)) is not None:
            if isinstance(item, StatusReport):
                return item
            self._note_stray(item)
            self._raise_pending(None)
        raise NoResponse("no status report", timeout_s=timeout_s or self.timings.response_timeout_s)

    def poll(self, duration_s: float) -> None:
        """Read and route push messages for `duration_s`; raises an unprompted alarm or reset seen meanwhile."""
        deadline = self._clock.now() + duration_s
        while (item := self._read_item(deadline)) is not None:
            self._note_stray(item)
            self._raise_pending(None)
        self._raise_pending(None)

    def realtime(self, command: bytes) -> None:
        """Write one real-time byte (`?`, `!`, `~`, 0x18); never part of a line."""
        if len(command) != 1:
            raise ValueError("a real-time command is a single byte")
        self._write(command, None)

    def close(self) -> None:
        self._transport.close()
        self.state = LinkState.CLOSED

    # ----- internals ------------------------------------------------------------------------------------------
    def _drain_available(self) -> None:
        """Route what has already arrived (a banner or alarm must be seen before the next line goes out);
        a response with no line in flight is stray (e.g. the answer of a line sent across a reset): dropped."""
        while (raw := self._transport.read_line(0.0)) is not None:
            self._route_raw(raw)

    def _discard_until_quiet(self) -> None:
        """After a reset seen mid-line: the rebooted controller may still answer that line; drop it."""
        deadline = self._clock.now() + self.timings.settle_s
        while self._clock.now() < deadline:
            raw = self._transport.read_line(min(_READ_SLICE_S, max(deadline - self._clock.now(), 0.0)))
            if raw is not None:
                self._route_raw(raw)

    def _route_raw(self, raw: bytes) -> None:
        if not raw.strip(b"\r\n"):
            return
        item = parse_line(raw)
        self._note_stray(item)
        self._account(item)

    def _note_stray(self, item: Item) -> None:
        """Count and log a response that arrived with no line in flight (it is dropped)."""
        if isinstance(item, Ok | ErrorReply):
            self.stray_responses += 1
            _log.warning("stray response with no line in flight: %r", item)

    def _raise_pending(self, line: str | None) -> None:
        fault, self._pending_fault = self._pending_fault, None
        if fault is not None:
            fault.line = line if fault.line is None else fault.line
            raise fault

    def _write(self, data: bytes, line: str | None) -> None:
        if self.state is LinkState.LOST:
            raise ConnectionLost("serial link already lost", line)
        try:
            with self._write_lock:
                self._transport.write(data)
        except ConnectionLost as exc:
            self.state = LinkState.LOST
            raise ConnectionLost(str(exc), line) from exc

    def _read_item(self, deadline: float) -> Item | None:
        """The next non-empty parsed line before `deadline` (routed and accounted), or None."""
        while (remaining := deadline - self._clock.now()) > 0:
            try:
                raw = self._transport.read_line(min(remaining, _READ_SLICE_S))
            except ConnectionLost:
                self.state = LinkState.LOST
                raise
            if raw is None or not raw.strip(b"\r\n"):
                continue
            item = parse_line(raw)
            self._account(item)
            return item
        return None

    def _account(self, item: Item) -> None:
        if isinstance(item, Ok | ErrorReply):
            return
        self._update_state(item)
        for callback in self._subscribers:
            callback(item)

    def _update_state(self, item: PushMessage) -> None:
        if isinstance(item, StatusReport):
            self.last_status = item
        elif isinstance(item, Garbage):
            self.garbage_count += 1
            _log.warning("garbage from controller: %r (%s)", item.raw, item.reason)
        elif isinstance(item, AlarmMessage):
            self.alarm_code = item.code
            critical = item.code in _CRITICAL_ALARMS
            self.state = LinkState.ALARM_CRITICAL if critical else LinkState.ALARM_LOCKED
            self._pending_fault = GrblAlarm(item.code)
        elif isinstance(item, Banner):
            self.banner = item
            self.state = LinkState.READY
            self._pending_fault = ControllerReset(item.text)
        elif isinstance(item, Feedback) and item.tag == "MSG":
            self._update_from_message(item.text)

    def _update_from_message(self, message: str) -> None:
        if message == "Reset to continue":
            self.state = LinkState.ALARM_CRITICAL
        elif message == "'$H'|'$X' to unlock":
            self.state = LinkState.ALARM_LOCKED
        elif message == "Caution: Unlocked":
            self.state = LinkState.READY


class _StatusPoll:
    """When to send the next `?` and whether the controller stopped answering."""

    def __init__(self, now: float, timings: LinkTimings) -> None:
        self._timings = timings
        self._last_sent = now - timings.status_interval_s
        self._last_answer = now

    def due(self, now: float) -> bool:
        return now - self._last_sent >= self._timings.status_interval_s

    def sent(self, now: float) -> None:
        self._last_sent = now

    def answered(self, now: float) -> None:
        self._last_answer = now

    def overdue(self, now: float) -> bool:
        return now - self._last_answer > self._timings.status_timeout_s
