"""The composition root: the only place (besides the CLI edge) that builds concrete firmware_bridge and hardware
objects, choosing real or fake explicitly from config or flags (never by catching ImportError).

Owns: loading the hardware settings, building the GPIO backend the config names, opening the GRBL gantry on a
port, the gantry restart used by recovery (soft reset or reconnect, then home), and an executor wired to them;
for the game: the camera the config names, the real motion gate and reader on it (learning the piece set from
each game's confirmed start, as [vision] says: `piece_set`; its threads: `vision_threads`), started engines, and the
simulated world of `--sim` (virtual board, camera and person, the fake GRBL device on a pty linked through the
real `GrblGantry`, its head events moving the virtual pieces).
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from controller.config import CameraConfig, CameraKind, VisionConfig, split_gantry_port
from controller.engines.spec import EngineSpec
from controller.planning.executor import AskHuman, Executor, Interruption
from controller.planning.model import Transfer
from controller.planning.state import PhysicalState
from hardware.config import load_toml
from hardware.devices import DeviceHandlers, Devices, build_devices
from hardware.geometry import Side
from hardware.gpio_backend import GpioBackend
from hardware.gpio_settings import GpioBackendKind, GpioSettings
from hardware.settings import HardwareSettings, load_settings, settings_from_document

if TYPE_CHECKING:
    from controller.engines.sync import SyncEngine
    from controller.sim import SimulatedHuman, VirtualBoard, VirtualCamera
    from firmware_bridge.gantry import GrblGantry
    from firmware_bridge.link import LinkTimings


class MonotonicClock:
    """The real clock (time.monotonic)."""

    def now(self) -> float:
        """Monotonic seconds."""
        return time.monotonic()


def hardware_settings(config: Path | None) -> HardwareSettings:
    """The [gantry]/[board]/[stands]/[gpio] settings of `config` (its [gantry] port aside), or the documented
    default when None."""
    if config is None:
        return load_settings(None)
    doc, _port = split_gantry_port(load_toml(config))
    return settings_from_document(doc)


def configured_gantry_port(config: Path | None) -> str | None:
    """The `[gantry] port` of `config` (validated), None when it has none or there is no config."""
    if config is None:
        return None
    return split_gantry_port(load_toml(config))[1]


def gpio_backend(settings: GpioSettings, clock: MonotonicClock | None = None) -> GpioBackend:
    """The backend the config names: the recording fake or the RPi.GPIO API."""
    if settings.backend is GpioBackendKind.FAKE:
        from hardware.gpio_fake import FakeGpio

        return FakeGpio(clock or MonotonicClock())
    from hardware.gpio_rpi import RpiGpio

    return RpiGpio()


class Holdable(Protocol):
    """What the emergency stop needs from the gantry: a real-time feed hold."""

    def hold(self) -> None:
        """Decelerate and stop at once (GRBL `!`)."""
        ...


def panel(
    backend: GpioBackend,
    settings: GpioSettings,
    gantry: Holdable,
    *,
    on_move_done: Callable[[Side], None],
    on_clock: Callable[[Side], None],
) -> Devices:
    """The GPIO devices, with the emergency stop wired to feed hold and to releasing every Pi-driven output.

    An M8 (firmware) magnet is not switched off here: GRBL runs M9 only after the held motion, so the gantry
    stays in Hold with the piece held until a person decides (a reset would drop it where it is).
    """
    holder: list[Devices] = []

    def emergency_stop() -> None:
        with contextlib.suppress(Exception):  # the e-stop must reach the outputs even if the link is dead
            gantry.hold()
        for device in holder:
            device.all_off()

    handlers = DeviceHandlers(on_move_done=on_move_done, on_clock=on_clock, on_emergency_stop=emergency_stop)
    devices = build_devices(backend, settings, handlers)
    holder.append(devices)
    return devices


def firmware_faults() -> tuple[type[BaseException], ...]:
    """The exception types that mean "the firmware link failed" (what the executor stops on)."""
    from firmware_bridge.errors import FirmwareBridgeError

    return (FirmwareBridgeError,)


def open_gantry(
    port: str,
    settings: HardwareSettings,
    *,
    link_timings: LinkTimings | None = None,
    motion_timeout_s: float = 60.0,
    expect_reset: bool = True,
) -> GrblGantry:
    """Open the GRBL gantry on a device path (e.g. what `shogi-robot sim grbl` prints) or a pyserial URL."""
    from firmware_bridge.gantry import GantryTimings, GrblGantry

    timings = GantryTimings(
        motion_timeout_s=motion_timeout_s,
        homing_timeout_s=max(motion_timeout_s, 10.0),
        grip_dwell_s=settings.motion.grip_dwell_s,
        release_dwell_s=settings.motion.release_dwell_s,
    )
    return GrblGantry.open(port, timings=timings, link_timings=link_timings, expect_reset=expect_reset)


@dataclass
class GantryRestart:
    """Brings the machine back after a fault: soft reset (or reopen when the link is gone), release the gripper
    (a piece under the head stays where it rests), then home.

    `reopen` opens a fresh gantry (same port, or a new device after a USB replug) when the old link is unusable.
    A replugged device takes a moment to reappear (USB enumeration, the old port's release), so a failed open is
    tried again every `retry_delay_s` up to `reopen_attempts` times before the last failure is raised.
    """

    gantry: GrblGantry
    reopen: Callable[[], GrblGantry]
    reopen_attempts: int = 10
    retry_delay_s: float = 0.5
    sleep: Callable[[float], None] = time.sleep

    def __call__(self, interruption: Interruption) -> GrblGantry:
        """Reset or reconnect, then home; returns the gantry to use."""
        from firmware_bridge.errors import FirmwareBridgeError

        try:
            self.gantry.reset()
        except FirmwareBridgeError:
            with contextlib.suppress(OSError, FirmwareBridgeError):
                self.gantry.close()
            self.gantry = self._reopen_patiently()
        self.gantry.release()
        self.gantry.home()
        return self.gantry

    def _reopen_patiently(self) -> GrblGantry:
        """`reopen`, tried again while the port cannot be opened yet (ConnectionLost)."""
        from firmware_bridge.errors import ConnectionLost

        for _ in range(self.reopen_attempts - 1):
            try:
                return self.reopen()
            except ConnectionLost:
                self.sleep(self.retry_delay_s)
        return self.reopen()


def executor(
    gantry: GrblGantry,
    settings: HardwareSettings,
    state: PhysicalState,
    *,
    ask_human: AskHuman,
    on_transfer: Callable[[int, Transfer], None] | None = None,
) -> Executor:
    """An executor on the GRBL gantry with the configured geometry (no rotator: the gantry has no yaw axis)."""
    return Executor(
        gantry,
        settings.geometry,
        state,
        ask_human=ask_human,
        fault_types=firmware_faults(),
        on_transfer=on_transfer,
    )


# --- the game: cameras, reader, engines, and the simulated world --------------------------------------------

SIM_CONFIG = "sim_config.toml"
"""The shipped configuration of the simulated game (`controller/data/sim_config.toml`)."""


def sim_config_path() -> Path:
    """Where the shipped simulation config is."""
    from importlib import resources

    return Path(str(resources.files("controller.data").joinpath(SIM_CONFIG)))


def camera_eyes(source: Any, sente_side: str | float | None = None) -> Any:
    """The real motion gate and board reader on a frame source (`controller.runner.eyes.CameraEyes`); the reader
    can learn the piece set from a confirmed start (`controller.runner.set_learning`; set up by `piece_set`).

    `sente_side`: the image side (`bottom`, ...) or direction (degrees, as `vision.orientation`) sente sits at,
    when the installation knows it ([camera] sente_side); None lets the reader decide from the pieces.

    Raises:
        ValueError: when the piece classifier model is missing (it names the file).
    """
    from controller.runner.eyes import CameraEyes
    from controller.runner.set_learning import StartLearningReader, vision_learn
    from vision.classifier import PieceClassifier
    from vision.errors import ModelError
    from vision.motion import MotionGate
    from vision.reader import BoardReader, ReaderSettings

    settings = ReaderSettings(sente_side=sente_side)
    try:
        reader = BoardReader(settings=settings)
    except ModelError as exc:
        raise ValueError(f"the board reader cannot start: {exc}") from exc
    learning = StartLearningReader(reader, vision_learn(PieceClassifier))
    return CameraEyes(source, MotionGate(), learning, min_confidence=settings.min_confidence)


def vision_threads(threads: int) -> None:
    """Let OpenCV and numpy's BLAS use at most `threads` threads from now on ([vision] threads; process-wide, so
    set once at start-up, before the reader runs)."""
    import cv2
    from threadpoolctl import threadpool_limits

    if threads < 1:
        raise ValueError(f"vision threads must be at least 1, got {threads}")
    cv2.setNumThreads(threads)
    threadpool_limits(limits=threads)


def piece_set(
    eyes: Any,
    vision: VisionConfig,
    say: Callable[[str], None],
    game_base: Callable[[], Path],
    *,
    resumed: bool,
    reader_changed: Callable[[], None] | None = None,
) -> Callable[[str], object] | None:
    """Set up what the eyes' reader knows of the piece set, as [vision] says: the user's calibration file is read
    with from the start (and wins), else the set is learnt from each confirmed standard start when `learn_set`
    and saved beside the game's files (`game_base()`: their path without suffix); a `resumed` game reads with
    the set its first session saved, if any. Returns the hook to call with the start SFEN once the setup check
    confirms a new game's start, or None when the reader cannot learn (stand-in eyes; no file is then used).
    `reader_changed` is called (on the loop's thread) whenever the reader's calibration changes.

    Raises:
        ValueError: the calibration file is malformed or made for another classifier model (it says which).
    """
    from controller.runner.set_learning import StartLearningReader, learnt_set_path
    from vision.calibration import Calibration
    from vision.errors import CalibrationError

    reader = getattr(eyes, "reader", None)
    if not isinstance(reader, StartLearningReader):
        return None
    reader.enabled, reader.say, reader.on_change = vision.learn_set, say, reader_changed
    reader.again = vision.learn_set_again
    if vision.calibration is not None:
        reader.use_calibration(Calibration.load(vision.calibration))
        say(f"  piece set: the calibration {vision.calibration} is used")
    saved = learnt_set_path(game_base())
    if resumed and vision.learn_set and vision.calibration is None and saved.is_file():
        try:
            reader.use_learnt(Calibration.load(saved))
            say(f"  piece set: the set learnt at this game's start is used ({saved})")
        except CalibrationError as exc:
            say(f"  piece set: the set learnt at this game's start cannot be used ({exc}); reading without it")

    def started(start_sfen: str) -> bool:
        return reader.start_confirmed(start_sfen, learnt_set_path(game_base()))

    return started


def real_camera(camera: CameraConfig) -> Any:
    """The camera the [camera] section names (picamera2, OpenCV or files); `virtual` needs `--sim`."""
    from hardware.camera import FileCamera, OpenCvCamera, Picamera2Camera

    if camera.kind is CameraKind.PICAMERA2:
        return Picamera2Camera(camera.resolution)
    if camera.kind is CameraKind.OPENCV:
        return OpenCvCamera(camera.index or 0, camera.resolution)
    if camera.kind is CameraKind.FILE:
        assert camera.path is not None
        paths = sorted(camera.path.iterdir()) if camera.path.is_dir() else [camera.path]
        return FileCamera(paths)
    raise ValueError('[camera] kind = "virtual" renders the simulated board: run with --sim')


def usi_engine(spec: EngineSpec) -> SyncEngine:
    """A started engine (fairy-stockfish by default), supervised: a dead or hung one is restarted."""
    from controller.engines.sync import SyncEngine

    engine = SyncEngine(spec)
    try:
        engine.start()
        engine.new_game()
    except BaseException:
        engine.close()
        raise
    return engine


@dataclass
class SimWorld:
    """The simulated hardware of one game: the virtual board, its camera, a simulated person, and (with a gantry)
    the fake GRBL device on a pseudo-terminal whose head events move the board's pieces.

    Attributes:
        board: the physical truth.
        camera: renders the board (the frame source).
        human: the simulated person's hands.
        server: the fake GRBL device, when the game has a gantry.
        gantry: the real `GrblGantry` connected to it over the pty with pyserial.
    """

    board: VirtualBoard
    camera: VirtualCamera
    human: SimulatedHuman
    server: Any = None
    gantry: GrblGantry | None = None
    sente_side: float | None = None
    """Where sente sits in the camera's picture (degrees), as the installer knows it from the camera pose."""

    def close(self) -> None:
        """Close the serial link and stop the fake device."""
        if self.gantry is not None:
            with contextlib.suppress(Exception):
                self.gantry.close()
        if self.server is not None:
            self.server.stop()


def sim_world(
    settings: HardwareSettings, sfen: str, *, seed: int, style: str, size: tuple[int, int], gantry: bool
) -> SimWorld:
    """Build the simulated board at `sfen`, its camera and person, and (when `gantry`) the fake GRBL device with
    the real gantry link to it, homed."""
    from controller.sim import CameraSettings, SimulatedHuman, VirtualBoard, VirtualCamera
    from firmware_bridge.fake_config import FAST_MOTION, FakeGrblConfig, HeadEvent
    from firmware_bridge.fake_server import FakeGrblServer

    board = VirtualBoard(settings.geometry, sfen, seed=seed)
    camera = VirtualCamera(board, CameraSettings(style=style, seed=seed, size=size))
    world = SimWorld(board, camera, SimulatedHuman(board, seed=seed), sente_side=_sente_side(camera))
    if not gantry:
        return world

    def on_event(event: HeadEvent) -> None:
        board.on_head_event(event.kind.value, event.x_mm, event.y_mm, event.z_mm)

    world.server = FakeGrblServer(FakeGrblConfig(settings=FAST_MOTION, boot_delay_s=0.05), on_event=on_event)
    try:
        world.gantry = open_gantry(world.server.start(), settings)
        world.gantry.home()
    except BaseException:
        world.close()
        raise
    return world


def sim_piece_style(style: str, seed: int) -> str:
    """The simulated board's piece style: `style`, or for `random` one of the shipped styles chosen by `seed`."""
    if style != "random":
        return style
    import random

    from vision.render import list_styles

    return random.Random(seed).choice(sorted(list_styles()))


def _sente_side(camera: VirtualCamera) -> float:
    """The direction sente sits at in the virtual camera's picture (from the rendered board's corners)."""
    from vision.orientation import sente_direction

    camera.read()
    assert camera.last is not None
    return float(sente_direction(camera.last.board_corners_px))
