"""Engine configuration: which engine, its options, its strength limits and the protocol timeouts.

Owns: `EngineSpec` (validated once at start-up), `Timeouts`, `EngineLimits`, and finding an engine's executable
(`resolve_engine_path`: a path, or a name looked up on PATH and then in /usr/games, where Debian installs
fairy-stockfish and gpsusi). A missing engine is an `EngineNotFound` naming the package to install; there is no
fallback to another engine.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from controller.engines.errors import EngineNotFound
from controller.engines.protocol import GoLimits

DEFAULT_ENGINE = "fairy-stockfish"
"""The engine used when the configuration names none."""

DEBIAN_GAMES_DIR = Path("/usr/games")
"""Where Debian installs game binaries; not always on PATH (e.g. for systemd units and root shells)."""

INSTALL_HINTS: Mapping[str, str] = {
    "fairy-stockfish": "apt-get install fairy-stockfish",
    "gpsusi": "apt-get install gpsshogi",
}
"""How to get each engine the project knows by name."""

OptionValue = str | int | bool | None
"""A `setoption` value: text, a number, a check box, or None for a button."""


@dataclass(frozen=True)
class Timeouts:
    """How long each exchange may take before the engine counts as hung (seconds)."""

    launch_s: float = 10.0
    """Process start until `usiok` (ShogiHome's default is also 10 s)."""
    ready_s: float = 30.0
    """`isready` until `readyok` (engines load evaluation files here)."""
    bestmove_margin_s: float = 2.0
    """Added to a search's time budget (own time + byoyomi/increment, or movetime) before giving up."""
    unbounded_search_s: float = 60.0
    """Limit for searches not bounded by time (`go nodes`, `go depth`, `go mate infinite`)."""
    stop_s: float = 5.0
    """`stop` until `bestmove` (or `checkmate`)."""
    quit_grace_s: float = 2.0
    """`quit` until the process exits; then terminate, and kill after the same grace again."""

    def __post_init__(self) -> None:
        for name in ("launch_s", "ready_s", "bestmove_margin_s", "unbounded_search_s", "stop_s", "quit_grace_s"):
            if getattr(self, name) <= 0:
                raise ValueError(f"engine timeout {name} must be positive, got {getattr(self, name)}")


@dataclass(frozen=True)
class EngineLimits:
    """How strongly the engine plays when the game gives it no clock of its own.

    Attributes:
        time_ms: fixed thinking time per move (sent as `go movetime`, or as byoyomi to gpsusi).
        nodes: node limit per move (`go nodes`).
        depth: depth limit per move (`go depth`).
        skill_level: the engine's skill option (fairy-stockfish `Skill Level`, -20..20); an engine without one
            is refused at start-up.
    """

    time_ms: int | None = None
    nodes: int | None = None
    depth: int | None = None
    skill_level: int | None = None

    def __post_init__(self) -> None:
        fixed = [v for v in (self.time_ms, self.nodes, self.depth) if v is not None]
        if len(fixed) > 1:
            raise ValueError("engine limits: give at most one of time_ms, nodes, depth")
        if any(v <= 0 for v in fixed):
            raise ValueError(f"engine limits must be positive: {self}")

    def go_limits(self) -> GoLimits | None:
        """The fixed per-move limit as `GoLimits`, or None when the game clock decides."""
        if self.time_ms is not None:
            return GoLimits(movetime_ms=self.time_ms)
        if self.nodes is not None:
            return GoLimits(nodes=self.nodes)
        if self.depth is not None:
            return GoLimits(depth=self.depth)
        return None


@dataclass(frozen=True)
class EngineSpec:
    """Everything needed to start and configure one engine.

    Attributes:
        engine: a known name (`fairy-stockfish`, `gpsusi`), any name on PATH or in /usr/games, or a path.
        options: `setoption` values by name (`USI_Hash`/`Hash` and `USI_Ponder`/`Ponder` are interchangeable).
        limits: strength limits.
        timeouts: protocol timeouts.
        args: extra command-line arguments for the engine.
    """

    engine: str = DEFAULT_ENGINE
    options: Mapping[str, OptionValue] = field(default_factory=dict)
    limits: EngineLimits = field(default_factory=EngineLimits)
    timeouts: Timeouts = field(default_factory=Timeouts)
    args: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not self.engine.strip():
            raise ValueError("engine name or path must not be empty")

    def resolve(self, path_env: str | None = None) -> Path:
        """The engine executable (see `resolve_engine_path`)."""
        return resolve_engine_path(self.engine, path_env)

    def argv(self, path_env: str | None = None) -> list[str]:
        """The command line that starts the engine."""
        return [str(self.resolve(path_env)), *self.args]


def resolve_engine_path(engine: str, path_env: str | None = None, games_dir: Path = DEBIAN_GAMES_DIR) -> Path:
    """Find the engine executable.

    A value with a slash is a path and must be an executable file. A bare name is looked up on PATH
    (`path_env`, default the process's PATH) and then in `games_dir`.

    Raises:
        EngineNotFound: naming where it looked and, for known engines, the package to install.
    """
    if os.sep in engine or engine.startswith("."):
        path = Path(engine).expanduser()
        if path.is_file() and os.access(path, os.X_OK):
            return path.absolute()
        raise EngineNotFound(f"engine {engine!r} is not an executable file")
    found = shutil.which(engine, path=path_env if path_env is not None else os.environ.get("PATH", os.defpath))
    if found is not None:
        return Path(found).absolute()
    candidate = games_dir / engine
    if candidate.is_file() and os.access(candidate, os.X_OK):
        return candidate
    hint = INSTALL_HINTS.get(engine)
    how = f"install it with `{hint}`" if hint else "install it or give the path to its executable"
    raise EngineNotFound(f"USI engine {engine!r} not found on PATH or in {games_dir}: {how}")


_LIMIT_KEYS = ("time_ms", "nodes", "depth", "skill_level")
_TIMEOUT_KEYS = tuple(Timeouts.__dataclass_fields__)


def spec_from_config(table: Mapping[str, object], where: str = "engine") -> EngineSpec:
    """An `EngineSpec` from a TOML table such as::

        [engine]
        engine = "fairy-stockfish"      # or "gpsusi", or a path
        time_ms = 1000                  # or nodes / depth
        skill_level = 5
        args = []
        [engine.options]
        USI_Hash = 64
        [engine.timeouts]
        launch_s = 10.0

    Raises:
        ValueError: an unknown key or a value of the wrong type, named with `where` (e.g. `engine.nodes`).
    """
    known = {"engine", "options", "timeouts", "args", *_LIMIT_KEYS}
    unknown = sorted(set(table) - known)
    if unknown:
        raise ValueError(f"[{where}]: unknown key(s) {', '.join(unknown)} (known: {', '.join(sorted(known))})")
    engine = table.get("engine", DEFAULT_ENGINE)
    if not isinstance(engine, str):
        raise ValueError(f"{where}.engine must be text, got {engine!r}")
    limits = EngineLimits(**{key: _int_or_none(table.get(key), f"{where}.{key}") for key in _LIMIT_KEYS})
    return EngineSpec(
        engine=engine,
        options=_options(table.get("options", {}), f"{where}.options"),
        limits=limits,
        timeouts=_timeouts(table.get("timeouts", {}), f"{where}.timeouts"),
        args=_args(table.get("args", []), f"{where}.args"),
    )


def _int_or_none(value: object, where: str) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{where} must be a whole number, got {value!r}")
    return value


def _options(value: object, where: str) -> dict[str, OptionValue]:
    if not isinstance(value, Mapping):
        raise ValueError(f"{where} must be a table of option = value")
    out: dict[str, OptionValue] = {}
    for name, item in value.items():
        if not isinstance(item, str | int | bool):
            raise ValueError(f"{where}.{name} must be text, a number or true/false, got {item!r}")
        out[str(name)] = item
    return out


def _timeouts(value: object, where: str) -> Timeouts:
    if not isinstance(value, Mapping):
        raise ValueError(f"{where} must be a table of seconds")
    unknown = sorted(set(value) - set(_TIMEOUT_KEYS))
    if unknown:
        raise ValueError(f"{where}: unknown key(s) {', '.join(unknown)} (known: {', '.join(_TIMEOUT_KEYS)})")
    seconds: dict[str, float] = {}
    for key, item in value.items():
        if isinstance(item, bool) or not isinstance(item, int | float):
            raise ValueError(f"{where}.{key} must be a number of seconds, got {item!r}")
        seconds[str(key)] = float(item)
    return Timeouts(**seconds)


def _args(value: object, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ValueError(f"{where} must be a list of text")
    return tuple(value)
