"""Config keys for the gantry's serial port, the camera's sente side and the simulated human's strength."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from controller.config import config_from_text, load_config
from hardware.errors import ConfigError

REPO = Path(__file__).resolve().parents[2]
HARDWARE = (REPO / "docs" / "config.example.toml").read_text(encoding="utf-8")
STYLES = ("kanji_light",)


def _with_port(port: str) -> str:
    return HARDWARE.replace('# port = "/dev/ttyACM0"', f"port = {port}", 1)


def test_gantry_port_is_read_and_left_out_of_the_hardware_sections(tmp_path: Path) -> None:
    """`[gantry] port` is the config's gantry port; the hardware settings load as without it."""
    config = config_from_text(_with_port('"/dev/ttyUSB1"'), tmp_path, STYLES)
    assert config.gantry_port == "/dev/ttyUSB1"
    assert config.hardware == config_from_text(HARDWARE, tmp_path, STYLES).hardware


def test_gantry_port_absent_is_none() -> None:
    """Without the key there is no configured port (the --port flag or an error says what to do)."""
    assert load_config(REPO / "docs" / "config.example.toml").gantry_port is None


@pytest.mark.parametrize(("value", "needle"), [("3", "must be a serial device"), ('"COM3"', "device path")])
def test_bad_gantry_port_is_refused(tmp_path: Path, value: str, needle: str) -> None:
    """A port that is not text, or names no device path or URL, is refused naming [gantry] port."""
    with pytest.raises(ConfigError, match=re.escape(needle)) as info:
        config_from_text(_with_port(value), tmp_path, STYLES)
    assert (info.value.section, info.value.key) == ("gantry", "port")


@pytest.mark.parametrize(("value", "expected"), [('"left"', "left"), ("90", 90.0), ("-45.5", -45.5)])
def test_camera_sente_side(tmp_path: Path, value: str, expected: object) -> None:
    """`[camera] sente_side` takes a picture side or a direction in degrees."""
    text = f'[game]\ngantry = false\n[camera]\nkind = "virtual"\nsente_side = {value}\n'
    camera = config_from_text(text, tmp_path, STYLES).camera
    assert camera is not None and camera.sente_side == expected


@pytest.mark.parametrize("value", ['"below"', "400", "true"])
def test_bad_camera_sente_side_is_refused(tmp_path: Path, value: str) -> None:
    """Anything else is refused naming [camera] sente_side and the accepted values."""
    text = f'[game]\ngantry = false\n[camera]\nkind = "virtual"\nsente_side = {value}\n'
    with pytest.raises(ConfigError, match="bottom, top, left, right") as info:
        config_from_text(text, tmp_path, STYLES)
    assert (info.value.section, info.value.key) == ("camera", "sente_side")


def test_camera_sente_side_absent_is_none(tmp_path: Path) -> None:
    """Without the key the reader decides from the pieces."""
    camera = config_from_text('[game]\ngantry = false\n[camera]\nkind = "virtual"\n', tmp_path, STYLES).camera
    assert camera is not None and camera.sente_side is None


def test_sim_human_skill_level(tmp_path: Path) -> None:
    """`[sim] human_skill_level` is read within -20..20; absent means full strength."""
    text = "[game]\ngantry = false\n[sim]\nhuman_skill_level = -5\n"
    assert config_from_text(text, tmp_path, STYLES).sim.human_skill_level == -5
    assert config_from_text("[game]\ngantry = false\n", tmp_path, STYLES).sim.human_skill_level is None
    with pytest.raises(ConfigError, match="above the maximum"):
        config_from_text("[game]\ngantry = false\n[sim]\nhuman_skill_level = 21\n", tmp_path, STYLES)


def test_gantry_commands_load_a_config_with_a_port(tmp_path: Path) -> None:
    """`shogi-robot gantry --config FILE` reads the hardware sections of a config that names its port."""
    from controller.compose import hardware_settings

    path = tmp_path / "robot.toml"
    path.write_text(_with_port('"/dev/ttyACM0"'), encoding="utf-8")
    assert hardware_settings(path) == load_config(REPO / "docs" / "config.example.toml").hardware
