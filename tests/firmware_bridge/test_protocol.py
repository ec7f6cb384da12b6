"""The pure parser against recorded-style controller transcripts (GRBL 1.1h, grblHAL, FluidNC)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_bridge.codes import alarm_meaning, alarm_requires_homing, error_meaning
from firmware_bridge.protocol import (
    AlarmMessage,
    Banner,
    ErrorReply,
    Feedback,
    Firmware,
    Garbage,
    Item,
    MachineState,
    Ok,
    Setting,
    StartupResult,
    StatusReport,
    is_response,
    parse_line,
    parse_status,
)

TRANSCRIPTS = Path(__file__).parent / "transcripts"


def _received(name: str) -> list[Item]:
    """Parse every received line of a transcript (comments and GRBL's blank pre-banner lines skipped)."""
    raw = (TRANSCRIPTS / name).read_bytes()
    lines = [line for line in raw.split(b"\n") if line.strip() and not line.startswith(b"# ")]
    return [parse_line(line + b"\r\n") for line in lines]


def test_grbl_session_classifies_every_line() -> None:
    """It should classify every line of a GRBL 1.1h session without a single Garbage item."""
    items = _received("grbl11h_session.txt")
    assert not [i for i in items if isinstance(i, Garbage)]
    assert items[0] == Banner(Firmware.GRBL, "1.1h", "Grbl 1.1h ['$' for help]")
    assert items[1] == Feedback("MSG", "'$H'|'$X' to unlock")
    assert Feedback("OPT", "V,15,128") in items
    assert [i.code for i in items if isinstance(i, ErrorReply)] == [9, 20, 22, 1, 2, 11]
    assert [i.code for i in items if isinstance(i, AlarmMessage)] == [3, 9, 1]
    assert StartupResult("G54G21:ok") in items


def test_responses_are_only_ok_and_error() -> None:
    """It should count as responses only `ok` and `error:N` (`>G54G21:ok` and alarms are push messages)."""
    items = _received("grbl11h_session.txt")
    responses = [i for i in items if is_response(i)]
    assert len(responses) == sum(1 for i in items if isinstance(i, Ok | ErrorReply))
    assert not is_response(StartupResult("G54G21:ok")) and not is_response(AlarmMessage(1))


def test_status_report_with_every_optional_field() -> None:
    """It should read Bf, FS, Pn, Ov and A whatever their order."""
    report = parse_status("<Idle|MPos:50.000,30.000,0.000|Bf:15,128|FS:0,1000|Pn:PXYZRHS|Ov:100,100,100|A:SF>")
    assert isinstance(report, StatusReport)
    assert report.state is MachineState.IDLE
    assert report.mpos == (50.0, 30.0, 0.0)
    assert report.buffer == (15, 128)
    assert (report.feed, report.spindle) == (0.0, 1000.0)
    assert report.pins == "PXYZRHS"
    assert report.overrides == (100.0, 100.0, 100.0)
    assert report.accessories == "SF"


def test_status_fields_in_any_order() -> None:
    """It should give the same report whatever the order of the fields after the state."""
    a = parse_status("<Run|MPos:1.000,2.000,3.000|FS:500,0|WCO:0.000,1.000,0.000|Ln:42>")
    b = parse_status("<Run|Ln:42|WCO:0.000,1.000,0.000|FS:500,0|MPos:1.000,2.000,3.000>")
    assert a == b
    assert isinstance(a, StatusReport) and a.line_number == 42 and a.wco == (0.0, 1.0, 0.0)


def test_hold_substates() -> None:
    """It should split `Hold:1` into state HOLD and substate 1."""
    items = [i for i in _received("grbl11h_session.txt") if isinstance(i, StatusReport)]
    holds = [(i.state, i.substate) for i in items if i.state is MachineState.HOLD]
    assert holds == [(MachineState.HOLD, 1), (MachineState.HOLD, 0)]


def test_settings_dump() -> None:
    """It should read a full `$$` dump as Setting items followed by `ok`."""
    items = _received("grbl11h_settings.txt")
    settings = {i.number: i.value for i in items if isinstance(i, Setting)}
    assert len(settings) == 34
    assert settings[110] == "12000.000" and settings[22] == "1" and settings[132] == "50.000"
    assert items[-1] == Ok()


def test_grblhal_banner_and_extra_fields() -> None:
    """It should recognise the grblHAL banner, its 1024-byte OPT and keep unknown status fields."""
    items = _received("grblhal_session.txt")
    assert items[0] == Banner(Firmware.GRBLHAL, "1.1f", "GrblHAL 1.1f ['$' or '$HELP' for help]")
    assert Feedback("OPT", "VNML+,100,1024,3,0") in items
    status = next(i for i in items if isinstance(i, StatusReport))
    assert status.buffer == (100, 1023) and status.accessories == "" and status.extra == (("TLR", "0"),)


def test_fluidnc_boot_noise_is_garbage_and_banner_recognised() -> None:
    """It should turn ESP32 boot-ROM text into Garbage and read the FluidNC banner and WPos reports."""
    items = _received("fluidnc_boot.txt")
    garbage = [i for i in items if isinstance(i, Garbage)]
    assert len(garbage) == 3
    banner = next(i for i in items if isinstance(i, Banner))
    assert banner.firmware is Firmware.FLUIDNC and banner.version == "3.7"
    reports = [i for i in items if isinstance(i, StatusReport)]
    assert reports[0].wpos == (10.0, 20.0, -1.0) and reports[0].mpos is None and reports[0].wco == (-5.0, 0.0, 1.0)
    assert reports[2].state is MachineState.ALARM and reports[2].pins == "Y"


@pytest.mark.parametrize(
    "line",
    [
        b"<Idle|MPos:0.000,0.0",
        b"<Idle|MPos:0.000,0.000,0.000|FS:0,0",
        b"<Bogus|MPos:0,0,0>",
        b"<Idle|MPos:a,b,c>",
        b"<Idle|FS:0,0>",
        b"<Idle|MPos>",
        b"o",
        b"okay",
        b"error:",
        b"ALARM:x",
        b"\xff\xfe\x00",
        b"[MSG:Caution: Unl",
        b"Grbl",
    ],
)
def test_half_and_noisy_lines_are_garbage(line: bytes) -> None:
    """It should return Garbage (with the raw text and a reason) for half or noisy lines, never raise."""
    item = parse_line(line + b"\r\n")
    assert isinstance(item, Garbage)
    assert item.reason


@given(st.binary(max_size=120))
def test_parser_never_raises(data: bytes) -> None:
    """It should classify any byte string without raising."""
    assert parse_line(data) is not None


def test_code_tables_are_data() -> None:
    """It should give documented meanings and the homing requirement from the shipped table."""
    assert "Unsupported" in error_meaning(20)
    assert "Hard limit" in alarm_meaning(1)
    assert alarm_requires_homing(1) and not alarm_requires_homing(2) and alarm_requires_homing(999)
    assert error_meaning(999) == "unknown error code 999"
