"""Engine configuration: finding executables on PATH, then in /usr/games, or by path; validated limits."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from controller.engines import EngineLimits, EngineNotFound, EngineSpec, GoLimits, Timeouts, resolve_engine_path
from controller.engines.spec import spec_from_config


def _executable(path: Path) -> Path:
    path.write_text("#!/bin/sh\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


def test_name_found_on_path_first(tmp_path: Path) -> None:
    """A name on PATH wins over the games directory."""
    bin_dir, games = tmp_path / "bin", tmp_path / "games"
    bin_dir.mkdir()
    games.mkdir()
    on_path = _executable(bin_dir / "myengine")
    _executable(games / "myengine")
    assert resolve_engine_path("myengine", str(bin_dir), games) == on_path


def test_name_found_in_games_dir_when_not_on_path(tmp_path: Path) -> None:
    """A name missing from PATH is looked up in the games directory (Debian's /usr/games)."""
    games = tmp_path / "games"
    games.mkdir()
    engine = _executable(games / "gpsusi")
    assert resolve_engine_path("gpsusi", str(tmp_path / "empty"), games) == engine


def test_missing_known_engine_names_the_package(tmp_path: Path) -> None:
    """A missing gpsusi says to install the gpsshogi package; no other engine is substituted."""
    with pytest.raises(EngineNotFound, match="apt-get install gpsshogi"):
        resolve_engine_path("gpsusi", str(tmp_path), tmp_path)
    with pytest.raises(EngineNotFound, match="apt-get install fairy-stockfish"):
        resolve_engine_path("fairy-stockfish", str(tmp_path), tmp_path)


def test_path_must_be_an_executable_file(tmp_path: Path) -> None:
    """A path is used as given when executable; a non-executable file is refused."""
    engine = _executable(tmp_path / "YaneuraOu-by-gcc")
    assert resolve_engine_path(str(engine)) == engine
    plain = tmp_path / "notes.txt"
    plain.write_text("x")
    with pytest.raises(EngineNotFound, match="not an executable"):
        resolve_engine_path(str(plain))


def test_default_spec_is_fairy_stockfish_found_in_usr_games() -> None:
    """The default engine is fairy-stockfish, found even with an empty PATH."""
    assert EngineSpec().resolve(path_env="").name == "fairy-stockfish"


def test_limits_and_timeouts_are_validated() -> None:
    """Two fixed limits at once, non-positive limits and non-positive timeouts are refused."""
    with pytest.raises(ValueError, match="at most one"):
        EngineLimits(time_ms=100, nodes=100)
    with pytest.raises(ValueError, match="positive"):
        EngineLimits(depth=0)
    with pytest.raises(ValueError, match="launch_s"):
        Timeouts(launch_s=0)
    assert EngineLimits(time_ms=250).go_limits() == GoLimits(movetime_ms=250)
    assert EngineLimits(skill_level=5).go_limits() is None


def test_spec_from_config_table() -> None:
    """A TOML-style table becomes a validated EngineSpec."""
    spec = spec_from_config(
        {"engine": "gpsusi", "time_ms": 800, "options": {"BookDepth": 0}, "timeouts": {"launch_s": 20}}
    )
    assert spec.engine == "gpsusi" and spec.limits.time_ms == 800
    assert spec.options == {"BookDepth": 0} and spec.timeouts.launch_s == 20.0
    assert spec_from_config({}).engine == "fairy-stockfish"


def test_spec_from_config_names_bad_keys_and_values() -> None:
    """Unknown keys and wrongly typed values are errors naming the key."""
    with pytest.raises(ValueError, match=r"unknown key.*skill"):
        spec_from_config({"skill": 3})
    with pytest.raises(ValueError, match=r"engine\.nodes must be a whole number"):
        spec_from_config({"nodes": "many"})
    with pytest.raises(ValueError, match=r"engine\.timeouts: unknown key.*usiok_s"):
        spec_from_config({"timeouts": {"usiok_s": 3}})
    with pytest.raises(ValueError, match=r"engine\.options\.Hash"):
        spec_from_config({"options": {"Hash": [1]}})
