"""The one TOML config of shogi-robot, read and validated once at start-up into frozen dataclasses.

Owns: the sections [game], [clock], [engine], [camera], [vision] and [sim], and the check that the file holds no
section or key anybody does not know. The hardware sections ([gantry], [board], [stands], [gpio]) are read by
`hardware.settings` (all four, or none: a config without them has no hardware settings). Every error is a
`hardware.errors.ConfigError` (a ValueError) naming the section and the key: unknown key, wrong type, out of
range, missing required. Relative paths are taken from the config file's directory.
"""

from __future__ import annotations

import enum
import tomllib
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from controller.engines.spec import EngineLimits, EngineSpec, OptionValue, Timeouts
from controller.game.clock import ClockConfig
from controller.game.errors import GameError
from controller.game.settings import GameSettings, ImpasseSetting, Mode, OpponentKind
from controller.rules.errors import RulesError
from controller.rules.positions import resolve_start
from controller.rules.types import Color
from hardware.config import Section, load_toml
from hardware.errors import ConfigError
from hardware.settings import HardwareSettings, settings_from_document

HARDWARE_SECTIONS = ("gantry", "board", "stands", "gpio")
CONTROLLER_SECTIONS = ("game", "clock", "engine", "camera", "vision", "sim")
KNOWN_SECTIONS = CONTROLLER_SECTIONS + HARDWARE_SECTIONS
"""Every top-level table the config may hold; another is an error (a typo, or a key outside its table)."""

SIDES = {"black": Color.BLACK, "sente": Color.BLACK, "white": Color.WHITE, "gote": Color.WHITE}


class CameraKind(enum.StrEnum):
    """Where frames come from."""

    PICAMERA2 = "picamera2"
    OPENCV = "opencv"
    FILE = "file"
    VIRTUAL = "virtual"


@dataclass(frozen=True)
class GameConfig:
    """[game]: what is played and where the game's files go.

    Attributes:
        mode: play or record (the `play`/`record` commands choose it too).
        engine_side: the side the opponent plays in play mode.
        opponent: engine (or remote, later).
        start_sfen: the start position (from `start`: `startpos`, a handicap name, or an SFEN).
        impasse: the impasse rule (24, 27, count24, count27).
        gantry: the robot plays the opponent's moves; false = assist mode (the human plays them).
        clock_button: a clock or move-done button press ends a move's time.
        journal_dir: where journals and records are written.
        record_formats: the record files kept as the game goes (extensions of `controller.records`).
    """

    mode: Mode = Mode.PLAY
    engine_side: Color = Color.WHITE
    opponent: OpponentKind = OpponentKind.ENGINE
    start_sfen: str = ""
    impasse: ImpasseSetting = ImpasseSetting.DECLARE_27
    gantry: bool = True
    clock_button: bool = False
    journal_dir: Path = Path("games")
    record_formats: tuple[str, ...] = ("kifu", "csa")


@dataclass(frozen=True)
class CameraConfig:
    """[camera]: the camera and the stand regions.

    Attributes:
        kind: picamera2, opencv (a device index), file (an image, a directory of images or a video) or virtual.
        index: the OpenCV device index (kind opencv).
        path: the file or directory (kind file).
        resolution: frame width and height in pixels.
        stand_regions: per side (`b`, `w`), the stand's corners in board grid units, when not the default.
        sente_side: the picture side sente sits at (`bottom`, `top`, `left`, `right`, or a direction in degrees,
            0 = right, 90 = bottom, as `vision.orientation`), fixed by the camera's mount; None: the reader
            decides from the pieces (sente towards the picture bottom).
    """

    kind: CameraKind
    index: int | None = None
    path: Path | None = None
    resolution: tuple[int, int] = (1640, 1232)
    stand_regions: Mapping[str, tuple[tuple[float, float], ...]] | None = None
    sente_side: str | float | None = None


