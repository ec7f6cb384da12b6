"""Engine analysis of a recorded game: an evaluation of every position, the engine's best move, and the moves
whose evaluation dropped by more than a threshold flagged as mistakes.

Owns: turning a `GameRecord` plus an evaluator (any async function position -> `SearchResult`, normally
`SupervisedEngine.play`) into per-move `MoveAnalysis` values and `**解析` comment lines for KIF. Scores in the
comments are from sente's point of view, as KIF analysis comments usually are.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace

import cshogi
import cshogi.KIF

from controller.engines.position import EnginePosition
from controller.engines.protocol import Score
from controller.engines.search import SearchResult
from controller.rules.types import GameRecord, RecordedMove

Evaluator = Callable[[EnginePosition], Awaitable[SearchResult]]

MATE_CLAMP_CP = 5000
"""Scores are clamped to ±this before drops are computed, so that a mate in 3 vs a mate in 5 is no "mistake"."""
ANALYSIS_TAG = "*解析"
"""Comment prefix; the KIF writer adds one more `*`, giving the `**解析` lines analysis tools use."""


@dataclass(frozen=True)
class MoveAnalysis:
    """The engine's view of one move.

    Attributes:
        ply: 1-based ply number.
        played: the move played (USI).
        best: the engine's best move in the position before it (None: the engine resigned or declared a win).
        score_before: evaluation before the move, from the mover's point of view.
        score_after: evaluation after the move, from the mover's point of view.
        drop_cp: how much the move lost against the engine's evaluation (clamped, never negative).
        mistake: the drop reached the threshold and the move was not the engine's choice.
        pv: the engine's principal variation before the move.
        pv_kif: the same in KIF notation with side marks (`▲７六歩(77) △３四歩(33)`), legal prefix only.
    """

    ply: int
    played: str
    best: str | None
    score_before: int
    score_after: int
    drop_cp: int
    mistake: bool
    pv: tuple[str, ...] = ()
    pv_kif: tuple[str, ...] = ()

    def comment(self, black_moved: bool) -> str:
        """The `*解析 ...` comment lines for this move (sente's point of view)."""
        sign = 1 if black_moved else -1
        best = self.pv_kif[0] if self.pv_kif else (self.best or "-")
        line = f"{ANALYSIS_TAG} 評価値 {sign * self.score_after:+d} 最善手 {best}"
        if self.pv_kif:
            line += f" 読み筋 {' '.join(self.pv_kif[:8])}"
        if self.mistake:
            line += f"\n{ANALYSIS_TAG} 悪手 (-{self.drop_cp}) 最善は {best}"
        return line


def kif_moves(board: cshogi.Board, moves: Sequence[str]) -> tuple[str, ...]:
    """`moves` from the position on `board` in KIF notation with ▲/△ marks, up to the first illegal one."""
    work = cshogi.Board(board.sfen())
    out: list[str] = []
    for usi in moves:
        move = work.move_from_usi(usi)
        if move == 0 or move not in set(work.legal_moves):
            break
        out.append(("▲" if work.turn == cshogi.BLACK else "△") + cshogi.KIF.move_to_kif(move))
        work.push(move)
    return tuple(out)


def _cp(score: Score | None) -> int:
    if score is None:
        return 0
    return max(-MATE_CLAMP_CP, min(MATE_CLAMP_CP, score.to_cp()))


async def analyse_record(record: GameRecord, evaluate: Evaluator, *, mistake_cp: int = 300) -> list[MoveAnalysis]:
    """Evaluate every position of the record's main line and judge each move.

    Raises:
        IllegalMoveError, PositionError: the record itself is not a legal game.
        EngineError: the engine failed beyond its supervisor's restarts.
    """
    base = EnginePosition(record.start_sfen)
    moves = record.usi_moves
    base.push(*moves).board()
    results: list[tuple[int, SearchResult | None]] = []
    for ply in range(len(moves) + 1):
        position = base.push(*moves[:ply])
        if not position.board().legal_moves:
            results.append((-MATE_CLAMP_CP, None))
            continue
        searched = await evaluate(position)
        results.append((_cp(searched.score), searched))
    analyses = []
    for ply, played in enumerate(moves):
        before, result = results[ply]
        after = -results[ply + 1][0]
        best = result.move if result is not None else None
        drop = max(0, before - after)
        analyses.append(
            MoveAnalysis(
                ply=ply + 1,
                played=played,
                best=best,
                score_before=before,
                score_after=after,
                drop_cp=drop,
                mistake=drop >= mistake_cp and best is not None and best != played,
                pv=result.pv if result is not None else (),
                pv_kif=kif_moves(base.push(*moves[:ply]).board(), result.pv if result is not None else ()),
            )
        )
    return analyses


def annotate(record: GameRecord, analyses: list[MoveAnalysis]) -> GameRecord:
    """A copy of `record` with each move's analysis appended to its comment (existing comments kept)."""
    black_first = record.start_sfen.split()[1] == "b"
    moves: list[RecordedMove] = []
    for index, move in enumerate(record.moves):
        if index >= len(analyses):
            moves.append(move)
            continue
        text = analyses[index].comment(black_moved=(index % 2 == 0) == black_first)
        moves.append(replace(move, comment=f"{move.comment}\n{text}" if move.comment else text))
    return replace(record, moves=moves)
