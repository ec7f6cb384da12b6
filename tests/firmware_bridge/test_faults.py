"""Every injected fault through the real pty, pyserial, link and gantry, and the defined reaction to each."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

from firmware_bridge import (
    FAST_MOTION,
    ConnectionLost,
    ControllerReset,
    FakeGrblConfig,
    FakeGrblServer,
    FaultConfig,
    GrblAlarm,
    GrblError,
    GrblGantry,
    HeadEventKind,
    LinkState,
    NoResponse,
    Position,
)
from firmware_bridge.protocol import MachineState, PushMessage, StatusReport

Serve = Callable[..., FakeGrblServer]
Connect = Callable[..., GrblGantry]
Config = Callable[..., FakeGrblConfig]

# Line numbers as the device counts them: home() sends $H (1), G90 (2), G21 (3); then each command one line.
PICK, PLACE = (100.0, 50.0, 0.0), (500.0, 400.0, 0.0)


def _pick(gantry: GrblGantry) -> None:
    """home (lines 1-3), move to the pick point (4), grip: M8 (5) + dwell (6)."""
    gantry.home()
    gantry.move_to(*PICK)
    gantry.grip()


def _between(value: float, low: float, high: float) -> bool:
    return low < value < high


def _wait_for_state(gantry: GrblGantry, state: MachineState, timeout_s: float = 2.0) -> None:
    """Poll status until the machine reports `state` (fails the test after `timeout_s`)."""
    deadline = time.monotonic() + timeout_s
    while gantry.status().state is not state:
        assert time.monotonic() < deadline, f"the fake never reported {state.value}"
        time.sleep(0.01)


def test_port_vanishes_mid_move(serve: Serve, connect: Connect, config: Config) -> None:
    """It should raise ConnectionLost with the last confirmed position, gripper unknown, position untrusted."""
    server = serve(config(FaultConfig(disconnect_after_lines=7, fault_delay_s=0.1)))
    gantry = connect(server.path)
    _pick(gantry)
    gantry.move_to(*PLACE)
    with pytest.raises(ConnectionLost) as caught:
        gantry.wait_idle()
    snap = caught.value.snapshot
    assert snap is not None
    assert snap.confirmed_position == Position(*PICK)
    assert snap.target == Position(*PLACE)
    assert snap.gripper_on is None and not snap.position_trusted
    assert snap.interrupted_line == "G4 P0.01"
    last = server.events()[-1]
    assert last.kind is HeadEventKind.DISCONNECT and _between(last.x_mm, PICK[0], PLACE[0])
    with pytest.raises(ConnectionLost):
        gantry.move_to(1.0, 1.0)


def test_controller_resets_mid_move_while_gripping(serve: Serve, connect: Connect, config: Config) -> None:
    """It should raise ControllerReset on the new banner, know the magnet dropped, then recover by homing."""
    server = serve(config(FaultConfig(reset_after_lines=7, fault_delay_s=0.1)))
    gantry = connect(server.path)
    _pick(gantry)
    gantry.move_to(*PLACE)
    with pytest.raises(ControllerReset) as caught:
        gantry.wait_idle()
    snap = caught.value.snapshot
    assert snap is not None and snap.gripper_on is False and not snap.position_trusted
    assert snap.confirmed_position == Position(*PICK)
    drop = next(e for e in server.events() if e.kind is HeadEventKind.RELEASE)
    assert drop.detail == "spontaneous reset" and _between(drop.x_mm, PICK[0], PLACE[0])
    gantry.home()
    assert gantry.position() == Position(0.0, 0.0, 0.0) and gantry.snapshot().position_trusted


def test_garbage_and_half_lines_are_ignored(serve: Serve, connect: Connect, config: Config) -> None:
    """It should complete a pick and place through noise on half of the lines, counting the garbage."""
    server = serve(config(FaultConfig(garbage_rate=0.5, seed=7)))
    gantry = connect(server.path)
    _pick(gantry)
    gantry.move_to(*PLACE)
    gantry.release()
    assert gantry.position() == Position(*PLACE)
    assert gantry.link.garbage_count > 3
    kinds = [e.kind for e in server.events() if e.kind in (HeadEventKind.GRIP, HeadEventKind.RELEASE)]
    assert kinds == [HeadEventKind.GRIP, HeadEventKind.RELEASE]


def test_error_reply_for_a_line(serve: Serve, connect: Connect, config: Config) -> None:
    """It should raise GrblError(5, "$H") when homing is disabled, with the head snapshot attached."""
    server = serve(config(settings={22: 0, 20: 0}))
    gantry = connect(server.path)
    with pytest.raises(GrblError) as caught:
        gantry.home()
    assert caught.value.code == 5 and caught.value.line == "$H"
    assert caught.value.snapshot is not None and caught.value.snapshot.interrupted_line == "$H"
    gantry.move_to(10.0, 10.0)
    gantry.wait_idle()
    assert gantry.position() == Position(10.0, 10.0, 0.0)


def test_unprompted_hard_limit_alarm_mid_move(serve: Serve, connect: Connect, config: Config) -> None:
    """It should raise GrblAlarm(1) (re-home), answer nothing until reset, stay locked until `$H`."""
    server = serve(config(FaultConfig(alarm_after_lines=4, fault_delay_s=0.1)))
    gantry = connect(server.path)
    gantry.home()
    gantry.move_to(*PLACE)
    with pytest.raises(GrblAlarm) as caught:
        gantry.wait_idle()
    assert caught.value.code == 1 and caught.value.requires_homing
    assert caught.value.snapshot is not None and not caught.value.snapshot.position_trusted
    assert gantry.link.state is LinkState.ALARM_CRITICAL
    with pytest.raises(GrblAlarm):
        gantry.status()
    reports: list[PushMessage] = []
    gantry.link.subscribe(lambda item: reports.append(item) if isinstance(item, StatusReport) else None)
    gantry.link.realtime(b"?")
    gantry.link.poll(0.2)
    assert reports == []
    result = gantry.reset()
    assert result.locked
    with pytest.raises(GrblError) as locked:
        gantry.move_to(10.0, 10.0)
    assert locked.value.code == 9
    gantry.home()
    gantry.move_to(10.0, 10.0)
    gantry.wait_idle()
    assert gantry.position() == Position(10.0, 10.0, 0.0)


def test_soft_limit_alarm_keeps_position_and_unlocks(serve: Serve, connect: Connect) -> None:
    """It should raise GrblAlarm(2) for a target beyond travel; after reset, `$X` suffices (position kept)."""
    gantry = connect(serve().path)
    gantry.home()
    gantry.move_to(20.0, 30.0)
    gantry.wait_idle()
    with pytest.raises(GrblAlarm) as caught:
        gantry.move_to(-10.0, 30.0)
    assert caught.value.code == 2 and not caught.value.requires_homing
    assert caught.value.snapshot is not None and caught.value.snapshot.position_trusted
    gantry.reset()
    gantry.unlock()
    assert gantry.status().mpos == (20.0, 30.0, 0.0)


def test_missing_ok_times_out_and_blocks_until_reset(serve: Serve, connect: Connect, config: Config) -> None:
    """It should raise NoResponse when an `ok` never comes and refuse further lines until a soft reset."""
    server = serve(config(FaultConfig(missing_ok_lines=frozenset({4}))))
    gantry = connect(server.path)
    gantry.home()
    started = time.monotonic()
    with pytest.raises(NoResponse) as caught:
        gantry.move_to(30.0, 30.0)
    assert time.monotonic() - started >= 0.9
    assert caught.value.line == "G0 X30 Y30"
    with pytest.raises(NoResponse, match="soft reset first"):
        gantry.move_to(40.0, 40.0)
    with server.locked():
        assert server.device.lines_received == 4
    gantry.reset()
    gantry.move_to(40.0, 40.0)
    gantry.wait_idle()
    assert gantry.position() == Position(40.0, 40.0, 0.0)


def test_slow_ok_within_timeout_is_fine(serve: Serve, connect: Connect, config: Config) -> None:
    """It should tolerate a 0.2 s response latency (below the 1 s timeout)."""
    gantry = connect(serve(config(FaultConfig(ok_latency_s=0.2))).path)
    gantry.home()
    gantry.move_to(5.0, 5.0)
    gantry.wait_idle()
    assert gantry.position() == Position(5.0, 5.0, 0.0)


def test_slow_ok_beyond_timeout_is_no_response(serve: Serve, connect: Connect, config: Config) -> None:
    """It should raise NoResponse when the latency exceeds the response timeout."""
    gantry = connect(serve(config(FaultConfig(ok_latency_s=1.5))).path)
    with pytest.raises(NoResponse) as caught:
        gantry.unlock()
    assert caught.value.line == "$X" and caught.value.timeout_s == 1.0


def test_no_banner_at_all(serve: Serve, connect: Connect, config: Config) -> None:
    """It should raise NoResponse from open when the board never prints a banner (nor after 0x18)."""
    server = serve(config(boot_delay_s=30.0))
    with pytest.raises(NoResponse, match="banner"):
        connect(server.path)


def test_auto_reset_on_reopen_forgets_position(serve: Serve, connect: Connect) -> None:
    """It should see the Uno reboot on reopen: the controller says 0,0,0, the gantry trusts nothing until homed."""
    server = serve()
    first = connect(server.path)
    first.home()
    first.move_to(100.0, 100.0)
    first.wait_idle()
    first.close()
    time.sleep(0.05)  # the fake sees a re-open only if the port stayed closed for at least one poll (2 ms)
    second = connect(server.path)
    assert second.position() is None and not second.snapshot().position_trusted
    assert second.link.state is LinkState.ALARM_LOCKED
    reboot = server.events()[-1]
    assert reboot.kind is HeadEventKind.RESET and (reboot.x_mm, reboot.y_mm) == (100.0, 100.0)
    assert second.status().mpos == (0.0, 0.0, 0.0)


def test_hold_and_resume_mid_move(serve: Serve, connect: Connect, config: Config) -> None:
    """It should stop in Hold on `!` and finish the move after `~`."""
    slow_xy = {**FAST_MOTION, 110: 20000.0, 111: 20000.0}  # about 2 s for the move: a loaded machine cannot miss it
    gantry = connect(serve(config(settings=slow_xy)).path)
    gantry.home()
    gantry.move_to(*PLACE)
    _wait_for_state(gantry, MachineState.RUN)
    gantry.hold()
    time.sleep(0.2)
    report = gantry.status()
    assert report.state is MachineState.HOLD and report.mpos is not None and report.mpos[0] < PLACE[0]
    gantry.resume()
    gantry.wait_idle()
    assert gantry.position() == Position(*PLACE)


def test_release_in_alarm_lock_sends_nothing(serve: Serve, connect: Connect, config: Config) -> None:
    """It should treat release() during an alarm lock as done: GRBL's reset already switched M8 off (and an
    M9 would only earn error:9)."""
    server = serve(config(FaultConfig(alarm_after_lines=7, fault_delay_s=0.05)))
    gantry = connect(server.path)
    _pick(gantry)
    gantry.move_to(*PLACE)
    with pytest.raises(GrblAlarm):
        gantry.wait_idle()
    gantry.reset()
    with server.locked():
        before = server.device.lines_received
    gantry.release()
    with server.locked():
        assert server.device.lines_received == before
    assert gantry.snapshot().gripper_on is False
    gantry.home()


def test_host_gripper_released_in_alarm_lock(serve: Serve, connect: Connect, config: Config) -> None:
    """It should switch a host-driven gripper off during an alarm lock without any G-code (no sync possible)."""
    driven: list[bool] = []
    server = serve(config(FaultConfig(alarm_after_lines=7, fault_delay_s=0.05)))
    gantry = connect(server.path, gripper=driven.append)
    gantry.home()
    gantry.move_to(*PICK)
    gantry.grip()
    gantry.move_to(*PLACE)
    with pytest.raises(GrblAlarm) as caught:
        gantry.wait_idle()
    assert caught.value.snapshot is not None and caught.value.snapshot.gripper_on is True
    gantry.reset()
    gantry.release()
    assert driven == [True, False]
    assert gantry.snapshot().gripper_on is False


def test_alarm_while_idle_is_raised_by_the_next_call(serve: Serve, connect: Connect, config: Config) -> None:
    """It should raise an ALARM that arrived while nothing was in flight from the next poll or command."""
    server = serve(config(FaultConfig(alarm_after_lines=4, fault_delay_s=0.4)))
    gantry = connect(server.path)
    gantry.home()
    gantry.move_to(20.0, 20.0)
    gantry.wait_idle()
    with pytest.raises(GrblAlarm) as caught:
        gantry.link.poll(1.0)
    assert caught.value.code == 1
    with pytest.raises(GrblAlarm):
        gantry.move_to(30.0, 30.0)


def test_reset_while_idle_is_raised_by_the_next_command(serve: Serve, connect: Connect, config: Config) -> None:
    """It should raise ControllerReset for a banner that arrived between commands, then need homing."""
    server = serve(config(FaultConfig(reset_after_lines=5, fault_delay_s=0.2)))
    gantry = connect(server.path)
    gantry.home()
    gantry.move_to(20.0, 20.0)
    gantry.wait_idle()
    time.sleep(0.5)
    with pytest.raises(ControllerReset):
        gantry.move_to(30.0, 30.0)
    assert not gantry.snapshot().position_trusted
    gantry.home()