@dataclass(frozen=True)
class VisionConfig:
    """[vision]: what the reader knows of the piece set.

    Attributes:
        learn_set: learn the set from each game's starting position once the setup check confirms it (the
            standard start only; `controller.runner.set_learning`), and read with it from then on.
        learn_set_again: with `learn_set`, also learn from positions the game confirms later (pieces on squares
            the start never showed, squares read wrong; `controller.runner.set_relearning`). Off by default: on
            development games 401-410 it gave 0 false moves and 1.47 prompts per 100 moves against 0 and 1.20
            with the start alone, for 1.5-3 s of a core per learning, several learnings a game; on development
            games 21-30 on two-character faces (`bench game --family plain2`) 0 false moves and 3.74 prompts
            per 100 against 0 and 3.19 (2 false drops before the reconciler stopped trusting its habits on this
            set while they hold fewer than `DECIDING_SQUARE_FRAMES`; each learning resets them).
        calibration: the user's calibration file (`shogi-robot vision calibrate`, or the page's `piece-set.json`),
            read with from the start; it wins: nothing is then learnt. None: no such file.
        threads: the threads OpenCV and numpy's BLAS may use for the reader (the whole process:
            `controller.compose.vision_threads`). One by default, as `shogi-robot bench vision` measures it: on 20
            development frames here (2 cores, 2026-11-29) two threads read a whole board in 99.5 ms of wall time
            against 109.1 with one, for 182 ms of CPU against 109; on a Pi the cores a second thread takes belong
            to the engine thinking at the same time.
    """

    learn_set: bool = True
    calibration: Path | None = None
    learn_set_again: bool = False
    threads: int = 1


@dataclass(frozen=True)
class SimConfig:
    """[sim]: the simulated world used with `--sim`.

    Attributes:
        seed: the random seed of the simulated human and the virtual camera.
        piece_style: a shipped piece style (`vision/assets/pieces/<style>`), or `random`.
        human: `engine` (a second engine instance plays the human) or a record file to replay.
        human_engine: the engine playing the simulated human.
        human_movetime_ms: its thinking time per move.
        human_skill_level: its `Skill Level` (fairy-stockfish, -20..20; None: full strength): a weaker simulated
            human loses to the robot's engine, so a simulated game ends by mate in a few minutes.
    """

    seed: int = 0
    piece_style: str = "kanji_light"
    human: str = "engine"
    human_engine: str = "fairy-stockfish"
    human_movetime_ms: int = 200
    human_skill_level: int | None = None


@dataclass(frozen=True)
class Config:
    """The whole validated config."""

    game: GameConfig
    clock: ClockConfig
    engine: EngineSpec
    camera: CameraConfig | None
    sim: SimConfig
    hardware: HardwareSettings | None
    source: Path | None = None
    gantry_port: str | None = None
    """[gantry] port: the gantry controller's serial device (`--port` overrides it); None when not given."""
    vision: VisionConfig = field(default_factory=VisionConfig)

    def game_settings(self, mode: Mode | None = None) -> GameSettings:
        """The state machine's settings, for `mode` (default: the config's)."""
        mode = mode or self.game.mode
        play = mode is Mode.PLAY
        return GameSettings(
            mode=mode,
            start_sfen=self.game.start_sfen,
            opponent_side=self.game.engine_side if play else None,
            opponent=self.game.opponent,
            gantry=self.game.gantry and play,
            clock=self.clock,
            impasse=self.game.impasse,
            clock_button=self.game.clock_button,
        )


def engine_header(spec: EngineSpec) -> dict[str, Any]:
    """The engine as the journal's header records it (JSON-ready)."""
    limits = {k: v for k, v in vars(spec.limits).items() if v is not None}
    return {"name": spec.engine, "args": list(spec.args), "options": dict(spec.options), "limits": limits}


