"""The `perft` and `rules` commands: output, JSON shapes and exit codes."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from controller.cli.main import main

CAMP_28 = "RBBRGG3/GG2K4/SS7/9/9/9/9/9/8k b 2P 1"


def _json(capsys: pytest.CaptureFixture[str], argv: list[str]) -> dict[str, object]:
    assert main(argv) == 0
    return dict(json.loads(capsys.readouterr().out))


def test_perft_last_line_is_the_count(capsys: pytest.CaptureFixture[str]) -> None:
    """It should print the node count as the last line."""
    assert main(["perft", "3"]) == 0
    assert capsys.readouterr().out.strip().splitlines()[-1] == "25470"


def test_check_json_for_an_illegal_move(capsys: pytest.CaptureFixture[str]) -> None:
    """It should answer legal: false with a reason, and exit 0."""
    out = _json(capsys, ["rules", "check", "--sfen", "startpos", "--moves", "7g7f", "--move", "3c3e", "--json"])
    assert out == {"legal": False, "reason": "unreachable"}


def test_check_sentence(capsys: pytest.CaptureFixture[str]) -> None:
    """It should explain the reason in a sentence without --json."""
    assert main(["rules", "check", "--sfen", "4k4/9/9/9/9/9/4P4/9/4K4 b P 1", "--move", "P*5c"]) == 0
    assert "nifu" in capsys.readouterr().out


def test_check_after_an_illegal_history_is_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    """It should report an illegal move in --moves as an error (exit 1) naming the ply."""
    assert main(["rules", "check", "--moves", "7g7f", "7f7e", "--move", "3c3d"]) == 1
    assert "ply 2" in capsys.readouterr().err


def test_outcome_json(capsys: pytest.CaptureFixture[str]) -> None:
    """It should report the outcome with winner and ply."""
    out = _json(capsys, ["rules", "outcome", "--sfen", "8k/9/8P/9/9/9/9/9/4K4 b G 1", "--moves", "G*1b", "--json"])
    assert (out["outcome"], out["winner"], out["ply"]) == ("checkmate", "b", 1)


def test_declare_json(capsys: pytest.CaptureFixture[str]) -> None:
    """It should report result, points and each condition."""
    out = _json(capsys, ["rules", "declare", "--sfen", CAMP_28, "--rule", "27", "--json"])
    assert out["result"] == "win" and out["points"] == 28
    assert out["conditions"] == {
        "king_in_camp": True,
        "ten_pieces_in_camp": True,
        "not_in_check": True,
        "enough_points": True,
    }


def test_count_json(capsys: pytest.CaptureFixture[str]) -> None:
    """It should report both sides' points and the result."""
    out = _json(capsys, ["rules", "count", "--rule", "24", "--json"])
    assert out == {"points": {"b": 27, "w": 27}, "result": "draw"}


def test_bad_sfen_exits_1(capsys: pytest.CaptureFixture[str]) -> None:
    """It should exit 1 with a clear message for a bad SFEN."""
    assert main(["rules", "outcome", "--sfen", "9/9 b - 1"]) == 1
    assert "9 ranks" in capsys.readouterr().err


def test_bad_usage_exits_2() -> None:
    """It should exit 2 on bad usage, through the installed console script."""
    proc = subprocess.run(
        [sys.executable, "-m", "controller.cli.main", "rules", "declare", "--rule", "25"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 2
    assert "invalid choice" in proc.stderr
