"""A blocking facade over `SupervisedEngine` for callers without an event loop.

Owns: one private asyncio loop on a daemon thread per `SyncEngine`; each method runs the matching coroutine
there and blocks until it finishes (the coroutines carry their own timeouts, so a call cannot block forever).
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine, Sequence
from types import TracebackType
from typing import Any, TypeVar

from controller.engines.client import GameOver, UsiEngine
from controller.engines.position import EnginePosition
from controller.engines.protocol import GoLimits, MateResult
from controller.engines.search import SearchResult
from controller.engines.spec import EngineSpec
from controller.engines.supervisor import SupervisedEngine

_T = TypeVar("_T")


class SyncEngine:
    """Blocking engine: `with SyncEngine(spec) as engine: engine.play(position, limits)`.

    Attributes:
        supervised: the async engine driven on the private loop.
    """

    def __init__(self, spec: EngineSpec, *, max_restarts: int = 2, argv: Sequence[str] | None = None) -> None:
        self.supervised = SupervisedEngine(spec, max_restarts=max_restarts, argv=argv)
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="usi-engine-loop", daemon=True)
        self._thread.start()
        self._closed = False

    def run(self, coro: Coroutine[Any, Any, _T]) -> _T:
        """Run any coroutine (for example one using `self.engine` directly) on the engine's loop; block for it."""
        return self._run(coro)

    def _run(self, coro: Coroutine[Any, Any, _T]) -> _T:
        if self._closed:
            coro.close()
            raise RuntimeError("SyncEngine is closed")
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result()

    @property
    def engine(self) -> UsiEngine:
        """The current engine (name, options, quirks)."""
        return self.supervised.engine

    @property
    def restarts(self) -> int:
        """Restarts done so far."""
        return self.supervised.restarts

    def start(self) -> SyncEngine:
        """Launch and configure the engine."""
        self._run(self.supervised.start())
        return self

    def new_game(self) -> None:
        """`usinewgame`."""
        self._run(self.supervised.new_game())

    def play(self, position: EnginePosition, limits: GoLimits | None = None) -> SearchResult:
        """The engine's checked answer (see `SupervisedEngine.play`)."""
        return self._run(self.supervised.play(position, limits))

    def go_mate(self, position: EnginePosition, time_ms: int | None) -> MateResult:
        """A mate search (see `SupervisedEngine.go_mate`)."""
        return self._run(self.supervised.go_mate(position, time_ms))

    def gameover(self, result: GameOver) -> None:
        """`gameover win|lose|draw`."""
        self._run(self.supervised.gameover(result))

    def close(self) -> None:
        """`quit` the engine and stop the private loop (safe to call twice)."""
        if self._closed:
            return
        try:
            self._run(self.supervised.quit())
        finally:
            self._closed = True
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(timeout=5.0)
            self._loop.close()

    def __enter__(self) -> SyncEngine:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()
