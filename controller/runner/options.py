"""What a game session is asked for, and what it reports: the options of `play`, `record` and `demo`, the config
they name, the game's settings and engine with the command's overrides, and the figures of a finished session.

Owns: `SessionOptions`, `SessionResult`, `SessionError`, and `load` / `game_settings` / `engine_spec` /
`sente_side`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from controller import compose
from controller.config import Config, load_config
from controller.engines.spec import EngineLimits, EngineSpec
from controller.game.clock import ClockConfig
from controller.game.settings import GameSettings, Mode
from controller.rules.types import Color
from controller.runner.effects import GameFiles
from controller.runner.shell import ShellReport


class SessionError(ValueError):
    """The session cannot start as asked (the message says why and what to do)."""


@dataclass(frozen=True)
class SessionOptions:
    """What a command asked for.

    Attributes:
        mode: play or record.
        config: the config file, or None with `sim` (the shipped simulation config).
        sim: simulate the world (virtual board, camera, person, GRBL device).
        sim_human: `engine` or a record file the simulated human plays (default: the config's [sim] human).
        engine: engine name or path replacing the config's.
        engine_side: the engine's side replacing the config's.
        clock: a time control replacing the config's.
        movetime_ms: the engine's fixed time per move replacing the config's limits.
        gantry: False for assist mode (None: the config's).
        out: folder for the journal and records (None: the config's journal_dir).
        name: base name of the game's files (None: mode and start time).
        resume: a journal to continue.
        web: serve the web page; `listen` and `port` where.
        max_plies: stop after this many moves.
        seed: the simulation's seed (None: the config's).
        port: the gantry's serial port (real hardware), replacing the config's [gantry] port.
        sente_side: the picture side sente sits at, replacing the config's [camera] sente_side.
        style: the simulated board's piece style, replacing the config's [sim] piece_style.
        board_every: print the compact board every this many moves.
        stall_s: abort when no move is made for this long.
        speak: speak announcements and moves with espeak-ng in this language (`en`, `ja`), None for silence.
        remote: a `controller.remote.links.RemoteLink`: the opponent is that server's player (play mode).
        remote_server: where the remote game is, for the record (`csa://host:port`, `lishogi`).
        keep_serving: with `web`, stay up after a game: the next one is started from the page.
    """

    mode: Mode
    config: Path | None = None
    sim: bool = False
    sim_human: str | None = None
    engine: str | None = None
    engine_side: Color | None = None
    clock: ClockConfig | None = None
    movetime_ms: int | None = None
    gantry: bool | None = None
    out: Path | None = None
    name: str | None = None
    resume: Path | None = None
    web: bool = False
    listen: str = "127.0.0.1"
    web_port: int = 8080
    max_plies: int | None = None
    seed: int | None = None
    port: str | None = None
    sente_side: str | float | None = None
    style: str | None = None
    board_every: int = 10
    stall_s: float = 300.0
    speak: str | None = None
    remote: Any = None
    remote_server: str = ""
    keep_serving: bool = False


@dataclass
class SessionResult:
    """How the session went: the shell's report, where the files are, the simulated world's truth."""

    report: ShellReport
    files: GameFiles
    robot_runs: int = 0
    transfers: int = 0
    human_moves: list[str] = field(default_factory=list)
    lost_pieces: list[str] = field(default_factory=list)
    board_matches: bool | None = None
    """Simulation only: the virtual board's resting pieces at the end are the recorded game's final position."""
    final_frame: Any = None
    frames: int = 0
    reads: int = 0
    remote_figures: Any = None
    """Remote play only: `controller.runner.remote_opponent.RemoteFigures`."""


def load(options: SessionOptions) -> Config:
    """The config the options name (the shipped simulation config for `--sim` without `--config`)."""
    if options.config is None and not options.sim:
        raise SessionError("give --config FILE for real hardware, or --sim for the simulated board")
    return load_config(options.config if options.config is not None else compose.sim_config_path())


def game_settings(config: Config, options: SessionOptions) -> GameSettings:
    """The game's settings: the config's, with the command's overrides."""
    settings = config.game_settings(options.mode)
    if options.mode is Mode.PLAY:
        side = options.engine_side or settings.opponent_side
        gantry = settings.gantry if options.gantry is None else options.gantry
        settings = replace(settings, opponent_side=side, gantry=gantry)
    if options.clock is not None:
        settings = replace(settings, clock=options.clock)
    return settings


def engine_spec(config: Config, options: SessionOptions) -> EngineSpec:
    """The opponent engine: the config's, with the command's name and strength."""
    spec = config.engine
    if options.engine is not None:
        spec = replace(spec, engine=options.engine, options={})
    if options.movetime_ms is not None:
        spec = replace(spec, limits=EngineLimits(time_ms=options.movetime_ms))
    return spec


def sente_side(config: Config, options: SessionOptions) -> str | float | None:
    """The picture side sente sits at for a real camera: the command's, else the config's (None: the reader
    decides from the pieces)."""
    if options.sente_side is not None:
        return options.sente_side
    return config.camera.sente_side if config.camera is not None else None
