"""grblHAL and FluidNC flavours of the fake: the same link and gantry work with their banners and line ends."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from firmware_bridge import FakeGrblConfig, FakeGrblServer, GrblGantry, Position
from firmware_bridge.fake_config import Flavour
from firmware_bridge.fake_grbl import FakeGrbl
from firmware_bridge.protocol import Firmware


def _lines(device: FakeGrbl, now: float) -> list[str]:
    return [line for line in device.take_output(now).decode("ascii", "replace").split("\r\n") if line]


@pytest.mark.parametrize(("flavour", "oks"), [(Flavour.GRBL, 2), (Flavour.GRBLHAL, 1), (Flavour.FLUIDNC, 1)])
def test_crlf_line_ends(flavour: Flavour, oks: int) -> None:
    """It should answer `G21\\r\\n` with two `ok`s on GRBL 1.1 and one on grblHAL and FluidNC."""
    device = FakeGrbl(FakeGrblConfig(boot_delay_s=0.0, flavour=flavour), 0.0)
    device.advance(0.01)
    device.take_output(0.01)
    device.receive(b"$X\n", 0.01)
    device.take_output(0.01)
    device.receive(b"G21\r", 0.02)
    device.receive(b"\n", 0.03)
    assert _lines(device, 0.03).count("ok") == oks


def test_fluidnc_power_on_prints_boot_noise_then_banner() -> None:
    """It should print the ESP32 boot lines and FluidNC's info message before its Grbl 3.7 banner."""
    device = FakeGrbl(FakeGrblConfig(boot_delay_s=0.0, flavour=Flavour.FLUIDNC), 0.0)
    device.advance(0.01)
    lines = _lines(device, 0.01)
    assert lines[0].startswith("ets ") and lines[1].startswith("[MSG:INFO: FluidNC")
    assert lines[2] == "Grbl 3.7 [FluidNC v3.7.10 (wifi) '$' for help]"


@pytest.mark.parametrize(
    "case",
    [(Flavour.GRBLHAL, Firmware.GRBLHAL, True), (Flavour.FLUIDNC, Firmware.FLUIDNC, False)],
)
def test_gantry_drives_other_firmwares(
    case: tuple[Flavour, Firmware, bool],
    serve: Callable[..., FakeGrblServer],
    connect: Callable[..., GrblGantry],
    config: Callable[..., FakeGrblConfig],
) -> None:
    """It should open (waiting for a reset banner, or soft-resetting an ESP32), home, move and grip."""
    flavour, firmware, reset_on_open = case
    server = serve(config(flavour=flavour, rx_buffer_bytes=1024, reset_on_open=reset_on_open))
    gantry = connect(server.path, expect_reset=reset_on_open)
    assert gantry.link.banner is not None and gantry.link.banner.firmware is firmware
    gantry.home()
    gantry.move_to(30.0, 40.0, -5.0)
    gantry.grip()
    assert gantry.position() == Position(30.0, 40.0, -5.0)
