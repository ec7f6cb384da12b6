"""Helpers of the runner tests (imported as `runner_world`): a table whose pieces move only by what an in-memory
gantry's head really did or by a scripted person, a synthetic camera on it, a scripted engine, a manual clock."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import cshogi

from controller.engines.client import GameOver
from controller.engines.position import EnginePosition
from controller.engines.protocol import BestMove, BestMoveKind, GoLimits
from controller.engines.search import SearchResult
from controller.game.clock import ClockConfig
from controller.game.commands import Prompt
from controller.game.machine import initial
from controller.game.settings import GameSettings, Mode
from controller.game.state import GameState, Phase
from controller.planning.executor import Executor
from controller.planning.model import FlipStationLoc, Location, Piece, SlotLoc, SquareLoc, Transfer
from controller.planning.motion import location_xy
from controller.planning.planner import Capabilities, plan_move
from controller.planning.state import ALL_SQUARES, PhysicalState, after_task
from controller.reconcile.labels import board_hands, board_labels
from controller.reconcile.reconciler import Reconciler
from controller.reconcile.synthetic import NoiseModel, SyntheticReader
from controller.reconcile.types import Observation
from controller.rules.types import Color
from controller.runner.effects import Effects, GameFiles
from controller.runner.eyes import unstable
from controller.runner.robot import GantryRobot
from controller.runner.shell import GameShell, Limits
from hardware.geometry import HAND_KINDS, SLOTS_PER_KIND, BoardGeometry, Side
from hardware.settings import load_settings

GEOMETRY = load_settings(None).geometry


class ManualClock:
    """Time that moves only when told."""

    def __init__(self) -> None:
        self.t = 0.0

    def now(self) -> float:
        return self.t


class Table:
    """Pieces on locations; a grip at pick height over a location lifts its piece, a release sets it down."""

    def __init__(self, sfen: str, geometry: BoardGeometry = GEOMETRY) -> None:
        self.places: dict[Location, Piece] = dict(PhysicalState.from_sfen(sfen).items())
        self.geometry = geometry
        self.held: Piece | None = None
        self.loose: list[Piece] = []
        self.head = (0.0, 0.0, 0.0)
        self._points = [(loc, location_xy(geometry, loc)) for loc in _locations(geometry)]

    def here(self) -> Location | None:
        x, y, z = self.head
        if abs(z - self.geometry.pick_z_mm) > 1.0:
            return None
        return next((loc for loc, (lx, ly) in self._points if math.hypot(lx - x, ly - y) <= 1.0), None)

    def grip(self) -> None:
        loc = self.here()
        if self.held is None and loc in self.places:
            assert loc is not None
            self.held = self.places.pop(loc)

    def release(self) -> None:
        piece, self.held = self.held, None
        loc = self.here()
        if piece is None:
            return
        if loc is None or loc in self.places:
            self.loose.append(piece)
            return
        if isinstance(loc, FlipStationLoc):
            piece = Piece(piece.kind, not piece.promoted_face, piece.facing)
        self.places[loc] = piece

    def person_plays(self, sfen_before: str, usi: str) -> None:
        """A person makes `usi` (pieces carried by hand, promotions turned over in place)."""
        state = PhysicalState(self.places)
        plan_move(state, sfen_before, usi, Capabilities(True, False))  # applies the transfers to `state`
        self.places = {loc: piece for loc, piece in state.items() if not isinstance(loc, FlipStationLoc)}

    def human_task(self, transfer: Transfer) -> None:
        piece = self.places[transfer.src]
        self.places[transfer.src] = after_task(piece, transfer.task)

    def board(self) -> cshogi.Board:
        """What a reader would see, as a cshogi board (side to move irrelevant)."""
        state = PhysicalState(self.places)
        hands = "".join(
            (kind if side is Side.BLACK else kind.lower()) * n
            for (side, kind), n in sorted(state.hands().items(), key=lambda item: HAND_KINDS.index(item[0][1]))
        )
        return cshogi.Board(f"{state.board_field()} b {hands or '-'} 1")


def _locations(geometry: BoardGeometry) -> list[Location]:
    locs: list[Location] = [SquareLoc(sq) for sq in ALL_SQUARES]
    for side in Side:
        for kind in HAND_KINDS:
            locs += [SlotLoc(side, kind, i) for i in range(SLOTS_PER_KIND[kind])]
    if geometry.flip_station_uv is not None:
        locs.append(FlipStationLoc())
    return locs


@dataclass(frozen=True)
class _Event:
    kind: object
    x_mm: float
    y_mm: float
    z_mm: float


class MemoryGantry:
    """`controller.ports.Gantry` in memory: moves the head of a `Table`; `fail_on` grips raise (once each)."""

    def __init__(self, table: Table, fail_on: set[int] | None = None) -> None:
        self.table = table
        self.target = (0.0, 0.0, 0.0)
        self.grips = 0
        self.fail_on = set(fail_on or ())

    def home(self) -> None:
        self.target = self.table.head = (0.0, 0.0, 0.0)

    def move_to(self, x_mm: float, y_mm: float, z_mm: float | None = None) -> None:
        self.target = (x_mm, y_mm, self.target[2] if z_mm is None else z_mm)

    def wait_idle(self) -> None:
        self.table.head = self.target

    def grip(self) -> None:
        self.grips += 1
        if self.grips in self.fail_on:
            raise GantryFaultError(f"injected fault at grip {self.grips}")
        self.table.grip()

    def release(self) -> None:
        self.table.release()


class GantryFaultError(Exception):
    """The in-memory gantry's fault (carries no head snapshot)."""


