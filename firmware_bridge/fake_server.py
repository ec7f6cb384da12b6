"""Serves a `FakeGrbl` on a real pseudo-terminal in a background thread, so hosts use pyserial end to end.

Owns: the pty (`os.openpty`, raw mode), the service thread (poll the master side, feed bytes in, advance the
emulator on the real monotonic clock, write its output), port-open detection (the master sees POLLHUP while
no client holds the slave; when a client opens it, a `reset_on_open` device reboots like an Uno on DTR) and
the injected disconnect (the master is closed: the device path vanishes and the client's next read fails).
Limit: a close and re-open within one poll period (2 ms) is not seen as a re-open (no auto-reset then).
"""

from __future__ import annotations

import contextlib
import os
import select
import threading
import time
import tty
from collections.abc import Callable

from firmware_bridge.fake_config import FakeGrblConfig, HeadEvent
from firmware_bridge.fake_grbl import FakeGrbl

_POLL_MS = 2
"""Service period while something is happening (motion, a wait, a fault armed, output queued)."""
_IDLE_POLL_MS = 50
"""Longest sleep while nothing will happen until the host writes (input wakes the poll at once)."""


class FakeGrblServer:
    """`FakeGrblServer(config).start()` returns the device path; `.stop()` ends it. Also a context manager."""

    def __init__(
        self,
        config: FakeGrblConfig | None = None,
        on_event: Callable[[HeadEvent], None] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.config = config if config is not None else FakeGrblConfig()
        self._on_event = on_event
        self._clock = clock
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._master = -1
        self._device: FakeGrbl | None = None
        self.path = ""

    def start(self) -> str:
        """Create the pty and start serving; returns the device path (e.g. /dev/pts/7)."""
        if self._thread is not None:
            raise RuntimeError("FakeGrblServer already started")
        master, slave = os.openpty()
        tty.setraw(slave)
        self.path = os.ttyname(slave)
        os.close(slave)
        self._master = master
        self._device = FakeGrbl(self.config, self._clock(), self._on_event)
        self._thread = threading.Thread(target=self._serve, name="fake-grbl", daemon=True)
        self._thread.start()
        return self.path

    def stop(self) -> None:
        """Stop serving and close the pty (idempotent)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2.0)
        self._close_master()

    def running(self) -> bool:
        """True while the service thread serves (False after stop() or an injected disconnect)."""
        return self._thread is not None and self._thread.is_alive()

    def unplugged(self) -> bool:
        """True once an injected disconnect has happened (the pty is closed or closing; the path is going away)."""
        with self._lock:
            return self._device is not None and self._device.disconnected

    def __enter__(self) -> FakeGrblServer:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def device(self) -> FakeGrbl:
        """The emulator (read it under `locked()` from other threads)."""
        if self._device is None:
            raise RuntimeError("FakeGrblServer not started")
        return self._device

    def locked(self) -> threading.Lock:
        """The lock the service thread holds while it touches the device."""
        return self._lock

    def events(self) -> tuple[HeadEvent, ...]:
        """A copy of the head-event log so far."""
        with self._lock:
            return tuple(self.device.events)

    def _serve(self) -> None:
        poller = select.poll()
        poller.register(self._master, select.POLLIN)
        client_open = False
        while not self._stop.is_set():
            with self._lock:
                quiet = self.device.quiescent()
            events = poller.poll(_IDLE_POLL_MS if quiet else _POLL_MS)
            hangup = any(mask & select.POLLHUP for _, mask in events)
            readable = any(mask & select.POLLIN for _, mask in events)
            with self._lock:
                if not self._step(hangup, readable, client_open):
                    return
            if hangup:
                time.sleep(_POLL_MS / 1000)
            client_open = not hangup

    def _step(self, hangup: bool, readable: bool, client_open: bool) -> bool:
        """One service round; False once the device disconnected (the pty is closed)."""
        device, now = self.device, self._clock()
        if not hangup and not client_open and self.config.reset_on_open:
            device.power_cycle(now)
        if readable:
            try:
                data = os.read(self._master, 4096)
            except OSError:
                data = b""
            device.receive(data, now)
        device.advance(now)
        out = device.take_output(now)
        if out and not hangup:
            with contextlib.suppress(OSError):
                os.write(self._master, out)
        if device.disconnected:
            self._close_master()
            return False
        return True

    def _close_master(self) -> None:
        if self._master >= 0:
            os.close(self._master)
            self._master = -1
