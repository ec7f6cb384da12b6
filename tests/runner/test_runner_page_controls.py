"""The web page's controls that are not moves: the emergency stop holds the arm and stops the game, jogging moves
the head by the asked millimetres when the arm is at rest, finding the board again, and the guided calibrations
(piece set from two frames, gantry map from four jogged squares), each press one step."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pytest

from controller.game.events import Abort
from controller.game.machine import initial
from controller.game.settings import GameSettings, Mode
from controller.game.state import GameState, Phase
from controller.runner.calibrations import GantrySurveyor
from controller.runner.page_controls import GANTRY_POINTS, PageControls
from controller.web.hub import CommandKind, WebCommand
from hardware.geometry import BoardGeometry
from hardware.settings import load_settings


@dataclass
class Where:
    x_mm: float
    y_mm: float
    z_mm: float = 0.0


@dataclass
class FakeHead:
    """A head that goes where it is sent."""

    at: Where | None = field(default_factory=lambda: Where(100.0, 200.0))
    moves: list[tuple[float, float]] = field(default_factory=list)

    def move_to(self, x_mm: float, y_mm: float, z_mm: float | None = None) -> None:
        self.moves.append((x_mm, y_mm))
        self.at = Where(x_mm, y_mm)

    def wait_idle(self) -> None:
        return None

    def position(self) -> Where | None:
        return self.at


@dataclass
class FakeLearner:
    frames: list[tuple[Any, Any]] = field(default_factory=list)
    resets: int = 0

    def learn(self, start: Any, flipped: Any) -> str:
        self.frames.append((start, flipped))
        return "learnt"

    def find_board_again(self) -> None:
        self.resets += 1


@dataclass
class FakeSurveyor:
    fits: list[dict[str, tuple[float, float]]] = field(default_factory=list)

    def fit(self, measured: dict[str, tuple[float, float]]) -> str:
        self.fits.append(measured)
        return "fitted"


class Panel:
    """A PageControls on fakes, with what it told and held."""

    def __init__(self, *, busy: bool = False, head: FakeHead | None = None) -> None:
        self.told: list[str] = []
        self.holds = 0
        self.head = head if head is not None else FakeHead()
        self.learner, self.surveyor = FakeLearner(), FakeSurveyor()
        self.frame: Any = "frame-1"
        self.controls = PageControls(
            self.told.append, self._hold, lambda: self.head, lambda: busy, lambda: self.frame,
            learner=self.learner, surveyor=self.surveyor,
        )  # fmt: skip

    def _hold(self) -> None:
        self.holds += 1

    def press(self, kind: CommandKind, state: GameState, **args: Any) -> Any:
        event = self.controls.handle(WebCommand(kind, dict(args)), state)
        self.controls.wait()
        return event


def _state(phase: Phase = Phase.SETUP_CHECK) -> GameState:
    state, _ = initial(GameSettings(Mode.PLAY))
    return replace(state, phase=phase)


def test_the_emergency_stop_holds_the_arm_and_stops_the_game() -> None:
    """STOP: the arm's feed hold, and an Abort for the game saying why."""
    panel = Panel()
    event = panel.press(CommandKind.EMERGENCY_STOP, _state(Phase.ROBOT_MOVING))
    assert panel.holds == 1 and isinstance(event, Abort) and "emergency stop" in event.reason


def test_a_jog_moves_the_head_by_the_asked_millimetres() -> None:
    """At rest, a jog of (+10, -5) mm moves the head there and tells where it is."""
    panel = Panel()
    panel.press(CommandKind.JOG, _state(Phase.WAIT_HUMAN), dx_mm=10, dy_mm=-5)
    assert panel.head.moves == [(110.0, 195.0)] and "Head at X 110.0 Y 195.0" in panel.told[-1]


def test_no_jog_while_the_arm_moves() -> None:
    """While the robot executes a move, a jog is refused with a reason and nothing moves."""
    panel = Panel(busy=True)
    panel.press(CommandKind.JOG, _state(Phase.WAIT_HUMAN), dx_mm=10, dy_mm=0)
    assert panel.head.moves == [] and "moving" in panel.told[-1]


def test_a_jog_before_homing_asks_to_home() -> None:
    """An unknown head position: nothing moves, the player is asked to home."""
    panel = Panel(head=FakeHead(at=None))
    panel.press(CommandKind.JOG, _state(), dx_mm=1, dy_mm=1)
    assert panel.head.moves == [] and "home it first" in panel.told[-1]