class _Reader(Section):
    """`hardware.config.Section` with the getters the controller's sections need."""

    def table(self, key: str) -> _Reader | None:
        self._seen.add(key)
        if key not in self._table:
            return None
        return _Reader(f"{self.name}.{key}", self._table[key])

    def text_or_integer(self, key: str, *, default: str, choices: list[str]) -> str:
        """A string, or an integer taken as its decimal text (`impasse_rule = 27`), one of `choices`."""
        value = self._raw(key, default)
        if isinstance(value, int) and not isinstance(value, bool):
            value = str(value)
        if not isinstance(value, str) or value not in choices:
            raise self._error(key, f"must be one of {', '.join(map(repr, choices))}, got {value!r}")
        return value

    def strings(self, key: str, default: tuple[str, ...]) -> tuple[str, ...]:
        """An array of strings."""
        value = self._raw(key, list(default))
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise self._error(key, f"must be an array of strings, got {value!r}")
        return tuple(value)

    def value(self, key: str) -> object:
        """A key's raw value (marked as read), for keys of more than one type."""
        return self._raw(key, None)

    def options(self) -> dict[str, OptionValue]:
        """Every key of this table as an engine option (text, integer or boolean)."""
        values: dict[str, OptionValue] = {}
        for key, value in self._table.items():
            self._seen.add(key)
            if isinstance(value, float) or not isinstance(value, str | int | bool):
                raise self._error(key, f"must be text, an integer or true/false, got {value!r}")
            values[key] = value
        return values

    def polygon(self, key: str) -> tuple[tuple[float, float], ...] | None:
        """An array of four [x, y] points, when present."""
        if not self.has(key):
            self._seen.add(key)
            return None
        value = self._raw(key, None)
        points = value if isinstance(value, list) and len(value) == 4 else None
        if points is None or not all(
            isinstance(p, list) and len(p) == 2 and all(_is_number(c) for c in p) for p in points
        ):
            raise self._error(key, f"must be four [x, y] points in grid units, got {value!r}")
        return tuple((float(p[0]), float(p[1])) for p in points)

    def path(self, key: str, base: Path, *, must_exist: bool) -> Path:
        """A path (relative to `base`), optionally required to exist."""
        text = self.string(key)
        path = Path(text).expanduser()
        path = path if path.is_absolute() else base / path
        if must_exist and not path.exists():
            raise self._error(key, f"{str(path)!r} does not exist")
        return path


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def load_config(path: Path, styles: Collection[str] | None = None) -> Config:
    """Read and validate a config file (`styles`: the piece styles allowed in [sim], default the shipped ones)."""
    return config_from_document(load_toml(path), path.parent, styles, source=path)


def config_from_text(text: str, base: Path, styles: Collection[str] | None = None) -> Config:
    """Validate config text (tests, and configs embedded elsewhere)."""
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError("config", None, f"not valid TOML: {exc}") from exc
    return config_from_document(doc, base, styles)


def config_from_document(
    doc: Mapping[str, Any], base: Path, styles: Collection[str] | None = None, source: Path | None = None
) -> Config:
    """Validate a parsed TOML document."""
    unknown = sorted(set(doc) - set(KNOWN_SECTIONS))
    if unknown:
        known = ", ".join(KNOWN_SECTIONS)
        raise ConfigError(unknown[0], None, f"unknown section (known: {known})")
    doc, port = split_gantry_port(doc)
    hardware = _read_hardware(doc)
    game = _read_game(_reader("game", doc), base)
    if game.gantry and game.mode is Mode.PLAY and hardware is None:
        raise ConfigError("game", "gantry", "true needs the [gantry], [board], [stands] and [gpio] sections")
    return Config(
        game=game,
        clock=_read_clock(_reader("clock", doc)),
        engine=_read_engine(_reader("engine", doc)),
        camera=_read_camera(_reader("camera", doc), base) if "camera" in doc else None,
        vision=_read_vision(_reader("vision", doc), base),
        sim=_read_sim(_reader("sim", doc), base, styles if styles is not None else shipped_styles()),
        hardware=hardware,
        source=source,
        gantry_port=port,
    )


def split_gantry_port(doc: Mapping[str, Any]) -> tuple[dict[str, Any], str | None]:
    """The document without [gantry] port (the hardware sections do not know it), and the port, checked: a
    device path such as `/dev/ttyACM0` or a pyserial URL such as `socket://host:port`."""
    rest = dict(doc)
    gantry = rest.get("gantry")
    if not isinstance(gantry, Mapping) or "port" not in gantry:
        return rest, None
    port = gantry["port"]
    rest["gantry"] = {key: value for key, value in gantry.items() if key != "port"}
    if not isinstance(port, str) or not port.strip() or port != port.strip():
        raise ConfigError("gantry", "port", f"must be a serial device such as '/dev/ttyACM0', got {port!r}")
    if not (port.startswith("/") or "://" in port):
        raise ConfigError(
            "gantry", "port", f"must be a device path such as '/dev/ttyACM0' or a URL such as 'socket://host:23', "
            f"got {port!r}"
        )  # fmt: skip
    return rest, port


