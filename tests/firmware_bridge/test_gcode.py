"""The pure G-code builders and the line checks."""

from __future__ import annotations

import math

import pytest

from firmware_bridge import gcode
from firmware_bridge.errors import GcodeError


def test_rapid_formats_millimetres_compactly() -> None:
    """It should write at most 3 decimals and drop trailing zeros."""
    assert gcode.rapid(12.5, 40.0, -3.25) == "G0 X12.5 Y40 Z-3.25"
    assert gcode.rapid(0.0004, y_mm=-0.0001) == "G0 X0 Y0"
    assert gcode.rapid(z_mm=-20) == "G0 Z-20"


def test_linear_and_feed() -> None:
    """It should include the feed on G1 and build a bare feed word."""
    assert gcode.linear(1.0, 2.0, feed_mm_per_min=6000) == "G1 X1 Y2 F6000"
    assert gcode.set_feed(1500.5) == "G1 F1500.5"


def test_fixed_commands() -> None:
    """It should spell the system and modal commands as GRBL expects."""
    assert (gcode.HOME, gcode.UNLOCK, gcode.SETTINGS, gcode.BUILD_INFO) == ("$H", "$X", "$$", "$I")
    assert (gcode.ABSOLUTE, gcode.MILLIMETRES, gcode.COOLANT_ON, gcode.COOLANT_OFF) == ("G90", "G21", "M8", "M9")
    assert gcode.SYNC == "G4 P0.01"
    assert gcode.dwell(0.25) == "G4 P0.25"
    assert gcode.setting(110, 12000) == "$110=12000"


def test_move_without_axes_is_rejected() -> None:
    """It should refuse a move with no axis word."""
    with pytest.raises(GcodeError):
        gcode.rapid()


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf])
def test_non_finite_numbers_are_rejected(value: float) -> None:
    """It should refuse NaN and infinities."""
    with pytest.raises(GcodeError):
        gcode.rapid(value, 0.0)


def test_line_longer_than_79_characters_is_rejected() -> None:
    """It should refuse a line GRBL would answer with error:11."""
    assert gcode.checked("G0 X" + "1" * 75) == "G0 X" + "1" * 75
    with pytest.raises(GcodeError, match="79"):
        gcode.checked("G0 X" + "1" * 76)


@pytest.mark.parametrize("line", ["G0 X1 (ok?)", "M8!", "G0~", "G0 X1\x18", "G0 X1\n", "G0 X\u00e9", ""])
def test_realtime_and_control_characters_are_rejected(line: str) -> None:
    """It should refuse real-time bytes, control characters, non-ASCII and empty lines."""
    with pytest.raises(GcodeError):
        gcode.checked(line)


def test_negative_feed_and_dwell_are_rejected() -> None:
    """It should refuse a non-positive feed and a negative dwell."""
    with pytest.raises(GcodeError):
        gcode.linear(1.0, feed_mm_per_min=0)
    with pytest.raises(GcodeError):
        gcode.dwell(-1.0)


def test_jog_builder() -> None:
    """It should build absolute and relative jogs with their feed."""
    assert gcode.jog(10.0, 20.0, feed_mm_per_min=3000) == "$J=G90 X10 Y20 F3000"
    assert gcode.jog(z_mm=-1.5, feed_mm_per_min=600, relative=True) == "$J=G91 Z-1.5 F600"
    with pytest.raises(GcodeError):
        gcode.jog(1.0, feed_mm_per_min=-1)