def test_find_the_board_again() -> None:
    """The Board button makes the reader search for the grid again."""
    panel = Panel()
    panel.press(CommandKind.CALIBRATE_BOARD, _state())
    assert panel.learner.resets == 1


def test_the_piece_set_is_learnt_from_the_start_frame_and_the_turned_over_frame() -> None:
    """Three presses: instructions, the start frame, the turned-over frame; the learner gets both frames."""
    panel = Panel()
    panel.press(CommandKind.CALIBRATE_SET, _state())
    assert "starting position" in panel.told[-1]
    panel.press(CommandKind.CALIBRATE_SET, _state())
    assert "turn every piece over" in panel.told[-1]
    panel.frame = "frame-2"
    panel.press(CommandKind.CALIBRATE_SET, _state())
    assert panel.learner.frames == [("frame-1", "frame-2")] and panel.told[-1] == "learnt"


def test_the_piece_set_is_not_learnt_during_a_game() -> None:
    """While a game is being played the set calibration is refused (the board is not at the start)."""
    panel = Panel()
    panel.press(CommandKind.CALIBRATE_SET, _state(Phase.WAIT_HUMAN))
    assert "before the game starts" in panel.told[-1] and panel.learner.frames == []


def test_the_gantry_points_are_measured_in_order_then_fitted() -> None:
    """Five presses: instructions, then 9a, 1a, 9i, 1i at the head's positions; the surveyor gets all four."""
    panel = Panel()
    panel.press(CommandKind.CALIBRATE_GANTRY, _state())
    for i in range(len(GANTRY_POINTS)):
        panel.head.at = Where(10.0 * i, 20.0 * i)
        panel.press(CommandKind.CALIBRATE_GANTRY, _state())
    assert panel.surveyor.fits == [{n: (10.0 * i, 20.0 * i) for i, n in enumerate(GANTRY_POINTS)}]
    assert panel.told[-1] == "fitted"


@pytest.fixture
def geometry() -> BoardGeometry:
    return load_settings(None).geometry


def test_the_surveyor_fits_the_map_and_the_session_uses_it(tmp_path: Path, geometry: BoardGeometry) -> None:
    """Squares measured 2 mm off the nominal map in X: the fitted geometry puts every square 2 mm off, the session
    is handed it, and the `transform` line is saved."""
    used: list[BoardGeometry] = []
    surveyor = GantrySurveyor(lambda: geometry, used.append, tmp_path / "board-transform.toml")
    measured = {}
    for name in GANTRY_POINTS:
        x, y = geometry.square_xy(name)
        measured[name] = (x + 2.0, y)
    text = surveyor.fit(measured)
    assert "residual rms 0.000 mm" in text
    x0, y0 = geometry.square_xy("5e")
    x1, y1 = used[0].square_xy("5e")
    assert x1 == pytest.approx(x0 + 2.0, abs=1e-6) and y1 == pytest.approx(y0, abs=1e-6)
    assert (tmp_path / "board-transform.toml").read_text().count("transform = [") == 1


