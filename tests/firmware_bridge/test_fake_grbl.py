"""The fake GRBL 1.1h device on an injected clock (no pty): buffers, timing, alarms, settings, events."""

from __future__ import annotations

import pytest

from firmware_bridge.fake_config import FakeGrblConfig, FaultConfig, FaultKind, HeadEventKind
from firmware_bridge.fake_grbl import DeviceState, FakeGrbl


class Host:
    """Drives a FakeGrbl on a manual clock and collects its output lines."""

    def __init__(self, config: FakeGrblConfig | None = None) -> None:
        self.t = 0.0
        self.dev = FakeGrbl(config or FakeGrblConfig(boot_delay_s=0.01), self.t)
        self.lines: list[str] = []
        self.at(0.02)

    def at(self, t: float) -> list[str]:
        """Advance to time t; returns the lines printed meanwhile."""
        self.t = t
        self.dev.advance(t)
        return self._collect()

    def send(self, data: bytes) -> list[str]:
        """Write bytes at the current time; returns the lines printed at once."""
        self.dev.receive(data, self.t)
        return self._collect()

    def _collect(self) -> list[str]:
        new = [line for line in self.dev.take_output(self.t).decode("ascii", "replace").split("\r\n") if line]
        self.lines += new
        return new


def unlocked() -> Host:
    host = Host()
    host.send(b"$X\n")
    return host


def test_power_on_prints_banner_and_alarm_lock() -> None:
    """It should boot into the homing lock: banner, then the `$H`|`$X` hint."""
    host = Host()
    assert host.lines == ["Grbl 1.1h ['$' for help]", "[MSG:'$H'|'$X' to unlock]"]
    assert host.send(b"G0 X10\n") == ["error:9"]
    assert host.send(b"$X\n") == ["[MSG:Caution: Unlocked]", "ok"]


def test_port_opened_as_the_power_on_boot_ends_gives_one_banner() -> None:
    """A hard reset (the port's open) at the very moment an earlier boot would end restarts that boot: the host
    sees one banner, not the old boot's and then the new one's (taken for an unexpected reset)."""
    device = FakeGrbl(FakeGrblConfig(boot_delay_s=0.05), 0.0)
    device.power_cycle(0.05)
    out = b""
    for t in (0.05, 0.08, 0.10, 0.2):
        device.advance(t)
        out += device.take_output(t)
    assert out.count(b"Grbl 1.1h") == 1 and device.state is not DeviceState.BOOTING


def test_crlf_gives_two_oks() -> None:
    """It should treat CR and LF each as a line end, as GRBL 1.1h does."""
    host = unlocked()
    assert host.send(b"G21\r\n") == ["ok", "ok"]


def test_trapezoidal_move_timing() -> None:
    """It should take 0.7 s for 100 mm at 200 mm/s and 1000 mm/s² (0.2 s ramps, 0.3 s cruise)."""
    host = unlocked()
    host.send(b"G0 X100\n")
    host.at(0.02 + 0.1)
    assert host.dev.reported_position()[0] == pytest.approx(5.0, abs=0.01)
    host.at(0.02 + 0.45)
    assert host.dev.reported_position()[0] == pytest.approx(20 + 200 * 0.25, abs=0.01)
    host.at(0.02 + 0.69)
    assert host.send(b"?")[0].startswith("<Run|")
    host.at(0.02 + 0.701)
    assert host.send(b"?")[0].startswith("<Idle|MPos:100.000,0.000,0.000|")


def test_m8_is_answered_after_motion_ends() -> None:
    """It should hold the `ok` of M8 until the queued move has finished, then log the grip there."""
    host = unlocked()
    assert host.send(b"G0 X100\n") == ["ok"]
    assert host.send(b"M8\n") == []
    assert host.at(0.5) == []
    assert host.at(0.75) == ["ok"]
    grip = [e for e in host.dev.events if e.kind is HeadEventKind.GRIP]
    assert len(grip) == 1 and grip[0].x_mm == 100.0


def test_dwell_is_answered_after_its_time() -> None:
    """It should answer `G4 P0.2` 0.2 s after the planner empties."""
    host = unlocked()
    host.send(b"G4 P0.2\n")
    assert host.at(0.2) == []
    assert host.at(0.23) == ["ok"]


def test_rx_buffer_overflow_drops_bytes() -> None:
    """It should drop bytes beyond 128 waiting in the RX buffer (here behind a dwell), losing lines."""
    host = unlocked()
    burst = b"G4 P0.5\n" + b"G0 X1 Y1\n" * 30
    host.send(burst)
    assert host.dev.dropped_bytes == len(burst) - 8 - 128
    host.at(2.0)
    assert host.lines.count("ok") == 1 + 1 + 128 // 9
    assert host.dev.lines_received < 31


