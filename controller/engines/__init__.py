"""USI engine client (GUI side): async core, supervised restarts, and a blocking facade.

Owns: talking to USI engines (fairy-stockfish by default, gpsusi, or any USI engine by path). Does not use
`cshogi.usi`, which blocks forever when an engine dies.

- `UsiEngine` (client.py): one engine process, every exchange under a timeout.
- `SupervisedEngine` (supervisor.py): restarts a dead or hung engine and retries the search.
- `SyncEngine` (sync.py): the same for code without an event loop.
- `EngineSpec`, `EngineLimits`, `Timeouts`, `resolve_engine_path`, `spec_from_config` (spec.py): configuration.
- `controller.engines.analysis`: per-move evaluation of a recorded game (`shogi-robot analyse`).

Typical use::

    engine = SupervisedEngine(EngineSpec("fairy-stockfish", limits=EngineLimits(time_ms=1000)))
    await engine.start()
    await engine.new_game()
    result = await engine.play(EnginePosition(start_sfen, tuple(moves)), GoLimits(btime_ms=..., wtime_ms=...,
                                                                                   byoyomi_ms=...))
    result.bestmove.kind  # MOVE (result.move is legal in the position), RESIGN or WIN
    await engine.gameover(GameOver.WIN); await engine.quit()
"""

from __future__ import annotations

from controller.engines.client import GameOver, UsiEngine
from controller.engines.errors import (
    EngineConfigError,
    EngineDied,
    EngineError,
    EngineNotFound,
    EngineOptionError,
    EngineProtocolError,
    EngineTimeout,
    EngineUnsupported,
)
from controller.engines.options import EngineOption, OptionType
from controller.engines.position import EnginePosition
from controller.engines.protocol import (
    BestMove,
    BestMoveKind,
    Bound,
    GoLimits,
    Info,
    MateResult,
    MateStatus,
    Score,
)
from controller.engines.search import MateSearch, Search, SearchResult
from controller.engines.spec import (
    DEFAULT_ENGINE,
    EngineLimits,
    EngineSpec,
    Timeouts,
    resolve_engine_path,
    spec_from_config,
)
from controller.engines.state import EngineState
from controller.engines.supervisor import SupervisedEngine
from controller.engines.sync import SyncEngine

__all__ = [
    "DEFAULT_ENGINE",
    "BestMove",
    "BestMoveKind",
    "Bound",
    "EngineConfigError",
    "EngineDied",
    "EngineError",
    "EngineLimits",
    "EngineNotFound",
    "EngineOption",
    "EngineOptionError",
    "EnginePosition",
    "EngineProtocolError",
    "EngineSpec",
    "EngineState",
    "EngineTimeout",
    "EngineUnsupported",
    "GameOver",
    "GoLimits",
    "Info",
    "MateResult",
    "MateSearch",
    "MateStatus",
    "OptionType",
    "Score",
    "Search",
    "SearchResult",
    "SupervisedEngine",
    "SyncEngine",
    "Timeouts",
    "UsiEngine",
    "resolve_engine_path",
    "spec_from_config",
]