def _reader(name: str, doc: Mapping[str, Any]) -> _Reader:
    return _Reader(name, doc.get(name))


def _read_hardware(doc: Mapping[str, Any]) -> HardwareSettings | None:
    present = [name for name in HARDWARE_SECTIONS if name in doc]
    if not present:
        return None
    return settings_from_document(dict(doc))


def _read_game(s: _Reader, base: Path) -> GameConfig:
    mode = Mode(s.string("mode", default="play", choices=[m.value for m in Mode]))
    side = SIDES[s.string("engine_side", default="white", choices=list(SIDES))]
    opponent = OpponentKind(s.string("opponent", default="engine", choices=[o.value for o in OpponentKind]))
    start = s.string("start", default="startpos")
    try:
        start_sfen = resolve_start(start)
    except RulesError as exc:
        raise ConfigError("game", "start", str(exc)) from exc
    impasse = _impasse(s)
    game = GameConfig(
        mode=mode,
        engine_side=side,
        opponent=opponent,
        start_sfen=start_sfen,
        impasse=impasse,
        gantry=s.boolean("gantry", default=True),
        clock_button=s.boolean("clock_button", default=False),
        journal_dir=s.path("journal_dir", base, must_exist=False) if s.has("journal_dir") else base / "games",
        record_formats=_formats(s),
    )
    s.finish()
    return game


def _impasse(s: _Reader) -> ImpasseSetting:
    choices = [r.value for r in ImpasseSetting]
    return ImpasseSetting(s.text_or_integer("impasse_rule", default="27", choices=choices))


def _formats(s: _Reader) -> tuple[str, ...]:
    from controller.records.io import RecordFormat

    formats = s.strings("record_formats", ("kifu", "csa"))
    for fmt in formats:
        if fmt not in [f.value for f in RecordFormat]:
            known = ", ".join(f.value for f in RecordFormat)
            raise ConfigError("game", "record_formats", f"unknown record format {fmt!r} (known: {known})")
    return formats


def _read_clock(s: _Reader) -> ClockConfig:
    values = {
        "main_s": s.number("main_s", default=600.0, low=0.0),
        "byoyomi_s": s.number("byoyomi_s", default=30.0, low=0.0),
        "increment_s": s.number("increment_s", default=0.0, low=0.0),
        "periods": s.integer("periods", default=1, low=1),
        "untimed": s.boolean("untimed", default=False),
    }
    s.finish()
    try:
        return ClockConfig(**values)  # type: ignore[arg-type]
    except GameError as exc:
        raise ConfigError("clock", None, str(exc)) from exc


def _read_engine(s: _Reader) -> EngineSpec:
    name = s.string("name", default="fairy-stockfish")
    args = s.strings("args", ())
    limits = {
        "time_ms": s.optional_integer("movetime_ms", low=1, high=3_600_000),
        "nodes": s.optional_integer("nodes", low=1),
        "depth": s.optional_integer("depth", low=1, high=200),
        "skill_level": s.optional_integer("skill_level", low=-20, high=20),
    }
    given = [key for key in ("movetime_ms", "nodes", "depth") if s.has(key)]
    if len(given) > 1:
        raise ConfigError("engine", given[1], f"conflicts with {given[0]} (give at most one fixed limit)")
    options_table = s.table("options")
    options = options_table.options() if options_table is not None else {}
    timeouts_table = s.table("timeouts")
    timeouts = _read_timeouts(timeouts_table) if timeouts_table is not None else Timeouts()
    s.finish()
    try:
        return EngineSpec(name, options, EngineLimits(**limits), timeouts, args)
    except ValueError as exc:
        raise ConfigError("engine", None, str(exc)) from exc


