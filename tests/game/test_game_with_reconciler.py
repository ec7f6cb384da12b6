"""The state machine against the real reconciler: synthetic camera frames of a physical board, the machine's
commands carried out on the reconciler (`ExpectPosition` -> set_position, `ExpectMove` -> expect) and on a
simulated gantry, the reconciler's results fed back as events. Checks the contract between the two."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import cshogi
from game_machine_helpers import play_settings, record_settings

from controller.game.commands import (
    AskEngine,
    Command,
    ExecuteMove,
    ExpectMove,
    ExpectPosition,
    Prompt,
)
from controller.game.events import (
    EngineMoved,
    Event,
    MismatchSeen,
    PromptAnswered,
    TransferDone,
)
from controller.game.machine import initial, step
from controller.game.state import GameState, Phase
from controller.reconcile.reconciler import Reconciler
from controller.reconcile.synthetic import NoiseModel, SyntheticReader
from controller.rules.positions import STARTPOS_SFEN
from controller.runner.events import event_of  # the runner's own mapping, tested here with the machine

GAME = (Path(__file__).resolve().parents[2] / "controller" / "data" / "sample_game.usi").read_text().split()[2:]


@dataclass
class World:
    """A physical board in front of a synthetic camera, the reconciler, and the machine."""

    state: GameState
    physical: cshogi.Board = field(default_factory=lambda: cshogi.Board(STARTPOS_SFEN))
    reconciler: Reconciler = field(default_factory=Reconciler)
    reader: SyntheticReader = field(default_factory=lambda: SyntheticReader(7, NoiseModel()))
    time: float = 0.0
    asked: list[AskEngine] = field(default_factory=list)
    transfers: list[str] = field(default_factory=list)
    prompts: list[Prompt] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)

    def carry_out(self, commands: list[Command]) -> None:
        for command in commands:
            if isinstance(command, ExpectPosition):
                self.reconciler.set_position(command.start_sfen, command.moves)
            elif isinstance(command, ExpectMove):
                self.reconciler.expect(command.usi)
            elif isinstance(command, ExecuteMove):
                self.transfers.append(command.usi)
            elif isinstance(command, AskEngine):
                self.asked.append(command)
            elif isinstance(command, Prompt):
                self.prompts.append(command)

    def send(self, event: Event) -> None:
        self.events.append(event)
        self.state, commands = step(self.state, event, self.time)
        self.carry_out(commands)

    def look(self, frames: int = 6) -> None:
        """Stable frames of the physical board, each through the reconciler and (if decided) the machine."""
        for _ in range(frames):
            self.observe(self.reader.observe_board(self.physical, self.time))

    def observe(self, obs: object) -> None:
        self.time += 0.1
        event = event_of(self.reconciler.observe(obs))  # type: ignore[arg-type]
        if event is not None:
            self.send(event)

    def hand_move(self, usi: str) -> None:
        """A person plays `usi` on the physical board (hand over the board, then stable frames)."""
        for obs in self.reader.move_frames(self.physical, [usi], self.time, stable=0):
            self.observe(obs)
        self.look()

    def gantry_runs(self) -> None:
        """The gantry plays the last requested transfer on the physical board (the arm hides it meanwhile)."""
        for obs in self.reader.move_frames(self.physical, [self.transfers[-1]], self.time, stable=0):
            self.observe(obs)
        self.send(TransferDone())
        self.look()


def _world(settings: object) -> World:
    state, commands = initial(settings)  # type: ignore[arg-type]
    world = World(state)
    world.carry_out(commands)
    world.look()
    return world


def test_play_game_with_robot_through_the_reconciler() -> None:
    """It should play 20 moves: the human's read from frames, the engine's executed, each confirmed by camera."""
    world = _world(play_settings())
    assert world.state.phase is Phase.WAIT_HUMAN
    for ply, usi in enumerate(GAME[:20], start=1):
        if ply % 2:
            world.hand_move(usi)
            assert world.state.phase is Phase.ENGINE_THINKING, (ply, world.events[-3:])
            assert world.asked[-1].moves == tuple(GAME[:ply])
        else:
            world.send(EngineMoved(usi))
            assert world.state.phase is Phase.ROBOT_MOVING and world.transfers[-1] == usi
            world.look(3)
            assert world.state.phase is Phase.ROBOT_MOVING, "the board has not changed: no confirmation"
            world.gantry_runs()
            assert world.state.phase is Phase.WAIT_HUMAN, (ply, world.events[-3:])
    assert world.state.usi_moves == tuple(GAME[:20]) and world.reconciler.moves == tuple(GAME[:20])
    assert not world.prompts


def test_assist_mode_wrong_move_then_right_move() -> None:
    """It should refuse a wrong move made for the engine and accept the right one once the board is corrected."""
    world = _world(play_settings(gantry=False))
    world.hand_move("7g7f")
    world.send(EngineMoved("3c3d"))
    assert world.state.phase is Phase.ASSIST_WAIT
    world.hand_move("8c8d")
    world.look(15)
    assert world.state.phase is Phase.ASSIST_WAIT and isinstance(world.events[-1], MismatchSeen)
    world.physical.pop()
    world.hand_move("3c3d")
    assert world.state.phase is Phase.WAIT_HUMAN and world.state.usi_moves == ("7g7f", "3c3d")


def test_record_mode_takeback_through_the_reconciler() -> None:
    """It should record a takeback and the different move played instead, as the reconciler reports them."""
    world = _world(record_settings())
    for usi in ("7g7f", "3c3d", "2g2f"):
        world.hand_move(usi)
    world.physical.pop()
    world.look()
    world.hand_move("6g6f")
    assert world.state.usi_moves == ("7g7f", "3c3d", "6g6f"), world.events[-6:]
    assert world.reconciler.moves == world.state.usi_moves


def test_play_mode_extra_move_for_the_engine_is_refused() -> None:
    """It should keep only the human's move when he also moves an engine piece, until that piece goes back."""
    world = _world(play_settings())
    world.hand_move("7g7f")
    assert world.state.phase is Phase.ENGINE_THINKING
    world.hand_move("3c3d")
    assert world.state.phase is Phase.MISMATCH and world.state.usi_moves == ("7g7f",)
    world.physical.pop()
    world.look()
    assert world.state.phase is Phase.ENGINE_THINKING and world.reconciler.moves == ("7g7f",)


def test_play_mode_takeback_asked_and_applied() -> None:
    """It should ask when the human takes back his move and the robot's, and set the reconciler back on yes."""
    world = _world(play_settings())
    world.hand_move("7g7f")
    world.send(EngineMoved("3c3d"))
    world.gantry_runs()
    assert world.state.phase is Phase.WAIT_HUMAN
    world.physical.pop()
    world.physical.pop()
    world.look(8)
    assert world.state.phase is Phase.PROMPT and world.prompts[-1].question == "Take back 2 moves?"
    world.send(PromptAnswered("take back"))
    world.look()
    assert world.state.phase is Phase.WAIT_HUMAN and world.state.usi_moves == () and world.reconciler.moves == ()
