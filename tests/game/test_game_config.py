"""The one TOML config: the documented example loads, and every kind of mistake is named precisely."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from controller.config import CameraKind, config_from_text, engine_header, load_config
from controller.game.settings import ImpasseSetting, Mode
from controller.rules.positions import HANDICAPS, STARTPOS_SFEN
from controller.rules.types import Color
from hardware.errors import ConfigError

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "docs" / "config.example.toml"
STYLES = ("kanji_light", "shogi_cz")


def test_example_config_loads() -> None:
    """It should load the documented example with every section, hardware included."""
    config = load_config(EXAMPLE)
    assert config.game.mode is Mode.PLAY and config.game.engine_side is Color.WHITE
    assert config.game.start_sfen == STARTPOS_SFEN and config.game.impasse is ImpasseSetting.DECLARE_27
    assert (config.clock.main_s, config.clock.byoyomi_s) == (600.0, 30.0)
    assert config.engine.engine == "fairy-stockfish" and config.engine.options == {"USI_Hash": 64}
    assert config.camera is not None and config.camera.kind is CameraKind.VIRTUAL
    assert config.hardware is not None and config.game.journal_dir == EXAMPLE.parent / "games"
    settings = config.game_settings()
    assert settings.opponent_side is Color.WHITE and settings.gantry
    assert config.vision.threads == 1 and config.vision.learn_set


def test_empty_config_without_gantry_gives_defaults(tmp_path: Path) -> None:
    """It should give documented defaults for absent sections (assist mode needs no hardware sections)."""
    config = config_from_text("[game]\ngantry = false\n", tmp_path, STYLES)
    assert config.hardware is None and config.camera is None
    assert config.clock.byoyomi_s == 30.0 and config.sim.human == "engine"
    assert config.vision.threads == 1
    record = config.game_settings(Mode.RECORD)
    assert record.mode is Mode.RECORD and record.opponent_side is None and not record.gantry


def test_handicap_start_and_integer_impasse_rule(tmp_path: Path) -> None:
    """It should resolve a handicap name and accept the impasse rule as a number."""
    config = config_from_text('[game]\ngantry = false\nstart = "bishop"\nimpasse_rule = 24\n', tmp_path, STYLES)
    assert config.game.start_sfen == HANDICAPS["bishop"].sfen and config.game.impasse is ImpasseSetting.DECLARE_24


@pytest.mark.parametrize(
    ("text", "section", "key", "needle"),
    [
        ("[game]\ngantry = false\ncolour = 1\n", "game", "colour", "unknown key"),
        ("[gmae]\n", "gmae", None, "unknown section"),
        ('[game]\ngantry = false\nmode = "blitz"\n', "game", "mode", "must be one of"),
        ('[game]\ngantry = false\nstart = "9/9 b"\n', "game", "start", "9 ranks"),
        ("[game]\ngantry = false\nimpasse_rule = 30\n", "game", "impasse_rule", "must be one of"),
        ('[game]\ngantry = false\nrecord_formats = ["pgn"]\n', "game", "record_formats", "unknown record format"),
        ("[game]\ngantry = true\n", "game", "gantry", "needs the [gantry]"),
        ('[game]\ngantry = false\n[clock]\nmain_s = "ten"\n', "clock", "main_s", "must be a number"),
        ("[game]\ngantry = false\n[clock]\nmain_s = -5\n", "clock", "main_s", "below the minimum"),
        ("[game]\ngantry = false\n[clock]\nbyoyomi_s = 10\nincrement_s = 5\n", "clock", None, "exclusive"),
        ("[game]\ngantry = false\n[engine]\nnodes = 10\ndepth = 3\n", "engine", "depth", "conflicts with nodes"),
        ("[game]\ngantry = false\n[engine]\nskill_level = 30\n", "engine", "skill_level", "above the maximum"),
        ("[game]\ngantry = false\n[engine.options]\nHash = 1.5\n", "engine.options", "Hash", "text, an integer"),
        ("[game]\ngantry = false\n[engine.timeouts]\nlaunch = 3\n", "engine.timeouts", "launch", "unknown key"),
        ('[game]\ngantry = false\n[camera]\nkind = "usb"\n', "camera", "kind", "must be one of"),
        ("[game]\ngantry = false\n[camera]\n", "camera", "kind", "required key is missing"),
        ('[game]\ngantry = false\n[camera]\nkind = "opencv"\n', "camera", "index", "required"),
        ('[game]\ngantry = false\n[camera]\nkind = "virtual"\nindex = 0\n', "camera", "index", "only for"),
        ('[game]\ngantry = false\n[camera]\nkind = "file"\npath = "nope.png"\n', "camera", "path", "does not exist"),
        (
            '[game]\ngantry = false\n[camera]\nkind = "virtual"\nresolution = [640.5, 480]\n',
            "camera",
            "resolution",
            "whole",
        ),
        (
            '[game]\ngantry = false\n[camera]\nkind = "virtual"\n[camera.stands]\nblack = [[1, 2]]\n',
            "camera.stands",
            "black",
            "four [x, y] points",
        ),
        ('[game]\ngantry = false\n[sim]\npiece_style = "comic"\n', "sim", "piece_style", "unknown style"),
        ('[game]\ngantry = false\n[sim]\nhuman = "missing.kif"\n', "sim", "human", "does not exist"),
        ("[game]\ngantry = false\n[sim]\nseed = -1\n", "sim", "seed", "below the minimum"),
        ("[game]\ngantry = false\n[vision]\nthreads = 0\n", "vision", "threads", "below the minimum"),
        ("[game]\ngantry = false\n[vision]\nthreads = 2.5\n", "vision", "threads", "must be an integer"),
    ],
)
def test_errors_name_section_and_key(tmp_path: Path, text: str, section: str, key: str | None, needle: str) -> None:
    """It should refuse the mistake with an error naming the section, the key and what is wrong."""
    with pytest.raises(ConfigError, match=re.escape(needle)) as info:
        config_from_text(text, tmp_path, STYLES)
    assert (info.value.section, info.value.key) == (section, key)


def test_hardware_sections_are_all_or_none(tmp_path: Path) -> None:
    """It should refuse a config with some of the hardware sections only."""
    with pytest.raises(ConfigError, match="section is missing"):
        config_from_text('[gpio]\nbackend = "fake"\n', tmp_path, STYLES)


def test_relative_paths_from_the_config_directory(tmp_path: Path) -> None:
    """It should resolve file paths against the config file's directory and check they exist."""
    (tmp_path / "frames").mkdir()
    (tmp_path / "game.kif").write_text("")
    text = '[game]\ngantry = false\njournal_dir = "out"\n[camera]\nkind = "file"\npath = "frames"\n'
    text += '[sim]\nhuman = "game.kif"\n'
    (tmp_path / "c.toml").write_text(text)
    config = load_config(tmp_path / "c.toml", STYLES)
    assert config.camera is not None and config.camera.path == tmp_path / "frames"
    assert config.sim.human == str(tmp_path / "game.kif") and config.game.journal_dir == tmp_path / "out"


def test_engine_section_builds_an_engine_spec(tmp_path: Path) -> None:
    """It should turn [engine] into the engine client's spec with limits, options and timeouts."""
    text = '[game]\ngantry = false\n[engine]\nname = "gpsusi"\nmovetime_ms = 500\nskill_level = 3\n'
    text += "[engine.options]\nUSI_Ponder = false\n[engine.timeouts]\nlaunch_s = 5\n"
    spec = config_from_text(text, tmp_path, STYLES).engine
    assert spec.engine == "gpsusi" and spec.limits.time_ms == 500 and spec.limits.skill_level == 3
    assert spec.options == {"USI_Ponder": False} and spec.timeouts.launch_s == 5.0
    header = engine_header(spec)
    assert header == {
        "name": "gpsusi",
        "args": [],
        "options": {"USI_Ponder": False},
        "limits": {"time_ms": 500, "skill_level": 3},
    }


def test_shipped_styles_are_found() -> None:
    """It should validate piece styles against the styles shipped with vision when not told otherwise."""
    config = load_config(EXAMPLE)
    assert config.sim.piece_style == "kanji_light"
