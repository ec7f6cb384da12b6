"""Game analysis: per-move evaluation, mistakes flagged by score drop, `**解析` comments, and the CLI."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from controller.cli.main import main
from controller.engines import BestMove, BestMoveKind, EnginePosition, Info, Score, SearchResult
from controller.engines.analysis import analyse_record, annotate, kif_moves
from controller.records.io import format_record, read_record
from controller.rules.positions import STARTPOS_SFEN
from controller.rules.types import GameRecord, RecordedMove

SCRIPT = {0: (50, "7g7f"), 1: (40, "8c8d"), 2: (-30, "2g2f"), 3: (600, "3a2b")}
"""Scripted evaluations by ply: (cp from the side to move's view, best move)."""


async def _scripted(position: EnginePosition) -> SearchResult:
    cp, best = SCRIPT[len(position.moves)]
    info = Info(depth=5, score=Score(cp=cp), pv=(best,))
    return SearchResult(BestMove(BestMoveKind.MOVE, best), (info,), 0.01)


def _record() -> GameRecord:
    moves = [RecordedMove("7g7f"), RecordedMove("3c3d"), RecordedMove("8h3c+", comment="角をただで捨てた")]
    return GameRecord(STARTPOS_SFEN, moves)


def test_drop_in_score_flags_a_mistake() -> None:
    """A move after which the mover's score falls by 570 cp (and not the best move) is flagged; small drops
    are not."""
    analyses = asyncio.run(analyse_record(_record(), _scripted, mistake_cp=300))
    assert [a.drop_cp for a in analyses] == [90, 10, 570]
    assert [a.mistake for a in analyses] == [False, False, True]
    assert analyses[2].best == "2g2f" and analyses[2].score_after == -600


def test_annotate_writes_analysis_comments_from_sentes_view() -> None:
    """Each move gets a `**解析` line with sente's-view score; existing comments stay first."""
    record = _record()
    annotated = annotate(record, asyncio.run(analyse_record(record, _scripted)))
    kif = format_record(annotated, "kifu")
    assert "**解析 評価値 -40 最善手 ▲７六歩(77) 読み筋 ▲７六歩(77)" in kif
    assert "**解析 評価値 -30 最善手 △８四歩(83)" in kif
    assert "*角をただで捨てた\n**解析 評価値 -600 最善手 ▲２六歩(27)" in kif
    assert "**解析 悪手 (-570) 最善は ▲２六歩(27)" in kif
    assert record.moves[2].comment == "角をただで捨てた"


@pytest.mark.engine
def test_analyse_command_with_fairy_stockfish(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`shogi-robot analyse` flags giving the bishop for a pawn, and writes a readable annotated KIF."""
    source = tmp_path / "game.usi"
    source.write_text("startpos moves 7g7f 3c3d 8h3c+ 2b3c\n", encoding="utf-8")
    out = tmp_path / "game-analysed.kifu"
    assert main(["analyse", str(source), "--time-ms", "200", "-o", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "ply 3: 8h3c+ loses" in printed
    written = read_record(out)
    assert written.usi_moves == ["7g7f", "3c3d", "8h3c+", "2b3c"]
    assert all(move.comment.startswith("*解析 評価値") for move in written.moves)
    assert "悪手" in written.moves[2].comment


def test_analyse_with_missing_engine_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A missing engine is reported (exit 1) with what to install or give, and nothing is written."""
    source = tmp_path / "game.usi"
    source.write_text("startpos moves 7g7f\n", encoding="utf-8")
    out = tmp_path / "out.kifu"
    assert main(["analyse", str(source), "--engine", "no-such-engine-xyz", "-o", str(out)]) == 1
    assert "no-such-engine-xyz" in capsys.readouterr().err
    assert not out.exists()


def test_kif_moves_stop_at_the_first_illegal_move() -> None:
    """A principal variation is shown in KIF notation with side marks, cut at a move that is not legal."""
    board = EnginePosition().board()
    assert kif_moves(board, ["7g7f", "3c3d", "5e5d", "2g2f"]) == ("▲７六歩(77)", "△３四歩(33)")
