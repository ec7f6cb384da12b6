"""The web page's controls that are not moves of the game: the emergency stop, a new game from the page's form,
jogging the arm, finding the board again, and the two guided calibrations.

Owns: what each of those presses does in a running session, and the steps of the guided flows. Each press of a
calibration button is one step and the page's notice says what to do next:
- piece set: (1) set up the starting position, press; (2) turn every piece over in place, press; the reader then
  learns the set's faces from the two frames, uses them at once and saves them (`vision calibrate` by the page);
- gantry points: jog the head over the centres of 9a, 1a, 9i and 1i in turn, pressing at each; the board-to-gantry
  map is fitted (residuals shown), used for the next moves and saved as the `[board] transform` line.
Calibrations and jogging wait for the arm to be at rest; the piece set is learnt outside a game (before or after).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from controller.game.events import Abort, Event, NewGame
from controller.game.settings import Mode
from controller.game.state import GameState, Phase
from controller.runner.new_game import new_game_choice
from controller.web.hub import CommandKind, WebCommand

Tell = Callable[[str], None]
GANTRY_POINTS = ("9a", "1a", "9i", "1i")
IDLE_PHASES = frozenset({Phase.SETUP_CHECK, Phase.RESET, Phase.GAME_OVER})


class Head(Protocol):
    """What jogging and the gantry calibration need of the gantry (`firmware_bridge.gantry.GrblGantry`)."""

    def move_to(self, x_mm: float, y_mm: float, z_mm: float | None = None) -> None:
        """Move the head."""
        ...

    def wait_idle(self) -> None:
        """Wait until the move is done."""
        ...

    def position(self) -> Any:
        """The last confirmed position (x_mm, y_mm, z_mm attributes), None before the first."""
        ...


class Remote(Protocol):
    """What the page needs of a remote opponent (`controller.runner.remote_opponent.RemoteOpponent`)."""

    def offer_draw(self) -> str:
        """Offer a draw; the sentence to show."""
        ...

    def chat(self, text: str) -> str:
        """Send a chat line; the sentence to show."""
        ...


class Learner(Protocol):
    """The reader's side of the piece-set calibration (`controller.compose.SetLearner`)."""

    def learn(self, start: Any, flipped: Any) -> str:
        """Learn the set from the two frames, use it from now on, save it; returns a summary sentence."""
        ...

    def find_board_again(self) -> None:
        """Forget the grid: the next frame searches for the board."""
        ...


class Surveyor(Protocol):
    """The gantry calibration's fit (`controller.compose.GantrySurveyor`)."""

    def fit(self, measured: dict[str, tuple[float, float]]) -> str:
        """Fit the board-to-gantry map from square centres measured in machine millimetres, use and save it;
        returns the report."""
        ...


