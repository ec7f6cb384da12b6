"""The composition root's gantry restart: reset when the link lives, reopen (patiently) when it is gone."""

from __future__ import annotations

from typing import cast

import pytest

from controller import compose
from controller.planning.executor import Interruption
from firmware_bridge.errors import ConnectionLost
from firmware_bridge.gantry import GrblGantry


class _Gantry:
    """Records the calls a restart makes; `reset` fails when the link is dead."""

    def __init__(self, alive: bool) -> None:
        self.alive, self.calls = alive, list[str]()

    def reset(self) -> None:
        self.calls.append("reset")
        if not self.alive:
            raise ConnectionLost("the port vanished")

    def close(self) -> None:
        self.calls.append("close")

    def release(self) -> None:
        self.calls.append("release")

    def home(self) -> None:
        self.calls.append("home")


class _Port:
    """A replugged device that cannot be opened for the first `absent` tries."""

    def __init__(self, absent: int) -> None:
        self.absent, self.tries, self.fresh = absent, 0, _Gantry(alive=True)

    def open(self) -> GrblGantry:
        self.tries += 1
        if self.tries <= self.absent:
            raise ConnectionLost(f"cannot open /dev/ttyUSB0 (try {self.tries})")
        return cast(GrblGantry, self.fresh)


def _restart(old: _Gantry, port: _Port, slept: list[float], attempts: int = 10) -> compose.GantryRestart:
    return compose.GantryRestart(
        cast(GrblGantry, old), port.open, reopen_attempts=attempts, retry_delay_s=0.25, sleep=slept.append
    )


def _interruption() -> Interruption:
    return cast(Interruption, None)


def test_a_live_link_is_reset_released_and_homed_without_reopening() -> None:
    old, port, slept = _Gantry(alive=True), _Port(absent=0), list[float]()
    assert _restart(old, port, slept)(_interruption()) is cast(GrblGantry, old)
    assert old.calls == ["reset", "release", "home"] and port.tries == 0 and slept == []


def test_a_replugged_device_is_waited_for_then_homed() -> None:
    old, port, slept = _Gantry(alive=False), _Port(absent=3), list[float]()
    restarted = _restart(old, port, slept)(_interruption())
    assert restarted is cast(GrblGantry, port.fresh)
    assert old.calls == ["reset", "close"] and port.fresh.calls == ["release", "home"]
    assert port.tries == 4 and slept == [0.25, 0.25, 0.25]


def test_a_device_that_never_returns_raises_the_last_failure() -> None:
    old, port, slept = _Gantry(alive=False), _Port(absent=99), list[float]()
    with pytest.raises(ConnectionLost, match="try 4"):
        _restart(old, port, slept, attempts=4)(_interruption())
    assert port.tries == 4 and len(slept) == 3
