"""Byte transport to the controller: the `Transport` protocol and `SerialTransport`, the ONLY module importing
pyserial.

Owns: opening a port by URL (`serial.serial_for_url`: a device path, a pty, `socket://`, `loop://`), reading
complete lines with a timeout (partial lines are kept until their `\\n`), writing bytes, and turning any
sign that the port vanished (USB unplugged, pty closed) into `ConnectionLost`. Does not parse anything.
"""

from __future__ import annotations

import contextlib
import termios
import time
from typing import Protocol

import serial

from firmware_bridge.errors import ConnectionLost

DEFAULT_BAUD = 115200
READ_SLICE_S = 0.01
"""The port's fixed read timeout: how long one blocking read waits for a first byte."""


class Transport(Protocol):
    """A bidirectional byte stream to the controller."""

    def write(self, data: bytes) -> None:
        """Send bytes (raise ConnectionLost if the port is gone)."""
        ...

    def read_line(self, timeout_s: float) -> bytes | None:
        """One line including its `\\n`, or None if none completed within `timeout_s`."""
        ...

    def reset_input(self) -> None:
        """Discard everything received and not yet read."""
        ...

    def close(self) -> None:
        """Release the port (idempotent)."""
        ...


class SerialTransport:
    """A pyserial port. `url` is anything `serial.serial_for_url` accepts."""

    def __init__(self, url: str, baudrate: int = DEFAULT_BAUD, max_line_bytes: int = 1024) -> None:
        try:
            self._port = serial.serial_for_url(
                url, baudrate=baudrate, timeout=READ_SLICE_S, xonxoff=False, rtscts=False
            )
        except (serial.SerialException, OSError) as exc:
            raise ConnectionLost(f"cannot open {url}: {exc}") from exc
        self.url = url
        self._pending = bytearray()
        self._max_line = max_line_bytes
        self._closed = False

    def write(self, data: bytes) -> None:
        """Write and flush; a failure means the port is gone."""
        self._check_open()
        try:
            self._port.write(data)
            self._port.flush()
        except (serial.SerialException, OSError, termios.error) as exc:  # flush's tcdrain raises termios.error
            raise ConnectionLost(f"write to {self.url} failed: {exc}") from exc

    def read_line(self, timeout_s: float) -> bytes | None:
        """Return one complete line, or None at the timeout; an overlong run without `\\n` is cut as a line.

        The port keeps one short read timeout (`READ_SLICE_S`): changing pyserial's timeout reconfigures the
        port (tcsetattr) every time, which some USB-serial drivers handle badly.
        """
        self._check_open()
        deadline = time.monotonic() + max(timeout_s, 0.0)
        while (line := self._take_line()) is None:
            try:
                waiting = self._port.in_waiting
                if not waiting and time.monotonic() >= deadline:
                    return None
                chunk = self._port.read(waiting if waiting else 1)
            except (serial.SerialException, OSError, TypeError) as exc:
                raise ConnectionLost(f"read from {self.url} failed: {exc}") from exc
            self._pending += chunk
        return line

    def _take_line(self) -> bytes | None:
        index = self._pending.find(b"\n")
        if index < 0:
            if len(self._pending) < self._max_line:
                return None
            index = self._max_line - 1
        line = bytes(self._pending[: index + 1])
        del self._pending[: index + 1]
        return line

    def reset_input(self) -> None:
        """Drop unread bytes, here and in the OS buffer."""
        self._check_open()
        self._pending.clear()
        try:
            self._port.reset_input_buffer()
        except (serial.SerialException, OSError) as exc:
            raise ConnectionLost(f"flush of {self.url} failed: {exc}") from exc

    def close(self) -> None:
        """Close the port; safe to call twice or after the device vanished."""
        if not self._closed:
            self._closed = True
            with contextlib.suppress(serial.SerialException, OSError):
                self._port.close()

    def _check_open(self) -> None:
        if self._closed:
            raise ConnectionLost(f"{self.url} is closed")
