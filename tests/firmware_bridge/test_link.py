"""GrblLink through a real pty and pyserial to the fake GRBL device: opening, flow control, replies, routing."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

import pytest
import serial

from firmware_bridge import FakeGrblServer, GrblError, GrblLink, LinkState, LinkTimings
from firmware_bridge.fake_config import FakeGrblConfig
from firmware_bridge.protocol import Feedback, PushMessage, Setting, StatusReport
from firmware_bridge.transport import SerialTransport


@pytest.fixture
def links(link_timings: LinkTimings) -> Iterator[Callable[[str], GrblLink]]:
    """Open links on device paths (closed at the end)."""
    opened: list[GrblLink] = []

    def make(path: str) -> GrblLink:
        link = GrblLink(SerialTransport(path), timings=link_timings)
        opened.append(link)
        return link

    yield make
    for link in opened:
        link.close()


def test_open_waits_for_auto_reset_banner(
    serve: Callable[..., FakeGrblServer], links: Callable[[str], GrblLink], config: Callable[..., FakeGrblConfig]
) -> None:
    """It should wait out the Uno's reset-on-open, read the banner and the alarm-lock hint."""
    server = serve(config(boot_delay_s=0.3))
    link = links(server.path)
    started = time.monotonic()
    banner = link.open()
    assert time.monotonic() - started >= 0.25
    assert banner.version == "1.1h"
    assert link.state is LinkState.ALARM_LOCKED
    assert [e.detail for e in server.events()] == ["power-on", "power-cycle"]


def test_open_without_auto_reset_sends_soft_reset(
    serve: Callable[..., FakeGrblServer], links: Callable[[str], GrblLink], config: Callable[..., FakeGrblConfig]
) -> None:
    """It should soft-reset an ESP32-style board that prints no banner on open, and get the banner then."""
    server = serve(config(reset_on_open=False))
    time.sleep(0.1)
    link = links(server.path)
    assert link.open(expect_reset=False).version == "1.1h"
    assert [e.detail for e in server.events()] == ["power-on", "soft reset"]


def test_settings_arrive_as_reply_pushes(
    serve: Callable[..., FakeGrblServer], links: Callable[[str], GrblLink]
) -> None:
    """It should return the `$$` settings as the pushes of the reply."""
    link = links(serve().path)
    link.open()
    reply = link.send("$$")
    settings = {p.number: float(p.value) for p in reply.pushes if isinstance(p, Setting)}
    assert settings[110] == 120000.0 and settings[22] == 1.0


def test_unlock_changes_state(serve: Callable[..., FakeGrblServer], links: Callable[[str], GrblLink]) -> None:
    """It should leave the alarm lock after `$X` and route the Caution message to subscribers."""
    link = links(serve().path)
    seen: list[PushMessage] = []
    link.subscribe(seen.append)
    link.open()
    link.send("$X")
    assert link.state is LinkState.READY
    assert Feedback("MSG", "Caution: Unlocked") in seen


def test_error_reply_raises_with_line_and_link_continues(
    serve: Callable[..., FakeGrblServer], links: Callable[[str], GrblLink]
) -> None:
    """It should raise GrblError(code, line) for `error:N` and keep the link usable."""
    link = links(serve().path)
    link.open()
    link.send("$X")
    with pytest.raises(GrblError) as caught:
        link.send("G1 X5")
    assert caught.value.code == 22 and caught.value.line == "G1 X5"
    assert "Feed rate" in str(caught.value)
    link.send("G0 X5")
    assert link.state is LinkState.READY


def test_send_response_never_overflows_rx_buffer(
    serve: Callable[..., FakeGrblServer], links: Callable[[str], GrblLink]
) -> None:
    """It should stream 40 lines (about 8 RX buffers' worth, planner full) without losing a byte."""
    server = serve()
    link = links(server.path)
    link.open()
    link.send("$X")
    for i in range(40):
        link.send(f"G0 X{(i % 4) * 0.5 + 0.125:.3f} Y{(i % 3) * 0.5 + 0.5:.3f} Z-{i % 2}.25")
    link.send("G4 P0.01", timeout_s=10.0)
    with server.locked():
        assert server.device.dropped_bytes == 0
        assert server.device.lines_received == 42


def test_writing_without_flow_control_loses_bytes(serve: Callable[..., FakeGrblServer]) -> None:
    """It should show why flow control matters: 300 bytes written behind a dwell overflow the 128-byte RX ring."""
    server = serve()
    port = serial.serial_for_url(server.path, baudrate=115200, timeout=0.5)
    try:
        time.sleep(0.1)
        port.write(b"$X\n")
        time.sleep(0.1)
        port.write(b"G4 P0.3\n" + b"G0 X1 Y1\n" * 33)
        time.sleep(0.6)
        with server.locked():
            dropped = server.device.dropped_bytes
            received = server.device.lines_received
        assert dropped >= 300 - 8 - 128 - 9
        assert received < 1 + 1 + 33
    finally:
        port.close()


def test_request_status_parses_the_report(
    serve: Callable[..., FakeGrblServer], links: Callable[[str], GrblLink]
) -> None:
    """It should return the next status report after `?`."""
    link = links(serve().path)
    link.open()
    report = link.request_status()
    assert isinstance(report, StatusReport) and report.mpos == (0.0, 0.0, 0.0)
    assert link.last_status == report