@dataclass
class PageControls:
    """Carries out the page's non-game controls; see the module docstring.

    Attributes:
        tell: shows a sentence to the players (console, speech, the page's notice).
        hold: the emergency stop's feed hold (the panel's target).
        head: the gantry's head, None without a gantry (a function: the gantry may have been reconnected).
        arm_busy: True while the robot is executing a move.
        frame: the camera's last frame (None before the first).
        learner: the reader's calibration, None when the reader cannot learn (tests' stand-in eyes).
        surveyor: the gantry calibration, None without a gantry.
        use_engine: makes this engine (None: the configured one, if none runs) the next game's opponent;
            raises ValueError or OSError when it cannot start.
        remote: the remote opponent (draw offers, chat), None in other games.
    """

    tell: Tell
    hold: Callable[[], None]
    head: Callable[[], Head | None]
    arm_busy: Callable[[], bool]
    frame: Callable[[], Any]
    learner: Learner | None = None
    surveyor: Surveyor | None = None
    use_engine: Callable[[str | None], None] | None = None
    remote: Remote | None = None
    set_frames: list[Any] = field(default_factory=list)
    measured: dict[str, tuple[float, float]] = field(default_factory=dict)
    gantry_started: bool = False
    workers: list[threading.Thread] = field(default_factory=list)

    def handle(self, command: WebCommand, state: GameState) -> Event | None:
        """Do what the control asks; an event when the game must act (the emergency stop, a new game)."""
        if command.kind is CommandKind.EMERGENCY_STOP:
            self.hold()
            return Abort("emergency stop on the web page: the arm is held; reset it before moving it again")
        if command.kind is CommandKind.NEW_GAME:
            return self._new_game(command, state)
        if command.kind in (CommandKind.OFFER_DRAW, CommandKind.CHAT):
            self._to_remote(command)
            return None
        handler = _HANDLERS.get(command.kind)
        if handler is not None:
            handler(self, command, state)
        return None

    def _new_game(self, command: WebCommand, state: GameState) -> Event | None:
        try:
            choice = new_game_choice(state.settings, command.args, has_gantry=self.head() is not None)
            if choice.settings.mode is Mode.PLAY and self.use_engine is not None:
                self.use_engine(choice.engine)
        except (ValueError, OSError) as exc:  # NewGameError, and an engine that cannot start (EngineError)
            self.tell(f"No new game: {exc}")
            return None
        return NewGame(choice.settings)

    def wait(self) -> None:
        """Wait for running jogs and calibrations (tests, and the end of a session)."""
        for worker in list(self.workers):
            worker.join()

    def _to_remote(self, command: WebCommand) -> None:
        remote = self.remote
        if remote is None:
            self.tell("Draw offers and chat are for games against a remote player.")
            return
        if command.kind is CommandKind.CHAT:
            text = str(command.args["text"]).strip()
            self._background(lambda: self.tell(remote.chat(text)))
        else:
            self._background(lambda: self.tell(remote.offer_draw()))

    def _jog(self, command: WebCommand, state: GameState) -> None:
        head = self.head()
        if head is None:
            self.tell("There is no gantry to jog.")
            return
        if self.arm_busy() or state.phase is Phase.ROBOT_MOVING:
            self.tell("The arm is moving: jog when it is at rest.")
            return
        dx, dy = float(command.args["dx_mm"]), float(command.args["dy_mm"])
        self._background(lambda: self._jog_now(head, dx, dy))

    def _jog_now(self, head: Head, dx: float, dy: float) -> None:
        where = head.position()
        if where is None:
            self.tell("The arm's position is not known yet: home it first.")
            return
        head.move_to(where.x_mm + dx, where.y_mm + dy)
        head.wait_idle()
        now = head.position()
        if now is not None:
            self.tell(f"Head at X {now.x_mm:.1f} Y {now.y_mm:.1f} mm.")

    def _board(self, _command: WebCommand, _state: GameState) -> None:
        if self.learner is None:
            self.tell("This camera cannot look for the board again.")
            return
        self.learner.find_board_again()
        self.tell("Looking for the board again on the next still frame.")

    def _piece_set(self, _command: WebCommand, state: GameState) -> None:
        if self.learner is None:
            self.tell("This camera's reader cannot learn a piece set.")
            return
        if state.phase not in IDLE_PHASES:
            self.tell("Teach the piece set before the game starts or after it ends.")
            return
        if not self.set_frames:
            self.set_frames.append(None)
            self.tell("Piece set: set up the starting position, hands off the board, then press Piece set again.")
            return
        frame = self.frame()
        if frame is None:
            self.tell("No camera frame yet: press Piece set again in a moment.")
            return
        if len(self.set_frames) == 1:
            self.set_frames.append(frame)
            self.tell("Now turn every piece over in place (kings and golds stay), then press Piece set again.")
            return
        start, flipped = self.set_frames[1], frame
        self.set_frames.clear()
        learner = self.learner
        self._background(lambda: self.tell(learner.learn(start, flipped)))

    def _gantry_points(self, _command: WebCommand, state: GameState) -> None:
        head = self.head()
        if head is None or self.surveyor is None:
            self.tell("There is no gantry to calibrate.")
            return
        if self.arm_busy() or state.phase is Phase.ROBOT_MOVING:
            self.tell("The arm is moving: calibrate when it is at rest.")
            return
        done = len(self.measured)
        if not self.gantry_started:
            self.gantry_started = True
            self.tell(f"Gantry: jog the head over the centre of {GANTRY_POINTS[0]}, then press Gantry points.")
            return
        where = head.position()
        if where is None:
            self.tell("The arm's position is not known yet: home it first.")
            return
        self.measured[GANTRY_POINTS[done]] = (float(where.x_mm), float(where.y_mm))
        if len(self.measured) < len(GANTRY_POINTS):
            following = GANTRY_POINTS[len(self.measured)]
            self.tell(f"Noted {GANTRY_POINTS[done]}. Now jog over the centre of {following} and press again.")
            return
        measured, self.measured, self.gantry_started = dict(self.measured), {}, False
        surveyor = self.surveyor
        self._background(lambda: self.tell(surveyor.fit(measured)))

    def _background(self, work: Callable[[], None]) -> None:
        """Run `work` off the game loop; a failure is told, never raised into the loop."""

        def run() -> None:
            try:
                work()
            except Exception as exc:  # a control's failure is reported to the players, the game goes on
                self.tell(f"That did not work: {exc}")

        self.workers = [w for w in self.workers if w.is_alive()]
        worker = threading.Thread(target=run, name="page-control", daemon=True)
        self.workers.append(worker)
        worker.start()


_HANDLERS: dict[CommandKind, Callable[[PageControls, WebCommand, GameState], None]] = {
    CommandKind.JOG: PageControls._jog,
    CommandKind.CALIBRATE_BOARD: PageControls._board,
    CommandKind.CALIBRATE_SET: PageControls._piece_set,
    CommandKind.CALIBRATE_GANTRY: PageControls._gantry_points,
}
