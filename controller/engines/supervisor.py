"""An engine that is brought back when it dies or hangs, so that the game goes on.

Owns: launching an `EngineSpec` (executable, options, skill level, `isready`), and retrying a search after an
`EngineDied`, `EngineTimeout` or `EngineProtocolError`: the old process is killed, a new one launched, the
options re-sent, `isready` and (inside a game) `usinewgame`, then the same position and `go` again, with the
time already spent taken off the engine's clock. Configuration errors are not retried.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from typing import TypeVar

from controller.engines.client import GameOver, UsiEngine
from controller.engines.errors import EngineDied, EngineError, EngineProtocolError, EngineTimeout
from controller.engines.position import EnginePosition
from controller.engines.protocol import GoLimits, MateResult
from controller.engines.search import SearchResult
from controller.engines.spec import EngineSpec
from controller.engines.state import EngineState

_log = logging.getLogger(__name__)
_T = TypeVar("_T")

RETRYABLE = (EngineDied, EngineTimeout, EngineProtocolError)
"""Failures after which the engine is restarted and the request retried."""

SKILL_OPTION = "Skill Level"


class SupervisedEngine:
    """A USI engine from an `EngineSpec`, restarted on failure.

    Attributes:
        spec: what to launch and how to configure it.
        max_restarts: restarts allowed per request before its error is raised.
        restarts: restarts done so far (all requests).
    """

    def __init__(self, spec: EngineSpec, *, max_restarts: int = 2, argv: Sequence[str] | None = None) -> None:
        self.spec = spec
        self.max_restarts = max_restarts
        self.restarts = 0
        self._argv = list(argv) if argv is not None else None
        self._engine: UsiEngine | None = None
        self._in_game = False

    @property
    def engine(self) -> UsiEngine:
        """The current engine process.

        Raises:
            EngineError: not started.
        """
        if self._engine is None:
            raise EngineError("engine not started: call start() first")
        return self._engine

    async def start(self) -> UsiEngine:
        """Launch and configure the engine (options, skill level), then `isready`."""
        argv = self._argv if self._argv is not None else self.spec.argv()
        engine = await UsiEngine.launch(argv, timeouts=self.spec.timeouts)
        try:
            for name, value in self.spec.options.items():
                await engine.set_option(name, value)
            if self.spec.limits.skill_level is not None:
                await engine.set_option(SKILL_OPTION, self.spec.limits.skill_level)
            await engine.is_ready()
        except BaseException:
            await engine.kill()
            raise
        self._engine = engine
        return engine

    async def restart(self) -> None:
        """Kill the current process and start a fresh, configured one (with `usinewgame` inside a game)."""
        if self._engine is not None:
            await self._engine.kill()
        self._engine = None
        self.restarts += 1
        await self.start()
        if self._in_game:
            await self.engine.new_game()

    async def new_game(self) -> None:
        """`usinewgame`."""
        await self.engine.new_game()
        self._in_game = True

    async def play(self, position: EnginePosition, limits: GoLimits | None = None) -> SearchResult:
        """The engine's answer in `position`, under `limits` (default: the spec's fixed limit).

        Raises:
            ValueError: no limits given and the spec has none.
            EngineError: still failing after `max_restarts` restarts.
        """
        chosen = limits if limits is not None else self.spec.limits.go_limits()
        if chosen is None:
            raise ValueError("no search limits: pass a clock or set time_ms/nodes/depth in the engine spec")
        black = position.black_to_move()

        async def search(engine: UsiEngine, spent_s: float) -> SearchResult:
            return await engine.go(position, spend(chosen, spent_s, black_to_move=black))

        return await self._retrying(search)

    async def go_mate(self, position: EnginePosition, time_ms: int | None) -> MateResult:
        """A mate search (see `UsiEngine.go_mate`), retried like `play`."""

        async def mate(engine: UsiEngine, _spent_s: float) -> MateResult:
            return await (await engine.go_mate(position, time_ms)).wait()

        return await self._retrying(mate)

    async def _retrying(self, request: Callable[[UsiEngine, float], Awaitable[_T]]) -> _T:
        loop = asyncio.get_running_loop()
        started = loop.time()
        attempt = 0
        while True:
            if not self.engine.alive or self.engine.state is EngineState.BROKEN:
                _log.info("engine %s is %s; restarting before the request", self.engine.name, self.engine.state.value)
                await self.restart()
            try:
                return await request(self.engine, loop.time() - started)
            except RETRYABLE as exc:
                if attempt >= self.max_restarts:
                    raise
                attempt += 1
                _log.warning(
                    "engine %s failed (%s); restart %d of %d", self.engine.name, exc, attempt, self.max_restarts
                )
                await self.restart()

    async def gameover(self, result: GameOver) -> None:
        """`gameover` (a dead engine is not restarted for it)."""
        self._in_game = False
        if self._engine is not None and self._engine.alive:
            await self._engine.gameover(result)

    async def quit(self) -> int | None:
        """`quit` and end the process."""
        engine, self._engine = self._engine, None
        return await engine.quit() if engine is not None else None


def spend(limits: GoLimits, spent_s: float, *, black_to_move: bool) -> GoLimits:
    """`limits` with `spent_s` taken off the side to move's main time (never below zero)."""
    spent_ms = int(spent_s * 1000)
    if spent_ms <= 0 or not limits.has_clock:
        return limits
    if black_to_move and limits.btime_ms is not None:
        return replace(limits, btime_ms=max(0, limits.btime_ms - spent_ms))
    if not black_to_move and limits.wtime_ms is not None:
        return replace(limits, wtime_ms=max(0, limits.wtime_ms - spent_ms))
    return limits
