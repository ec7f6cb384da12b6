"""Small command-line options: the gantry's port from the config, `--sente-side`, and the play figures' lines."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from controller.bench.play_bench import PlayFigures, figure_lines
from controller.cli.game_args import parse_sente_side
from controller.cli.main import main

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "config.example.toml"


def test_the_gantry_port_comes_from_the_config(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`gantry status --config F` without `--port` opens the config's [gantry] port (here one that is absent)."""
    text = EXAMPLE.read_text(encoding="utf-8").replace("[gantry]\n", '[gantry]\nport = "/dev/ttyNOPE9"\n', 1)
    config = tmp_path / "config.toml"
    config.write_text(text, encoding="utf-8")
    assert main(["gantry", "--config", str(config), "status"]) == 1
    assert "/dev/ttyNOPE9" in capsys.readouterr().err


def test_no_gantry_port_anywhere_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    """Neither `--port` nor a config: exit 1 saying where the port can be given."""
    assert main(["gantry", "status"]) == 1
    assert "--port /dev/ttyACM0, or [gantry] port" in capsys.readouterr().err


def test_sente_side_names_and_degrees() -> None:
    """`--sente-side` takes a picture side or degrees, and refuses anything else."""
    assert parse_sente_side("left") == "left" and parse_sente_side("270") == 270.0
    with pytest.raises(argparse.ArgumentTypeError, match="bottom, top, left, right"):
        parse_sente_side("north")


def test_play_figures_sum_up() -> None:
    """Two games, one ended by mate and one stopped by the cap: 1 of 2 completed, first-try moves summed."""
    games = [
        PlayFigures(1, "a", 40, "checkmate", True, 19, 19, 36, 0, True, 120.0),
        PlayFigures(2, "b", 256, "abort", False, 128, 126, 200, 1, True, 900.0),
    ]
    total = figure_lines(games)[-1]
    assert "games completed 1/2" in total and "first try 145/147 (98.6 %)" in total


def test_demo_is_play_sim_with_the_demo_defaults() -> None:
    """`demo` builds its session like `play --sim`: simulated, out/demo, a demo- name, the ply cap, 300 ms a move,
    and the shared options (here --seed and --sente-side) reach the session."""
    from controller.cli.demo_cmd import demo_options
    from controller.cli.main import build_parser
    from controller.game.settings import Mode

    options = demo_options(build_parser().parse_args(["demo", "--seed", "4", "--sente-side", "top"]))
    assert (options.mode, options.sim, options.out, options.max_plies) == (Mode.PLAY, True, Path("out/demo"), 256)
    assert options.name is not None and options.name.startswith("demo-")
    assert (options.movetime_ms, options.seed, options.sente_side) == (300, 4, "top")


def test_random_sim_piece_style_is_a_shipped_style_chosen_by_the_seed() -> None:
    """`[sim] piece_style = "random"` picks a shipped style, the same one for the same seed, and not always the
    same one; a named style is kept."""
    from controller.compose import sim_piece_style
    from vision.render import list_styles

    picks = [sim_piece_style("random", seed) for seed in range(12)]
    assert set(picks) <= set(list_styles()) and len(set(picks)) > 1
    assert picks == [sim_piece_style("random", seed) for seed in range(12)]
    assert sim_piece_style("kanji_brown", 3) == "kanji_brown"
