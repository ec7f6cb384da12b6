"""A short real game replayed through the real motion gate, board reader and reconciler (no stand-ins)."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.cli.replay_cmd import held_out_styles, replay_one
from controller.rules.positions import STARTPOS_SFEN
from controller.sim.replay import ReplaySettings
from vision.classifier import MODEL_PATH, PieceClassifier

GAMES = Path(__file__).resolve().parents[2] / ".." / "shared" / "data" / "games" / "lishogi-500.usi"
PLIES = 14

pytestmark = pytest.mark.skipif(not MODEL_PATH.exists(), reason=f"no classifier model at {MODEL_PATH}")


@pytest.mark.slow
def test_opening_of_a_real_game_is_recorded_correctly() -> None:
    """The first 14 plies of lishogi game 1 (captures and a drop among them), played in front of the virtual
    camera with a piece style the classifier never saw, are recorded move for move, with no false move."""
    moves = GAMES.read_text(encoding="utf-8").splitlines()[0].split()[:PLIES]
    report = replay_one(
        moves,
        STARTPOS_SFEN,
        seed=0,
        style=held_out_styles()[0],
        size=(800, 600),
        classifier=PieceClassifier(),
        settings=ReplaySettings(),
    )
    assert report.false_moves == 0, report.events
    assert report.record.usi_moves == moves, report.events
