"""A short simulated game in CI with everything real but the world: the virtual camera's frames go through the
real motion gate and board reader, fairy-stockfish plays through the planner, executor and `GrblGantry` over a pty
to the fake GRBL device. The start gives the engine a free bishop (sente's 7i silver and rook are missing),
so the gantry takes a piece to the stand on its first move (and, as the engine usually promotes there, turns its
bishop over at the flip station)."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller import compose
from controller.game.journal import resume
from controller.game.settings import Mode
from controller.rules.types import Color
from controller.runner.display import move_kinds
from controller.runner.options import SessionOptions
from controller.runner.session import run_session

pytestmark = pytest.mark.slow

START = "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B7/LN1GKGSNL w - 4"
"""After 7g7f 3c3d with sente's 7i silver and rook gone: gote's bishop takes the undefended bishop (2b8h+)."""


def _config(tmp_path: Path) -> Path:
    text = compose.sim_config_path().read_text(encoding="utf-8")
    assert 'start = "startpos"' in text
    path = tmp_path / "sim.toml"
    path.write_text(text.replace('start = "startpos"', f'start = "{START}"'), encoding="utf-8")
    return path


def test_short_game_with_the_real_reader(tmp_path: Path) -> None:
    """Six plies: every gantry move is confirmed by the camera, the engine's capture among them, and the journal
    and records hold the game that was played."""
    options = SessionOptions(
        Mode.PLAY, config=_config(tmp_path), sim=True, out=tmp_path, name="g", max_plies=6, board_every=0,
        stall_s=90, seed=0,
    )  # fmt: skip
    result = run_session(options, say=lambda _t: None)
    state = result.report.state
    assert len(state.moves) == 6, result.report
    assert result.report.robot_moves == 3, result.report
    kinds = move_kinds(START, state.usi_moves, Color.WHITE)
    assert kinds["captures"] >= 1, state.usi_moves
    assert list(state.usi_moves[1::2]) == result.human_moves
    assert result.lost_pieces == [] and result.board_matches
    assert [m.usi for m in resume(tmp_path / "g.journal").record.moves] == list(state.usi_moves)
    csa = (tmp_path / "g.csa").read_text(encoding="utf-8").splitlines()
    assert len([line for line in csa if line[:1] in "+-" and line[1:2].isdigit()]) == 6
    assert (tmp_path / "g.kifu").stat().st_size > 0