def test_realtime_bytes_bypass_a_full_buffer() -> None:
    """It should answer `?` even while the RX buffer is full."""
    host = unlocked()
    host.send(b"G4 P0.5\n" + b"G0 X1 Y1\n" * 30)
    assert host.send(b"?")[0].startswith("<Idle|")


def test_planner_holds_fifteen_blocks() -> None:
    """It should acknowledge 15 moves at once and the 16th only when a block frees."""
    host = unlocked()
    for i in range(16):
        host.send(f"G0 X{i + 1}\n".encode())
    assert host.lines.count("ok") == 1 + 15
    host.at(0.2)
    assert host.lines.count("ok") == 1 + 16


def test_feed_hold_and_resume() -> None:
    """It should decelerate to Hold:0 short of the target on `!` and finish the move after `~`."""
    host = unlocked()
    host.send(b"G0 X300\n")
    host.at(0.5)
    host.send(b"!")
    host.at(1.0)
    report = host.send(b"?")[0]
    assert report.startswith("<Hold:0|")
    held_x = host.dev.reported_position()[0]
    assert 50.0 < held_x < 300.0
    host.send(b"~")
    host.at(3.0)
    assert host.dev.reported_position()[0] == pytest.approx(300.0)


def test_soft_limit_is_a_critical_alarm() -> None:
    """It should answer a move beyond travel with ALARM:2 and then nothing, not even `?`, until a reset."""
    host = unlocked()
    assert host.send(b"G0 X-5\n") == ["ALARM:2", "[MSG:Reset to continue]"]
    assert host.send(b"?") == []
    assert host.send(b"$X\n") == []
    assert host.send(b"\x18") == ["Grbl 1.1h ['$' for help]", "[MSG:'$H'|'$X' to unlock]"]
    assert host.send(b"$X\n") == ["[MSG:Caution: Unlocked]", "ok"]


def test_reset_while_moving_raises_alarm_3_and_drops_the_magnet() -> None:
    """It should stop at once on 0x18 in motion, print ALARM:3 before the banner and release M8."""
    host = unlocked()
    host.send(b"M8\nG0 X300\n")
    host.at(0.3)
    out = host.send(b"\x18")
    assert out[:2] == ["ALARM:3", "Grbl 1.1h ['$' for help]"]
    kinds = [e.kind for e in host.dev.events][-3:]
    assert kinds == [HeadEventKind.RELEASE, HeadEventKind.ALARM, HeadEventKind.RESET]
    assert not host.dev.gripping


def test_homing_takes_time_and_ignores_status() -> None:
    """It should ignore `?` while homing (100 mm at the 50 mm/s seek rate) and answer `ok` back at 0,0,0."""
    host = unlocked()
    host.send(b"G0 X100\n")
    host.at(1.0)
    host.send(b"$H\n")
    assert host.send(b"?") == []
    assert host.at(2.9) == []
    assert host.at(3.1) == ["ok"]
    assert host.dev.reported_position() == (0.0, 0.0, 0.0)


@pytest.mark.parametrize(
    ("line", "reply"),
    [
        (b"G99\n", "error:20"),
        (b"G1 X5\n", "error:22"),
        (b"G0 X1.2.3\n", "error:1"),
        (b"G0 XY\n", "error:2"),
        (b"G0 X1 X2\n", "error:25"),
        (b"G0 G1 X2\n", "error:21"),
        (b"G4\n", "error:28"),
        (b"$Z\n", "error:2"),
        (b"$999=1\n", "error:3"),
        (b"$110\n", "error:3"),
        (b"$110=abc\n", "error:2"),
        (b"G0 X" + b"1" * 80 + b"\n", "error:11"),
        (b"g0 x10 (comment) ; more\n", "ok"),
        (b"G1 F1500\n", "ok"),
    ],
)
def test_error_codes(line: bytes, reply: str) -> None:
    """It should answer malformed or unsupported lines with GRBL's error codes."""
    host = unlocked()
    assert host.send(line)[-1] == reply


def test_settings_dump_and_write() -> None:
    """It should print `$$` and accept writing a known setting."""
    host = unlocked()
    assert host.send(b"$110=6000\n") == ["ok"]
    out = host.send(b"$$\n")
    assert "$110=6000.000" in out and "$22=1" in out and out[-1] == "ok"


