"""Replays with the reader calibrated to the piece set first, from two pictures of the virtual board."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.cli.main import main
from controller.cli.replay_cmd import board_sfen, held_out_styles, replay_one
from controller.rules.positions import STARTPOS_SFEN
from controller.sim import VirtualBoard
from controller.sim.replay import ReplaySettings
from hardware.settings import load_settings
from vision.classifier import MODEL_PATH, PieceClassifier

GAMES = Path(__file__).resolve().parents[2] / ".." / "shared" / "data" / "games" / "lishogi-500.usi"
GEOMETRY = load_settings(None).geometry


def test_board_sfen_reads_the_virtual_board() -> None:
    """The board field of what rests on the squares, also after every piece was turned over and back."""
    board = VirtualBoard(GEOMETRY, STARTPOS_SFEN, seed=3)
    assert board_sfen(board) == STARTPOS_SFEN.split()[0]
    board.turn_over_all()
    turned = "+l+n+sgkg+s+n+l/1+r5+b1/+p+p+p+p+p+p+p+p+p/9/9/9/+P+P+P+P+P+P+P+P+P/1+B5+R1/+L+N+SGKG+S+N+L"
    assert board_sfen(board) == turned
    board.turn_over_all()
    assert board_sfen(board) == STARTPOS_SFEN.split()[0]


def test_bench_game_first_past_the_list_is_reported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`--first` beyond the game list is an error saying how many games there are."""
    games = tmp_path / "two.usi"
    games.write_text("7g7f 3c3d\n2g2f 8c8d\n", encoding="utf-8")
    assert main(["bench", "game", "--games", str(games), "--first", "5"]) == 1
    assert "has 2 games" in capsys.readouterr().err


@pytest.mark.slow
@pytest.mark.skipif(not MODEL_PATH.exists(), reason=f"no classifier model at {MODEL_PATH}")
def test_calibrated_replay_records_an_opening() -> None:
    """The reader calibrated on the game's own pictures (start, every piece turned over) records the first plies
    of a real game move for move; the board is back as set up when the game starts."""
    moves = GAMES.read_text(encoding="utf-8").splitlines()[-1].split()[:8]
    report = replay_one(
        moves,
        STARTPOS_SFEN,
        seed=5,
        style=held_out_styles()[0],
        size=(800, 600),
        classifier=PieceClassifier(),
        settings=ReplaySettings(),
        calibrate=True,
    )
    assert report.false_moves == 0 and not report.error, report.events
    assert report.record.usi_moves == moves, report.events