@pytest.mark.slow
def test_on_a_simulated_game_the_page_jogs_the_arm_and_stops_the_game(tmp_path: Path) -> None:
    """Through the page's HTTP API during a simulated game: a jog moves the real GRBL link's head (the fake
    device's position changes) and STOP holds the arm and ends the game with the reason."""
    import json
    import sys
    import threading
    import time
    import urllib.request

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from runner_sim import TruthEyes

    from controller.runner.options import SessionOptions
    from controller.runner.session import run_session

    lines: list[str] = []
    options = SessionOptions(
        Mode.PLAY, sim=True, out=tmp_path, name="p", max_plies=40, board_every=0, stall_s=60, web=True, web_port=0
    )

    def post(url: str, kind: str, args: dict[str, float]) -> None:
        body = json.dumps({"kind": kind, "args": args}).encode()
        request = urllib.request.Request(f"{url}/api/command", body, {"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=5) as reply:
            assert reply.status == 202

    def drive() -> None:
        while not any("web page:" in line for line in lines):
            time.sleep(0.05)
        url = next(line for line in lines if "web page:" in line).split("web page: ")[1].rstrip("/")
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not any("Head at X" in line for line in lines):
            post(url, "jog", {"dx_mm": 5, "dy_mm": 0})
            time.sleep(0.5)
        post(url, "emergency_stop", {})

    driver = threading.Thread(target=drive, daemon=True)
    driver.start()
    result = run_session(options, say=lines.append, eyes=TruthEyes)
    driver.join(timeout=5)
    state = result.report.state
    assert any("Head at X" in line for line in lines)
    assert state.result is not None and "emergency stop" in state.result.detail


@pytest.mark.slow
def test_the_set_learner_teaches_the_reader_and_saves_the_file(tmp_path: Path) -> None:
    """Rendered start and turned-over frames: the reader is given the calibration at once and the saved file
    loads back as a calibration for this model."""
    from controller.runner.calibrations import SetLearner
    from vision.calibration import START_BOARD, Calibration
    from vision.classifier import PieceClassifier
    from vision.labels import EMPTY, board_field_from_labels, labels_from_board_field
    from vision.orientation import sente_direction
    from vision.reader import BoardReader, ReaderSettings
    from vision.render import RenderOptions, render_position

    turned = [
        lab if lab == EMPTY or lab.upper() in ("K", "G") else "+" + lab for lab in labels_from_board_field(START_BOARD)
    ]
    start = render_position(START_BOARD + " b -", RenderOptions(style="kanji_light", seed=3, size=(960, 720)))
    flipped = render_position(
        board_field_from_labels(turned) + " b -",
        RenderOptions(style="kanji_light", seed=3, size=(960, 720), pose=start.pose),
    )
    reader = BoardReader(settings=ReaderSettings(sente_side=sente_direction(start.board_corners_px)))
    made: list[PieceClassifier] = []

    def own_classifier() -> PieceClassifier:
        made.append(PieceClassifier())
        return made[-1]

    text = SetLearner(reader, tmp_path / "set.json", own_classifier).learn(start.image, flipped.image)
    assert "Piece set learnt" in text and reader._calibration is not None
    assert "Check the set-up" not in text
    assert len(made) == 1 and made[0] is not reader.classifier  # never the network the game loop reads with
    assert Calibration.load(tmp_path / "set.json").examples == reader._calibration.examples


@pytest.mark.slow
def test_the_set_learner_names_the_squares_set_up_wrong(tmp_path: Path) -> None:
    """A start frame with sente's left silver and gold on each other's squares: the set is still learnt, and the
    message names both squares (`vision.calibration.setup_doubts`)."""
    from controller.runner.calibrations import SetLearner
    from vision.calibration import FLIPPED_BOARD, START_BOARD
    from vision.orientation import sente_direction
    from vision.reader import BoardReader, ReaderSettings
    from vision.render import RenderOptions, render_position

    swapped = START_BOARD.replace("LNSGKGSNL", "LNGSKGSNL")
    start = render_position(swapped + " b -", RenderOptions(style="kanji_light", seed=31, size=(960, 720)))
    flipped = render_position(
        FLIPPED_BOARD + " b -", RenderOptions(style="kanji_light", seed=31, size=(960, 720), pose=start.pose)
    )
    reader = BoardReader(settings=ReaderSettings(sente_side=sente_direction(start.board_corners_px)))
    text = SetLearner(reader, tmp_path / "set.json").learn(start.image, flipped.image)
    assert "Piece set learnt" in text
    doubts = r"Check the set-up \(start photo, 7i: learnt as S, but it reads as G at (0\.9[5-9]|1\.00); start photo, 6i"
    assert re.search(doubts, text), text


@dataclass
class FakeRemote:
    lines: list[str] = field(default_factory=list)

    def offer_draw(self) -> str:
        self.lines.append("draw")
        return "Draw offered to the remote player."

    def chat(self, text: str) -> str:
        self.lines.append(text)
        return f"You said: {text}"


def test_draw_offers_and_chat_go_to_the_remote_player() -> None:
    """With a remote opponent the page's draw offer and chat line reach it and its answer is shown."""
    panel = Panel()
    remote = FakeRemote()
    panel.controls.remote = remote
    panel.press(CommandKind.CHAT, _state(Phase.WAIT_HUMAN), text=" hello ")
    panel.press(CommandKind.OFFER_DRAW, _state(Phase.WAIT_HUMAN))
    assert remote.lines == ["hello", "draw"] and panel.told[-1] == "Draw offered to the remote player."


def test_draw_offers_without_a_remote_player_are_explained() -> None:
    """Against the engine there is nobody to offer a draw to: the page says so."""
    panel = Panel()
    panel.press(CommandKind.OFFER_DRAW, _state(Phase.WAIT_HUMAN))
    assert "remote player" in panel.told[-1]
