"""One game session, wired: the config and flags turned into parts, the shell run, everything closed again.

Owns: `run_session`: build the parts through `controller.compose`, real or simulated as chosen explicitly by
`--sim` or the config, start or resume the game, run the shell, close engines, gantry, fake device and web server
(the options and figures are `controller.runner.options`). The reader learns the piece set from each new game's
confirmed standard start unless [vision] says otherwise (`compose.piece_set`). With `--sim`, only the world is
simulated (board, camera, person, GRBL device): the reader, reconciler, rules, engine, planner and serial link are
the real ones.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from controller import compose
from controller.config import Config, engine_header
from controller.engines.protocol import GoLimits
from controller.engines.spec import EngineLimits, EngineSpec
from controller.game.commands import Command
from controller.game.events import Abort, Event
from controller.game.gamelog import JOURNAL_SUFFIX, GameLog
from controller.game.live_records import LiveRecords
from controller.game.machine import initial, resume_game
from controller.game.settings import GameSettings, Mode
from controller.game.state import GameState
from controller.planning.executor import Executor
from controller.planning.planner import Capabilities
from controller.planning.state import PhysicalState
from controller.reconcile.reconciler import Reconciler
from controller.rules.types import Color
from controller.runner import remote_game
from controller.runner.calibrations import GantrySurveyor, SetLearner
from controller.runner.camera_page import FramesToPage
from controller.runner.effects import Effects, GameFiles, Say
from controller.runner.opponent import EngineOpponent, Opponent
from controller.runner.options import (
    SessionError,
    SessionOptions,
    SessionResult,
    engine_spec,
    game_settings,
    load,
    sente_side,
)
from controller.runner.page_controls import PageControls
from controller.runner.remote_opponent import RemoteOpponent
from controller.runner.robot import GantryRobot
from controller.runner.session_parts import Hold, NoGantry, board_matches, console_answers, names, stamp
from controller.runner.set_relearning import watch_confirmed
from controller.runner.shell import GameShell, Limits, ShellReport
from controller.runner.sim_scene import EngineHuman, MoveSource, RecordHuman, SimScene

EyesFactory = Callable[..., Any]
"""Builds the loop's eyes on a frame source (and the known sente side), by default
`controller.compose.camera_eyes`: the real motion gate and reader."""


def run_session(options: SessionOptions, say: Say = print, *, eyes: EyesFactory | None = None) -> SessionResult:
    """Build the parts, play the game to its end (or the cap), close everything; returns the figures.

    `eyes` replaces the real motion gate and reader (tests that check everything but the reader inject one).
    """
    config = load(options)
    if options.keep_serving and not options.web:
        raise SessionError("--keep-serving needs --web: the next game is started from the page")
    with contextlib.ExitStack() as stack:
        session = _Session(config, options, say, stack, eyes or compose.camera_eyes)
        return session.run()


class _Session:
    """The parts of one session (built in order; the exit stack closes them in reverse)."""

    def __init__(
        self, config: Config, options: SessionOptions, say: Say, stack: contextlib.ExitStack, eyes: EyesFactory
    ) -> None:
        self.config, self.options, self.say, self.stack = config, options, say, stack
        self.make_eyes = eyes
        self.clock = compose.MonotonicClock()
        self.shell_ref: list[GameShell] = []
        self._ask_holder: dict[str, Callable[[Any], None]] = {}
        self._restart: compose.GantryRestart | None = None
        self.remote: RemoteOpponent | None = None
        self._engine_name = ""
        self.emergency = False
        self.hardware_now = config.hardware
        """The hardware settings the robot uses now (a gantry calibration on the page replaces the geometry)."""

    def post(self, event: Event) -> None:
        """Queue an event for the shell (from worker threads)."""
        self.shell_ref[0].post(event)

    def run(self) -> SessionResult:
        state, commands, files = self._start_game()
        settings = state.settings
        position = state.sfen()
        reconciler = Reconciler(sfen=settings.start_sfen)
        effects = Effects(reconciler, files, say=self.say, board_every=self.options.board_every)
        world = self._world(settings, position)
        compose.vision_threads(self.config.vision.threads)
        eyes = (
            self.make_eyes(world.camera, world.sente_side)
            if world is not None
            else self.make_eyes(self._real_camera(), sente_side(self.config, self.options))
        )
        learning_eyes = eyes  # the reader that learns the set (the page's wrapper comes later)
        effects.on_start = compose.piece_set(
            eyes,
            self.config.vision,
            self.say,
            lambda: effects.files.base,
            resumed=self.options.resume is not None,
            reader_changed=reconciler.reader_changed,
        )
        if settings.mode is Mode.PLAY:
            effects.opponent = self._opponent()
            effects.names = names(settings, self.config.engine.engine)
            if self.remote is not None and self.remote.start is not None:
                effects.names = remote_game.names(self.remote.start)
        if settings.gantry:
            effects.robot = robot = self._robot(world, effects)
            if hasattr(eyes, "arm_busy"):
                eyes.arm_busy = lambda: robot.busy
        scene = self._scene(world, settings, effects) if world is not None else None
        if world is None:
            console_answers(effects)
        self._buttons(effects)
        self._speech(effects)
        eyes = self._web(effects, eyes)
        limits = Limits(
            max_plies=self.options.max_plies, stall_s=self.options.stall_s, keep_serving=self.options.keep_serving
        )
        shell = GameShell(
            state, commands, eyes=eyes, reconciler=watch_confirmed(reconciler, learning_eyes), effects=effects,
            clock=self.clock, scene=scene, limits=limits,
        )  # fmt: skip
        self.shell_ref.append(shell)
        if self.remote is not None:
            self.remote.listen(self.post)
        try:
            report = shell.run()
        finally:
            if effects.robot is not None:
                # after an emergency stop the arm is held mid-move: the session closes the link, which ends the move
                effects.robot.wait(1.0 if self.emergency else None)
        return self._result(report, files, effects, world=world, eyes=eyes, scene=scene)

    # --- the game's files -----------------------------------------------------------------------------------

    def _start_game(self) -> tuple[GameState, list[Command], GameFiles]:
        options, config = self.options, self.config
        if options.remote is not None:
            if options.resume is not None:
                raise SessionError("a remote game resumes on the server: reconnect without --resume")
            return self._remote_game()
        if options.resume is not None:
            return self._resume(options.resume)
        settings = game_settings(config, options)
        out = options.out or config.game.journal_dir
        name = options.name or f"{settings.mode.value}-{stamp()}"
        engine = engine_header(engine_spec(config, options)) if settings.mode is Mode.PLAY else {}
        files = GameFiles(out / name, config.game.record_formats, engine)
        state, commands = initial(settings)
        return state, list(commands), files

    def _remote_game(self) -> tuple[GameState, list[Command], GameFiles]:
        """Join the remote game; the local game starts from the server's position with the server's clock."""
        opponent = RemoteOpponent(self.options.remote, say=self.say)
        self.stack.callback(opponent.close)
        self.say(f"  remote: waiting for the game to start on {self.options.remote_server or 'the server'} ...")
        start = opponent.connect()
        self.remote = opponent
        settings = remote_game.remote_settings(game_settings(self.config, self.options), start)
        self.say(
            f"  remote: game {start.game_id}: {start.black_name} (sente) vs {start.white_name} (gote); "
            f"the board plays {'sente' if start.local_side is Color.BLACK else 'gote'}"
        )
        out = self.options.out or self.config.game.journal_dir
        name = self.options.name or f"remote-{stamp()}"
        opponent_header = remote_game.header(start, self.options.remote_server)
        files = GameFiles(out / name, self.config.game.record_formats, opponent_header)
        state, commands = initial(settings)
        return state, list(commands), files

    def _resume(self, journal: Path) -> tuple[GameState, list[Command], GameFiles]:
        if not journal.name.endswith(JOURNAL_SUFFIX):
            raise SessionError(f"{journal}: a journal's name ends with {JOURNAL_SUFFIX}")
        base = journal.with_name(journal.name[: -len(JOURNAL_SUFFIX)])
        formats = self.config.game.record_formats
        log, resumed = GameLog.reopen(base, LiveRecords(base, formats))
        self.stack.callback(log.close)
        if resumed.torn is not None:
            self.say(f"  journal: a torn last line ({resumed.torn.size} bytes) was cut off")
        state, commands = resume_game(resumed)
        self.say(f"  resuming {journal}: {len(state.moves)} moves played")
        return state, list(commands), GameFiles(base, formats, dict(resumed.header.engine), log)

    # --- parts ----------------------------------------------------------------------------------------------

    def _world(self, settings: GameSettings, position: str) -> compose.SimWorld | None:
        if not self.options.sim:
            return None
        if self.config.hardware is None:
            raise SessionError("--sim needs the hardware sections ([gantry], [board], [stands], [gpio]) in the config")
        sim = self.config.sim
        seed = sim.seed if self.options.seed is None else self.options.seed
        size = self.config.camera.resolution if self.config.camera is not None else (800, 600)
        style = self.options.style or compose.sim_piece_style(sim.piece_style, seed)
        if style != sim.piece_style:
            self.say(f"  simulated piece style: {style}")
        world = compose.sim_world(
            self.config.hardware, position, seed=seed, style=style, size=size, gantry=settings.gantry
        )
        self.stack.callback(world.close)
        return world

    def _real_camera(self) -> Any:
        if self.config.camera is None:
            raise SessionError("the config has no [camera] section")
        camera = compose.real_camera(self.config.camera)
        self.stack.callback(camera.close)
        return camera

    def _opponent(self) -> Opponent:
        if self.remote is not None:
            return self.remote
        spec = engine_spec(self.config, self.options)
        self._engine_name = spec.engine
        engine = compose.usi_engine(spec)
        opponent = EngineOpponent(engine, self.post, fixed=spec.limits.go_limits(), on_error=self._engine_failed)
        self.stack.callback(opponent.close)
        return opponent

    def _engine_failed(self, text: str) -> None:
        self.post(Abort(text))

    def _robot(self, world: compose.SimWorld | None, effects: Effects) -> GantryRobot:
        hardware = self.config.hardware
        if hardware is None:
            raise SessionError("a gantry needs the hardware sections in the config")
        if world is not None:
            assert world.gantry is not None
            gantry = world.gantry
        else:
            configured = self.options.port or self.config.gantry_port
            if configured is None:
                raise SessionError(
                    "the gantry's serial port is needed: [gantry] port in the config or --port /dev/ttyACM0 "
                    "(or gantry = false)"
                )
            gantry = compose.open_gantry(configured, hardware)
            self.stack.callback(gantry.close)
            gantry.home()
        port = world.server.path if world is not None else (self.options.port or self.config.gantry_port or "")
        restart = compose.GantryRestart(gantry, lambda: compose.open_gantry(port, hardware))

        def ask_human(transfer: Any) -> None:
            raise RuntimeError(f"the gantry needs a person: {transfer.describe()}")

        holder: dict[str, Callable[[Any], None]] = {"ask": ask_human}

        def ask(transfer: Any) -> None:
            holder["ask"](transfer)

        def make(state: PhysicalState) -> Executor:
            return compose.executor(restart.gantry, self.hardware_now or hardware, state, ask_human=ask)

        def bring_back(interruption: Any) -> None:
            restart(interruption)

        self._ask_holder = holder
        self._restart = restart
        return GantryRobot(make, Capabilities.of(hardware.geometry), self.post, restart=bring_back)

    def _scene(self, world: compose.SimWorld, settings: GameSettings, effects: Effects) -> SimScene:
        sides = (Color.BLACK, Color.WHITE) if settings.opponent_side is None else (settings.opponent_side.opponent,)
        robot = effects.robot
        scene = SimScene(
            world.board,
            world.human,
            self._move_source(),
            sides,
            self.post,
            robot_busy=(lambda: robot is not None and robot.busy),
        )
        effects.on_prompt = scene.answer
        if robot is not None:
            self._ask_holder["ask"] = scene.fix_piece
        return scene

    def _move_source(self) -> MoveSource:
        choice = self.options.sim_human or self.config.sim.human
        if choice != "engine":
            from controller.records.io import read_record

            return RecordHuman(read_record(Path(choice)).usi_moves)
        strength = EngineLimits(skill_level=self.config.sim.human_skill_level)
        spec = EngineSpec(self.config.sim.human_engine, options={"USI_Hash": 16, "Threads": 1}, limits=strength)
        engine = compose.usi_engine(spec)
        self.stack.callback(engine.close)
        return EngineHuman(engine, GoLimits(movetime_ms=self.config.sim.human_movetime_ms))

    def _web(self, effects: Effects, eyes: Any) -> Any:
        """Serve the page when asked; returns the eyes, wrapped to send the page a camera frame each second."""
        if not self.options.web:
            return eyes
        from controller.web.hub import ViewHub
        from controller.web.server import WebServer

        hub = ViewHub()
        try:
            server = WebServer(hub, self.options.listen, self.options.web_port)
        except OSError as exc:
            raise SessionError(
                f"cannot serve the page on {self.options.listen}:{self.options.web_port}: {exc}"
            ) from exc
        server.start()
        self.stack.callback(server.stop)
        effects.hub = hub
        effects.controls = self._page_controls(effects, eyes)
        effects.publish_idle("waiting for the starting position")
        self.say(f"  web page: {server.url}")
        return FramesToPage(eyes, hub, self.clock)

    def _page_controls(self, effects: Effects, eyes: Any) -> PageControls:
        """The page's emergency stop, jog and calibrations, on this session's gantry and reader."""
        restart, out = self._restart, self.options.out or self.config.game.journal_dir
        holdable: Any = NoGantry() if restart is None else Hold(restart)

        def hold() -> None:
            self.emergency = True
            holdable.hold()

        reader = getattr(eyes, "reader", None)
        learner = SetLearner(reader, out / "piece-set.json") if hasattr(reader, "use_calibration") else None
        surveyor = None
        if restart is not None and self.hardware_now is not None:
            surveyor = GantrySurveyor(self._geometry, self._use_geometry, out / "board-transform.toml")
        controls = PageControls(
            effects.tell, hold, lambda: None if restart is None else restart.gantry,
            lambda: effects.robot is not None and effects.robot.busy, lambda: getattr(eyes, "last_frame", None),
            learner=learner, surveyor=surveyor, use_engine=lambda name: self._use_engine(effects, name),
            remote=self.remote,
        )  # fmt: skip
        self.stack.callback(controls.wait)
        return controls

    def _use_engine(self, effects: Effects, name: str | None) -> None:
        """The next game's engine (from the page): started when it is another one, or when none runs yet."""
        spec = engine_spec(self.config, self.options)
        if name is not None:
            spec = replace(spec, engine=name, options={} if name != spec.engine else spec.options)
        if effects.opponent is not None and spec.engine == self._engine_name:
            return
        opponent = EngineOpponent(
            compose.usi_engine(spec), self.post, fixed=spec.limits.go_limits(), on_error=self._engine_failed
        )
        self.stack.callback(opponent.close)
        if effects.opponent is not None:
            effects.opponent.close()
        effects.opponent, self._engine_name = opponent, spec.engine
        effects.files.engine = engine_header(spec)

    def _geometry(self) -> Any:
        assert self.hardware_now is not None
        return self.hardware_now.geometry

    def _use_geometry(self, geometry: Any) -> None:
        assert self.hardware_now is not None
        self.hardware_now = replace(self.hardware_now, geometry=geometry)

    def _speech(self, effects: Effects) -> None:
        if self.options.speak is None:
            return
        from controller.runner.effects import BackgroundSpeaker
        from controller.speech import EspeakSpeaker, SpeechUnavailableError

        try:
            speaker = BackgroundSpeaker(EspeakSpeaker(self.options.speak))
        except SpeechUnavailableError as exc:
            raise SessionError(str(exc)) from exc
        self.stack.callback(speaker.close)
        effects.speaker, effects.speech_language = speaker, self.options.speak

    def _buttons(self, effects: Effects) -> None:
        """The GPIO panel's move-done and clock buttons, as events (real hardware; the fake backend in --sim)."""
        hardware = self.config.hardware
        if hardware is None:
            return
        from controller.game.events import Button, ButtonPressed

        def press(button: Button) -> Callable[[Any], None]:
            return lambda side: effects.outside.put(ButtonPressed(button, Color(side.value)))

        backend = compose.gpio_backend(hardware.gpio, self.clock)
        holdable: Any = NoGantry() if self._restart is None else Hold(self._restart)
        compose.panel(
            backend, hardware.gpio, holdable, on_move_done=press(Button.MOVE_DONE), on_clock=press(Button.CLOCK)
        )

    def _result(
        self, report: ShellReport, files: GameFiles, effects: Effects, *, world: Any, eyes: Any, scene: Any
    ) -> SessionResult:
        result = SessionResult(report, files, final_frame=getattr(eyes, "last_frame", None))
        result.frames, result.reads = getattr(eyes, "frames", 0), getattr(eyes, "reads", 0)
        if self.remote is not None:
            result.remote_figures = self.remote.figures
        if effects.robot is not None:
            result.robot_runs = len(effects.robot.runs)
            result.transfers = sum(run.transfers for run in effects.robot.runs)
        if scene is not None:
            result.human_moves = list(scene.played)
        if world is not None:
            result.lost_pieces = [f"{p.label} ({p.why})" for p in world.board.lost]
            result.board_matches = board_matches(world.board, report.state)
        return result
