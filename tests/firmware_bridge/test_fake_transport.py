"""The in-process fake transport on a simulated clock: same gantry behaviour as over the pty, no real waiting."""

from __future__ import annotations

import time

import pytest

from firmware_bridge import (
    FAST_MOTION,
    ControllerReset,
    FakeGrblConfig,
    FaultConfig,
    GantryTimings,
    GrblAlarm,
    GrblError,
    GrblGantry,
    GrblLink,
    HeadEventKind,
    NoResponse,
    Position,
)
from firmware_bridge.fake_transport import FakeGrblTransport, SimClock


def _gantry(config: FakeGrblConfig) -> tuple[GrblGantry, FakeGrblTransport]:
    transport = FakeGrblTransport(config)
    gantry = GrblGantry(GrblLink(transport, transport.clock), GantryTimings())
    gantry.connect()
    return gantry, transport


def test_pick_and_place_at_real_machine_speed_costs_no_real_time() -> None:
    """It should run a pick and place at 200 mm/s in simulated seconds and milliseconds of wall time."""
    gantry, transport = _gantry(FakeGrblConfig())
    started = time.monotonic()
    gantry.home()
    gantry.move_to(300.0, 200.0, -20.0)
    gantry.grip()
    gantry.move_to(100.0, 100.0, -20.0)
    gantry.release()
    assert gantry.position() == Position(100.0, 100.0, -20.0)
    assert transport.clock.now() > 2.0
    assert time.monotonic() - started < transport.clock.now()
    kinds = [e.kind for e in transport.device.events if e.kind in (HeadEventKind.GRIP, HeadEventKind.RELEASE)]
    assert kinds == [HeadEventKind.GRIP, HeadEventKind.RELEASE]


def test_faults_behave_as_over_the_pty() -> None:
    """It should raise the same fault exceptions as the pty path (alarm, reset, missing ok)."""
    alarm, _ = _gantry(FakeGrblConfig(settings=FAST_MOTION, faults=FaultConfig(alarm_after_lines=4, fault_delay_s=0.1)))
    alarm.home()
    alarm.move_to(500.0, 400.0)
    with pytest.raises(GrblAlarm):
        alarm.wait_idle()
    reset, _ = _gantry(FakeGrblConfig(settings=FAST_MOTION, faults=FaultConfig(reset_after_lines=4, fault_delay_s=0.1)))
    reset.home()
    reset.move_to(500.0, 400.0)
    with pytest.raises(ControllerReset):
        reset.wait_idle()
    silent, transport = _gantry(FakeGrblConfig(faults=FaultConfig(missing_ok_lines=frozenset({1}))))
    before = transport.clock.now()
    with pytest.raises(NoResponse):
        silent.home()
    assert transport.clock.now() - before >= GantryTimings().homing_timeout_s


def test_sim_clock_never_runs_backwards() -> None:
    """It should refuse a negative advance."""
    clock = SimClock(5.0)
    clock.advance(1.5)
    assert clock.now() == 6.5
    with pytest.raises(ValueError):
        clock.advance(-1.0)


def test_stray_response_is_counted_and_dropped() -> None:
    """It should drop (and count) an `ok` that answers no line of this link, and stay in step afterwards."""
    transport = FakeGrblTransport(FakeGrblConfig())
    link = GrblLink(transport, transport.clock)
    link.open()
    link.send("$X")
    transport.write(b"G21\n")
    link.poll(0.1)
    assert link.stray_responses == 1
    with pytest.raises(GrblError) as caught:
        link.send("G1 X1")
    assert caught.value.code == 22