def test_injected_hard_limit_alarm_mid_move() -> None:
    """It should raise ALARM:1 and `[MSG:Reset to continue]` `fault_delay_s` after the configured line."""
    faults = FaultConfig(alarm_after_lines=2, fault_delay_s=0.2)
    host = Host(FakeGrblConfig(boot_delay_s=0.01, faults=faults))
    host.send(b"$X\nG0 X300\n")
    assert host.at(0.3) == ["ALARM:1", "[MSG:Reset to continue]"]
    assert host.dev.state is DeviceState.CRITICAL
    assert 0.0 < host.dev.reported_position()[0] < 300.0


def test_fault_config_parse_and_validation() -> None:
    """It should parse `key=value` fault settings and reject unknown keys and bad ranges."""
    parsed = FaultConfig.parse("alarm_after_lines=5,fault_delay_s=0.1,missing_ok_lines=3;7")
    assert parsed == FaultConfig(alarm_after_lines=5, fault_delay_s=0.1, missing_ok_lines=frozenset({3, 7}))
    with pytest.raises(ValueError, match="unknown fault"):
        FaultConfig.parse("explode=1")
    with pytest.raises(ValueError):
        FaultConfig(garbage_rate=2.0)
    with pytest.raises(ValueError):
        FakeGrblConfig(settings={999: 1.0})


def test_reset_in_completed_hold_keeps_position_without_alarm() -> None:
    """It should not raise ALARM:3 for a reset once a feed hold has stopped the head (GRBL keeps position)."""
    host = unlocked()
    host.send(b"G0 X300\n")
    host.at(0.5)
    host.send(b"!")
    host.at(1.5)
    out = host.send(b"\x18")
    assert out == ["Grbl 1.1h ['$' for help]"]
    assert host.send(b"G0 X0\n") == ["ok"]


def test_single_fault_configs() -> None:
    """It should build one-fault configurations for episode loops."""
    assert FaultConfig.single(FaultKind.DISCONNECT, 7, 0.1) == FaultConfig(disconnect_after_lines=7, fault_delay_s=0.1)
    assert FaultConfig.single(FaultKind.RESET, 3).reset_after_lines == 3
    assert FaultConfig.single(FaultKind.ALARM, 4, 0.2).alarm_after_lines == 4
    assert FaultConfig.single(FaultKind.MISSING_OK, 5).missing_ok_lines == frozenset({5})
    assert FaultConfig.single(FaultKind.SLOW_OK, delay_s=0.3).ok_latency_s == 0.3
    assert FaultConfig.single(FaultKind.GARBAGE, seed=9) == FaultConfig(garbage_rate=0.3, seed=9)


def test_jog_moves_and_reports_jog_state() -> None:
    """It should run `$J=` as a feed move in state Jog and end Idle at the target."""
    host = unlocked()
    assert host.send(b"$J=G90 X50 F6000\n") == ["ok"]
    host.at(0.1)
    assert host.send(b"?")[0].startswith("<Jog|")
    host.at(1.2)
    assert host.send(b"?")[0].startswith("<Idle|MPos:50.000,0.000,0.000|")


def test_jog_beyond_travel_is_error_15_not_alarm() -> None:
    """It should refuse a jog beyond travel with error:15 and stay usable (no alarm)."""
    host = unlocked()
    assert host.send(b"$J=G91 X-5 F6000\n") == ["error:15"]
    assert host.send(b"$J=G91 X5\n") == ["error:22"]
    assert host.send(b"$J=G91 M8 X5 F100\n") == ["error:16"]
    assert host.send(b"G0 X1\n") == ["ok"]


def test_jog_cancel_stops_short() -> None:
    """It should decelerate and drop the jog on 0x85."""
    host = unlocked()
    host.send(b"$J=G90 X300 F6000\n")
    host.at(0.5)
    host.send(b"\x85")
    host.at(1.0)
    report = host.send(b"?")[0]
    assert report.startswith("<Idle|")
    assert 0.0 < host.dev.reported_position()[0] < 100.0


def test_jog_in_alarm_is_error_8() -> None:
    """It should refuse jogging while alarm-locked (GRBL: only from Idle)."""
    host = Host()
    assert host.send(b"$J=G91 X5 F100\n") == ["error:8"]


def test_hold_while_idle_blocks_later_motion_until_resume() -> None:
    """It should enter Hold:0 on `!` even when idle, queue later moves without running them, and run on `~`."""
    host = unlocked()
    host.send(b"!")
    assert host.send(b"?")[0].startswith("<Hold:0|")
    assert host.send(b"G0 X10\n") == ["ok"]
    host.at(1.0)
    assert host.dev.reported_position()[0] == 0.0
    host.send(b"~")
    host.at(1.5)
    assert host.dev.reported_position()[0] == 10.0
