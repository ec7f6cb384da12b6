"""Running searches: a normal or ponder search until `bestmove`, and a mate search until `checkmate`.

Owns: the deadline of each search (time budget + margin, or the unbounded limit), `ponderhit` and `stop`,
collecting `info` lines, and checking the answer against the position (cshogi legal moves): an illegal or
malformed `bestmove` raises `EngineProtocolError` with the line. The engine conversation itself (reading lines,
sending commands) belongs to `controller.engines.client.UsiEngine`.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING

import cshogi

from controller.engines.errors import EngineError, EngineProtocolError, EngineTimeout
from controller.engines.position import EnginePosition, legal_moves
from controller.engines.protocol import (
    BestMove,
    BestMoveKind,
    GoLimits,
    Info,
    MateResult,
    MateStatus,
    Score,
    parse_bestmove,
    parse_checkmate,
    parse_info,
)
from controller.engines.state import EngineState

if TYPE_CHECKING:
    from controller.engines.client import UsiEngine

_log = logging.getLogger(__name__)


@dataclass(frozen=True)
class SearchResult:
    """The checked answer of a search.

    Attributes:
        bestmove: the move (legal in the searched position), `resign` or `win`.
        infos: every `info` line received during the search, in order.
        elapsed_s: from `go` (or `ponderhit`) to `bestmove`.
    """

    bestmove: BestMove
    infos: tuple[Info, ...]
    elapsed_s: float

    @property
    def move(self) -> str | None:
        """The USI move, or None for `resign` / `win`."""
        return self.bestmove.move

    @property
    def principal(self) -> Info | None:
        """The last `info` line with a score for the main line (multipv 1)."""
        for info in reversed(self.infos):
            if info.score is not None and info.multipv in (None, 1):
                return info
        return None

    @property
    def score(self) -> Score | None:
        """The engine's last evaluation, from the side to move's point of view."""
        principal = self.principal
        return principal.score if principal is not None else None

    @property
    def pv(self) -> tuple[str, ...]:
        """The last principal variation."""
        principal = self.principal
        return principal.pv if principal is not None else ()


class RunningSearch:
    """What every search shares: its engine, position, collected `info` lines and completion."""

    kind = "search"

    def __init__(self, engine: UsiEngine, position: EnginePosition, board: cshogi.Board) -> None:
        self.engine = engine
        self.position = position
        self.board = board
        self.legal = legal_moves(board)
        self.infos: list[Info] = []
        self.done = False
        self._loop = asyncio.get_running_loop()
        self.started = self._loop.time()

    def add_info(self, line: str) -> None:
        """Record one `info` line (a malformed one is logged and skipped)."""
        try:
            self.infos.append(parse_info(line, mate_cp_threshold=self.engine.quirks.mate_cp_threshold))
        except ValueError as exc:
            _log.info("%s: skipping malformed info line: %s", self.engine.name, exc)

    def check_move(self, move: str, line: str) -> None:
        """Raise `EngineProtocolError` unless `move` is legal in the searched position."""
        if move not in self.legal:
            self._broken()
            raise EngineProtocolError(f"engine {self.engine.name} answered an illegal move {move}", line=line)

    def _broken(self) -> None:
        self.done = True
        self.engine.state = EngineState.BROKEN

    async def stop(self) -> object:
        """Send `stop` and read the answer."""
        raise NotImplementedError


class Search(RunningSearch):
    """A `go` (or `go ponder`) search until `bestmove`."""

    def __init__(
        self, engine: UsiEngine, position: EnginePosition, board: cshogi.Board, limits: GoLimits, *, ponder: bool
    ) -> None:
        super().__init__(engine, position, board)
        self.limits = limits
        self.ponder = ponder
        self.result: SearchResult | None = None
        self._command = limits.go_command(ponder=ponder)
        self._deadline: float | None = None if ponder or limits.infinite else self.started + self._allowance()

    def _allowance(self) -> float:
        timeouts = self.engine.timeouts
        budget = self.limits.budget_ms(bool(self.board.turn == cshogi.BLACK))
        if budget is None:
            return timeouts.unbounded_search_s
        return budget / 1000.0 + timeouts.bestmove_margin_s

    async def wait(self) -> SearchResult:
        """Wait for `bestmove`: within budget + margin (after `ponderhit` for a ponder search), or within
        `unbounded_search_s` for node/depth/infinite searches.

        Raises:
            EngineTimeout, EngineDied: no answer in time, or the engine exited.
            EngineProtocolError: a malformed or illegal `bestmove`.
        """
        if self.result is not None:
            return self.result
        if self._deadline is None:
            timeout = self.engine.timeouts.unbounded_search_s
        else:
            timeout = self._deadline - self._loop.time()
        line = await self.engine.expect(
            ("bestmove",),
            command=self._command,
            timeout_s=timeout,
            total_s=None if self._deadline is None else self._deadline - self.started,
            search=self,
        )
        return self._finish(line)

    async def ponderhit(self) -> None:
        """The predicted move was played: the ponder search becomes the real one, with its budget from now."""
        if not self.ponder or self.done:
            raise EngineError("ponderhit needs a running ponder search")
        await self.engine.send("ponderhit")
        self.ponder = False
        self.started = self._loop.time()
        self._deadline = self.started + self._allowance()

    async def stop(self) -> SearchResult:
        """Send `stop` and wait `stop_s` for the `bestmove` (also used to end a ponder search after a miss)."""
        if self.result is not None:
            return self.result
        await self.engine.send("stop")
        line = await self.engine.expect(
            ("bestmove",), command="stop", timeout_s=self.engine.timeouts.stop_s, search=self
        )
        return self._finish(line)

    def _finish(self, line: str) -> SearchResult:
        try:
            bestmove = parse_bestmove(line)
        except ValueError as exc:
            self._broken()
            raise EngineProtocolError(f"engine {self.engine.name} sent a malformed bestmove", line=line) from exc
        if bestmove.move is not None:
            self.check_move(bestmove.move, line)
            bestmove = self._checked_ponder(bestmove)
        self.done = True
        self.result = SearchResult(bestmove, tuple(self.infos), self._loop.time() - self.started)
        self.engine.search_finished(self)
        return self.result

    def _checked_ponder(self, bestmove: BestMove) -> BestMove:
        if bestmove.ponder is None or bestmove.move is None:
            return bestmove
        board = cshogi.Board(self.board.sfen())
        board.push_usi(bestmove.move)
        if bestmove.ponder in legal_moves(board):
            return bestmove
        _log.warning("%s: dropping illegal ponder move %s", self.engine.name, bestmove.ponder)
        return BestMove(BestMoveKind.MOVE, bestmove.move, None)


class MateSearch(RunningSearch):
    """A `go mate` search until `checkmate` (or `bestmove`, for engines such as fairy-stockfish)."""

    kind = "mate"

    def __init__(self, engine: UsiEngine, position: EnginePosition, board: cshogi.Board, time_ms: int | None) -> None:
        super().__init__(engine, position, board)
        self.time_ms = time_ms
        self.result: MateResult | None = None
        self._stopped = False

    async def wait(self) -> MateResult:
        """The outcome: wait the mate time (+ margin for engines that stop by themselves), then `stop`.

        Raises:
            EngineTimeout: no answer even after `stop`.
            EngineDied: the engine exited.
            EngineProtocolError: a malformed answer or an illegal first mating move.
        """
        if self.result is not None:
            return self.result
        timeouts = self.engine.timeouts
        if self.time_ms is None:
            allowed = timeouts.unbounded_search_s
        else:
            margin = 0.0 if self.engine.quirks.mate_answers_bestmove else timeouts.bestmove_margin_s
            allowed = self.time_ms / 1000.0 + margin - (self._loop.time() - self.started)
        try:
            line = await self.engine.expect(
                ("checkmate", "bestmove"), command="go mate", timeout_s=allowed, search=self
            )
        except EngineTimeout:
            self.engine.state = EngineState.SEARCHING
            return await self.stop()
        return self._finish(line)

    async def stop(self) -> MateResult:
        """Send `stop` and read the answer within `stop_s`; a search stopped without a mate is a TIMEOUT."""
        if self.result is not None:
            return self.result
        self._stopped = True
        await self.engine.send("stop")
        line = await self.engine.expect(
            ("checkmate", "bestmove"), command="stop", timeout_s=self.engine.timeouts.stop_s, search=self
        )
        return self._finish(line)

    def _finish(self, line: str) -> MateResult:
        try:
            result = parse_checkmate(line) if line.startswith("checkmate") else self._from_bestmove(line)
        except ValueError as exc:
            self._broken()
            raise EngineProtocolError(f"engine {self.engine.name} sent a malformed mate answer", line=line) from exc
        if result.moves:
            self.check_move(result.moves[0], line)
        self.done = True
        self.result = result
        self.engine.search_finished(self)
        if self.engine.quirks.restart_after_mate:
            _log.info("%s cannot search after go mate; it needs a restart", self.engine.name)
            self.engine.state = EngineState.BROKEN
        return result

    def _from_bestmove(self, line: str) -> MateResult:
        parse_bestmove(line)
        for info in reversed(self.infos):
            if info.score is not None and info.score.mate_sign > 0 and info.pv:
                return MateResult(MateStatus.CHECKMATE, info.pv)
            if info.score is not None:
                break
        return MateResult(MateStatus.TIMEOUT if self._stopped else MateStatus.NOMATE)