def _read_timeouts(s: _Reader) -> Timeouts:
    defaults = Timeouts()
    names = ("launch_s", "ready_s", "bestmove_margin_s", "unbounded_search_s", "stop_s", "quit_grace_s")
    values = {n: s.number(n, default=getattr(defaults, n), low=0.1, high=3600.0) for n in names}
    s.finish()
    return Timeouts(**values)


def _read_camera(s: _Reader, base: Path) -> CameraConfig:
    kind = CameraKind(s.string("kind", choices=[k.value for k in CameraKind]))
    index = s.optional_integer("index", low=0, high=63)
    if index is not None and kind is not CameraKind.OPENCV:
        raise ConfigError("camera", "index", 'only for kind = "opencv"')
    if kind is CameraKind.OPENCV and index is None:
        raise ConfigError("camera", "index", 'required for kind = "opencv"')
    path = None
    if kind is CameraKind.FILE:
        path = s.path("path", base, must_exist=True)
    elif s.has("path"):
        raise ConfigError("camera", "path", 'only for kind = "file"')
    resolution = s.numbers("resolution", 2)
    if resolution is not None and not all(v.is_integer() and 64 <= v <= 8192 for v in resolution):
        raise ConfigError("camera", "resolution", f"must be two whole pixel counts 64..8192, got {resolution}")
    regions = None
    stands = s.table("stands")
    if stands is not None:
        polygons = {side: stands.polygon(name) for side, name in (("b", "black"), ("w", "white"))}
        stands.finish()
        regions = {side: p for side, p in polygons.items() if p is not None}
    sente_side = _sente_side(s)
    s.finish()
    size = (int(resolution[0]), int(resolution[1])) if resolution else (1640, 1232)
    return CameraConfig(kind, index, path, size, regions, sente_side)


SENTE_SIDES = ("bottom", "top", "left", "right")
"""Picture sides `[camera] sente_side` may name (`vision.orientation.SIDES`, copied: vision is not imported)."""


def _sente_side(s: _Reader) -> str | float | None:
    if not s.has("sente_side"):
        return None
    value = s.value("sente_side")
    if isinstance(value, str) and value in SENTE_SIDES:
        return value
    if isinstance(value, int | float) and not isinstance(value, bool) and -360.0 <= value <= 360.0:
        return float(value)
    raise ConfigError(
        "camera", "sente_side", f"must be one of {', '.join(SENTE_SIDES)} or a direction in degrees "
        f"(-360..360, 90 = picture bottom), got {value!r}"
    )  # fmt: skip


def _read_vision(s: _Reader, base: Path) -> VisionConfig:
    learn = s.boolean("learn_set", default=True)
    again = s.boolean("learn_set_again", default=False)
    calibration = s.path("calibration", base, must_exist=True) if s.has("calibration") else None
    if calibration is not None and not calibration.is_file():
        raise ConfigError("vision", "calibration", f"{str(calibration)!r} is not a file")
    threads = s.integer("threads", default=1, low=1, high=64)
    s.finish()
    return VisionConfig(learn, calibration, again, threads)


def _read_sim(s: _Reader, base: Path, styles: Collection[str]) -> SimConfig:
    style = s.string("piece_style", default="kanji_light")
    if style != "random" and style not in styles:
        raise ConfigError("sim", "piece_style", f"unknown style {style!r} (known: random, {', '.join(sorted(styles))})")
    human = s.string("human", default="engine")
    if human != "engine":
        human = str(s.path("human", base, must_exist=True))
    sim = SimConfig(
        seed=s.integer("seed", default=0, low=0, high=2**32 - 1),
        piece_style=style,
        human=human,
        human_engine=s.string("human_engine", default="fairy-stockfish"),
        human_movetime_ms=s.integer("human_movetime_ms", default=200, low=1, high=600_000),
        human_skill_level=s.optional_integer("human_skill_level", low=-20, high=20),
    )
    s.finish()
    return sim


def shipped_styles() -> list[str]:
    """The piece styles shipped in `vision/assets/pieces` (read as files; vision's code is not imported)."""
    root = resources.files("vision").joinpath("assets", "pieces")
    if not root.is_dir():
        return []
    return sorted(p.name for p in root.iterdir() if p.is_dir() and p.joinpath("0FU.png").is_file())
