"""`shogi-robot replay` and `bench game` report bad input clearly (exit 1, nothing written)."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.cli.main import main


def test_missing_record_is_reported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A record that does not exist is an error naming it; no output record is written."""
    out = tmp_path / "out.kifu"
    assert main(["replay", str(tmp_path / "nope.kifu"), "--out", str(out)]) == 1
    assert "nope.kifu" in capsys.readouterr().err
    assert not out.exists()


def test_unknown_style_is_reported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A piece style the renderer does not have is refused before anything runs."""
    record = tmp_path / "game.usi"
    record.write_text("startpos moves 7g7f 3c3d\n", encoding="utf-8")
    assert main(["replay", str(record), "--style", "no_such_style", "--out", str(tmp_path / "o.kifu")]) == 1
    assert "unknown style" in capsys.readouterr().err


def test_bench_game_rejects_a_missing_game_list(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`bench game --games` naming no file is an error, not a crash."""
    assert main(["bench", "game", "--games", str(tmp_path / "none.usi")]) == 1
    assert "cannot read the games" in capsys.readouterr().err


def test_bench_game_development_family_needs_no_play(capsys: pytest.CaptureFixture[str]) -> None:
    """`bench game --family` replays games on development faces only; with play games asked for it says so."""
    assert main(["bench", "game", "--family", "plain2", "--n", "1"]) == 1
    assert "add --play 0" in capsys.readouterr().err