@dataclass
class ScriptedEngine:
    """Answers from a list (`resign` and `win` too); records the positions asked."""

    answers: list[str]
    asked: list[EnginePosition] = field(default_factory=list)
    results: list[GameOver] = field(default_factory=list)
    closed: bool = False

    def play(self, position: EnginePosition, limits: GoLimits | None = None) -> SearchResult:
        self.asked.append(position)
        text = self.answers.pop(0)
        if text in ("resign", "win"):
            return SearchResult(BestMove(BestMoveKind(text)), (), 0.0)
        return SearchResult(BestMove(BestMoveKind.MOVE, text), (), 0.0)

    def gameover(self, result: GameOver) -> None:
        self.results.append(result)

    def close(self) -> None:
        self.closed = True


class SyntheticEyes:
    """A synthetic camera on the table: unstable while the arm or a hand is over the board."""

    def __init__(self, table: Table, clock: ManualClock, busy: Callable[[], bool], seed: int = 3) -> None:
        self.table, self.clock, self.busy = table, clock, busy
        self.reader = SyntheticReader(seed, NoiseModel())
        self.hand_frames = 0

    def look(self, now: float) -> Observation:
        self.clock.t += 0.1
        if self.busy() or self.hand_frames:
            self.hand_frames = max(0, self.hand_frames - 1)
            return unstable(self.clock.t)
        board = self.table.board()
        stable = True
        return self.reader.observe(board_labels(board), board_hands(board), self.clock.t, stable=stable)


@dataclass
class People:
    """The scripted people at the board: play the next scripted move on their turn, make assisted moves, answer
    prompts with the first option."""

    table: Table
    eyes: SyntheticEyes
    moves: list[str]
    human_sides: tuple[str, ...]
    played: list[str] = field(default_factory=list)
    prompts: list[Prompt] = field(default_factory=list)
    post: Callable[[object], None] | None = None

    def act(self, state: GameState, now: float) -> None:
        turn = state.side_to_move.value
        if self.eyes.hand_frames or self.eyes.busy():
            return
        shown = self.table.board().sfen().split()[0]
        before = state.sfen(len(state.moves) - 1) if state.phase is Phase.ASSIST_WAIT else state.sfen()
        if shown != before.split()[0]:
            return
        if state.phase is Phase.WAIT_HUMAN and turn in self.human_sides and self.moves:
            self._play(before, self.moves.pop(0))
        elif state.phase is Phase.ASSIST_WAIT and state.pending:
            self._play(before, state.pending)

    def _play(self, sfen: str, usi: str) -> None:
        self.table.person_plays(sfen, usi)
        self.played.append(usi)
        self.eyes.hand_frames = 3

    def answer(self, prompt: Prompt, state: GameState) -> None:
        self.prompts.append(prompt)


def build(
    settings: GameSettings,
    out: Path,
    *,
    script: list[str],
    engine: ScriptedEngine | None = None,
    fail_on: set[int] | None = None,
    max_plies: int | None = None,
    keep_serving: bool = False,
) -> tuple[GameShell, Effects, People, Table, GantryRobot | None]:
    """A shell on the table with every part wired (the engine, when given, plays the opponent)."""
    from controller.runner.opponent import EngineOpponent

    clock = ManualClock()
    table = Table(settings.start_sfen)
    reconciler = Reconciler(sfen=settings.start_sfen)
    effects = Effects(reconciler, GameFiles(out / "game"), say=lambda _text: None, board_every=0)
    holder: list[GameShell] = []

    def post(event: object) -> None:
        holder[0].post(event)  # type: ignore[arg-type]

    robot = None
    if settings.gantry:
        gantry = MemoryGantry(table, fail_on)

        def make(state: PhysicalState) -> Executor:
            return Executor(gantry, GEOMETRY, state, ask_human=table.human_task, fault_types=(GantryFaultError,))

        robot = GantryRobot(make, Capabilities.of(GEOMETRY), post)
        effects.robot = robot
    if engine is not None:
        effects.opponent = EngineOpponent(engine, post, on_error=lambda text: post(_abort(text)))
    eyes = SyntheticEyes(table, clock, busy=(lambda: robot is not None and robot.busy))
    sides = ("b", "w") if settings.opponent_side is None else (settings.opponent_side.opponent.value,)
    people = People(table, eyes, list(script), sides)
    effects.on_prompt = people.answer
    state, commands = initial(settings)
    shell = GameShell(
        state,
        commands,
        eyes=eyes,
        reconciler=reconciler,
        effects=effects,
        clock=clock,
        scene=people,
        limits=Limits(max_plies=max_plies, stall_s=60.0, keep_serving=keep_serving),
    )
    holder.append(shell)
    return shell, effects, people, table, robot


def _abort(text: str) -> object:
    from controller.game.events import Abort

    return Abort(text)


def play_settings(*, gantry: bool = True, engine_side: Color = Color.WHITE) -> GameSettings:
    """A human against an engine, 10 min sudden death."""
    return GameSettings(Mode.PLAY, opponent_side=engine_side, gantry=gantry, clock=ClockConfig(main_s=600.0))


def record_settings() -> GameSettings:
    """Two humans, untimed."""
    return GameSettings(Mode.RECORD, opponent_side=None, gantry=False, clock=ClockConfig(untimed=True))
