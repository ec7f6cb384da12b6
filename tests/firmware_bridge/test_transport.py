"""SerialTransport on a real pty: lines, partial lines, and the port vanishing."""

from __future__ import annotations

import inspect
import os
import tty

import pytest

from controller.ports import Gantry
from firmware_bridge import ConnectionLost, GrblGantry
from firmware_bridge.transport import SerialTransport


@pytest.fixture
def pty_pair() -> tuple[int, str]:
    """A raw pty: (master fd, slave path)."""
    master, slave = os.openpty()
    tty.setraw(slave)
    path = os.ttyname(slave)
    os.close(slave)
    return master, path


def test_partial_lines_are_kept_until_their_newline(pty_pair: tuple[int, str]) -> None:
    """It should return nothing for a half line and the whole line once its `\\n` arrives."""
    master, path = pty_pair
    transport = SerialTransport(path)
    try:
        os.write(master, b"<Idle|MPos:1.0")
        assert transport.read_line(0.1) is None
        os.write(master, b"00,2.000,3.000|FS:0,0>\r\nok\r\n")
        assert transport.read_line(0.5) == b"<Idle|MPos:1.000,2.000,3.000|FS:0,0>\r\n"
        assert transport.read_line(0.5) == b"ok\r\n"
    finally:
        transport.close()
        os.close(master)


def test_vanished_port_raises_connection_lost(pty_pair: tuple[int, str]) -> None:
    """It should turn the device disappearing (pty master closed, like a USB unplug) into ConnectionLost."""
    master, path = pty_pair
    transport = SerialTransport(path)
    os.close(master)
    with pytest.raises(ConnectionLost):
        transport.read_line(0.2)
    with pytest.raises(ConnectionLost):
        transport.write(b"?")
    transport.close()
    transport.close()


def test_missing_port_raises_connection_lost() -> None:
    """It should report a port that cannot be opened as ConnectionLost naming the port."""
    with pytest.raises(ConnectionLost, match="/dev/does-not-exist"):
        SerialTransport("/dev/does-not-exist")


def test_gantry_matches_the_controller_port() -> None:
    """It should offer every method of controller.ports.Gantry with the same parameters."""
    for name, member in inspect.getmembers(Gantry, inspect.isfunction):
        if name.startswith("_"):
            continue
        ours = inspect.signature(getattr(GrblGantry, name))
        assert list(ours.parameters) == list(inspect.signature(member).parameters), name
        assert [p.default for p in ours.parameters.values()] == [
            p.default for p in inspect.signature(member).parameters.values()
        ], name
