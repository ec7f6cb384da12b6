"""Config validation of [gantry], [board], [stands] and [gpio]: each error names the section and the key."""

from __future__ import annotations

import copy
import tomllib
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from hardware.errors import ConfigError
from hardware.gpio_settings import GpioBackendKind
from hardware.settings import load_settings, settings_from_document


def _default_doc() -> dict[str, Any]:
    text = resources.files("hardware").joinpath("default_config.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


def _with(change: dict[str, dict[str, Any]], remove: tuple[str, str] | None = None) -> dict[str, Any]:
    doc = copy.deepcopy(_default_doc())
    for section, values in change.items():
        target = doc
        for part in section.split("."):
            target = target[part]
        target.update(values)
    if remove is not None:
        del doc[remove[0]][remove[1]]
    return doc


def test_default_config_loads_and_matches_the_docs_example() -> None:
    """The packaged default and docs/config.example.toml describe the same machine."""
    default = load_settings(None)
    assert default == load_settings(Path("docs/config.example.toml"))
    assert default.gpio.backend is GpioBackendKind.FAKE
    assert default.geometry.travel_z_mm - default.geometry.pick_z_mm == 20.0


def test_unknown_key_names_key_and_section() -> None:
    """A misspelt key is an error, not ignored."""
    with pytest.raises(ConfigError, match=r"\[board\] file_spacing: unknown key"):
        settings_from_document(_with({"board": {"file_spacing": 35.0}}))


def test_unknown_key_in_a_sub_table() -> None:
    """Sub-tables are strict too."""
    with pytest.raises(ConfigError, match=r"\[stands.white\] colums: unknown key"):
        settings_from_document(_with({"stands.white": {"colums": 4}}))


def test_wrong_type_is_named() -> None:
    """A string where a number belongs says what it got."""
    with pytest.raises(ConfigError, match=r"\[gantry\] accel_xy_mm_per_s2: must be a number, got str"):
        settings_from_document(_with({"gantry": {"accel_xy_mm_per_s2": "fast"}}))


def test_boolean_is_not_a_number() -> None:
    """TOML true is not accepted as 1."""
    with pytest.raises(ConfigError, match="must be a number"):
        settings_from_document(_with({"board": {"rank_spacing_mm": True}}))


def test_out_of_range_is_named() -> None:
    """A 90 mm square spacing is outside 20..60."""
    with pytest.raises(ConfigError, match=r"\[board\] rank_spacing_mm: 90.0 is above the maximum 60.0"):
        settings_from_document(_with({"board": {"rank_spacing_mm": 90.0}}))


def test_missing_required_key_is_named() -> None:
    """Geometry keys have no silent default."""
    with pytest.raises(ConfigError, match=r"\[board\] pick_z_mm: required key is missing"):
        settings_from_document(_with({}, remove=("board", "pick_z_mm")))


def test_missing_section_is_named() -> None:
    """All four sections are required."""
    doc = _default_doc()
    del doc["stands"]
    with pytest.raises(ConfigError, match=r"\[stands\]: section is missing"):
        settings_from_document(doc)


def test_transform_and_pose_conflict() -> None:
    """A calibrated transform replaces origin/rotation; giving both is an error."""
    with pytest.raises(ConfigError, match="conflicts with `transform`"):
        settings_from_document(_with({"board": {"transform": [1, 0, 0, -1, 160, 380]}}))


def test_calibrated_transform_is_used() -> None:
    """Without the pose keys, the transform places the board."""
    doc = _with({"board": {"transform": [1, 0, 0, -1, 161, 379]}})
    for key in ("origin_x_mm", "origin_y_mm", "rotation_deg", "mirrored"):
        del doc["board"][key]
    assert settings_from_document(doc).geometry.square_xy("9a") == (161.0, 379.0)


def test_duplicate_pin_is_refused() -> None:
    """Two devices on one BCM pin are an error naming both."""
    with pytest.raises(ConfigError, match="pin 5 is already used by move_done_black_pin"):
        settings_from_document(_with({"gpio": {"clock_white_pin": 5}}))


def test_pin_out_of_bcm_range() -> None:
    """BCM pins are 0..27."""
    with pytest.raises(ConfigError, match=r"\[gpio\] estop_pin: 40 is above the maximum 27"):
        settings_from_document(_with({"gpio": {"estop_pin": 40}}))


def test_backend_must_be_chosen_explicitly() -> None:
    """The backend is one of fake/rpi; anything else is refused."""
    with pytest.raises(ConfigError, match="must be one of 'fake', 'rpi'"):
        settings_from_document(_with({"gpio": {"backend": "auto"}}))


def test_unreachable_stand_is_refused_at_start_up() -> None:
    """A stand placed beyond the travel limits is caught when the config loads, naming the slot."""
    with pytest.raises(ConfigError, match="stand b R#0 is out of the travel limits"):
        settings_from_document(_with({"stands.black": {"origin_u_mm": 600.0}}))


def test_travel_height_must_clear_the_pick_height() -> None:
    """Travel height below pick height + 5 mm is refused."""
    with pytest.raises(ConfigError, match="travel_z_mm: must be at least 5 mm above"):
        settings_from_document(_with({"board": {"travel_z_mm": -23.0}}))


def test_bad_toml_file_names_the_file(tmp_path: Path) -> None:
    """A syntax error is reported with the file name."""
    bad = tmp_path / "bad.toml"
    bad.write_text("[board\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_settings(bad)
