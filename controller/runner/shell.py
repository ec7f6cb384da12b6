"""The game loop: observations become events, the state machine is stepped with the injected clock, and each
step's commands are carried out in order.

Owns: `GameShell` (the loop, the queue of events that workers and pages post, the ply cap and the stall guard)
and `ShellReport` (how the game went, for the commands' final figures). What the commands do to the world is
`controller.runner.effects.Effects`; where observations come from is an `Eyes`; the simulated world, when there
is one, acts through a `Scene` between frames.
"""

from __future__ import annotations

import queue
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from controller.game.commands import Command, ExecuteMove, Prompt, SaveJournal, StartJournal
from controller.game.events import (
    Abort,
    BoardConfirmed,
    BoardMoveSeen,
    Event,
    MismatchSeen,
    NewGame,
    Tick,
    TransferFailed,
)
from controller.game.machine import step
from controller.game.state import GameState, Phase
from controller.ports import Clock
from controller.reconcile.types import Observation
from controller.runner.events import event_of
from controller.runner.reconciling import ReconcilerPort


class Eyes(Protocol):
    """Where observations come from (`controller.runner.eyes.CameraEyes`, or scripted ones in tests)."""

    def look(self, now: float) -> Observation | None:
        """The next observation, or None when there is no frame."""
        ...


class Scene(Protocol):
    """The simulated world beyond the camera (None for real hardware): its people act between frames."""

    def act(self, state: GameState, now: float) -> None:
        """Do whatever the people at the board do in this state (start a move, answer a prompt, ...)."""
        ...


class CommandSink(Protocol):
    """Carries out one command (`controller.runner.effects.Effects`)."""

    def carry_out(self, command: Command, state: GameState, now: float) -> None:
        """Do what `command` asks; return once it is done (a journal entry is fsynced before this returns)."""
        ...

    def progress(self, before: GameState, after: GameState, now: float) -> None:
        """Show what changed (moves committed, the game's status)."""
        ...

    def commands_from_outside(self, state: GameState) -> Sequence[Event]:
        """Events from pages and buttons since the last call."""
        ...


@dataclass
class ShellReport:
    """How the game went.

    Attributes:
        state: the final state.
        steps: events stepped.
        robot_moves: gantry moves confirmed by the camera (also when a board problem was reported on the way and
            the camera then saw the move made).
        robot_first_try: of those, confirmed on the first attempt with no failed transfer, board problem or prompt
            on the way.
        transfer_failures: `TransferFailed` events.
        prompts: questions asked.
        mismatches: board problems reported (a `MismatchSeen` with new messages; repeats are not counted).
        stopped: why the loop stopped early (ply cap, stall, deadline), empty when the game ended by itself.
    """

    state: GameState
    steps: int = 0
    robot_moves: int = 0
    robot_first_try: int = 0
    transfer_failures: int = 0
    prompts: list[str] = field(default_factory=list)
    mismatches: int = 0
    stopped: str = ""


@dataclass(frozen=True)
class Limits:
    """When the loop gives up.

    Attributes:
        max_plies: stop (abort) once this many moves are played; None for no cap.
        stall_s: abort when no move has been committed for this long.
        tick_s: how often a `Tick` is sent (drives time-outs).
        keep_serving: after a game ends, keep running (the page can start the next game); `run` then returns
            only when `until` says so. Setting up a board is then never cut short by the stall guard.
    """

    max_plies: int | None = None
    stall_s: float = 300.0
    tick_s: float = 0.25
    keep_serving: bool = False


class GameShell:
    """Runs one game (`run()` returns when it is over), or game after game with `Limits.keep_serving`."""

    def __init__(
        self,
        state: GameState,
        initial_commands: Sequence[Command],
        *,
        eyes: Eyes,
        reconciler: ReconcilerPort,
        effects: CommandSink,
        clock: Clock,
        scene: Scene | None = None,
        limits: Limits = Limits(),
    ) -> None:
        self.state = state
        self._pending = list(initial_commands)
        self._eyes, self._reconciler, self._effects = eyes, reconciler, effects
        self._clock, self._scene, self._limits = clock, scene, limits
        self._events: queue.Queue[Event] = queue.Queue()
        self.report = ShellReport(state)
        self._robot_clean = True
        self._executed: str | None = None
        self._last_mismatch: tuple[str, ...] = ()
        self._last_progress = clock.now()
        self._last_tick = clock.now()

    def post(self, event: Event) -> None:
        """Queue an event from another thread (engine answer, gantry result, button)."""
        self._events.put(event)

    def run(self, *, until: Callable[[GameState], bool] | None = None) -> ShellReport:
        """Loop until the game is over (or `until(state)` says stop)."""
        self._carry_out(self._pending)
        self._pending = []
        while not (until is not None and until(self.state)):
            if self.state.phase is Phase.GAME_OVER and not self._limits.keep_serving:
                break
            self.turn()
        self.report.state = self.state
        return self.report

    def turn(self) -> None:
        """One pass: queued events, outside commands, the scene, one observation, the tick and the guards."""
        now = self._clock.now()
        while not self._events.empty():
            self.send(self._events.get_nowait())
        for event in self._effects.commands_from_outside(self.state):
            self.send(event)
        if self._scene is not None:
            self._scene.act(self.state, now)
        observation = self._eyes.look(self._clock.now())
        if observation is not None:
            seen = event_of(self._reconciler.observe(observation))
            if seen is not None:
                self.send(seen)
        now = self._clock.now()
        if now - self._last_tick >= self._limits.tick_s:
            self._last_tick = now
            self.send(Tick())
        self._guard(now)

    def send(self, event: Event) -> None:
        """Step the machine with `event` and carry out its commands; what changed is shown once it is journaled
        (after the step's last journal entry, before the commands that act on it)."""
        if self.state.phase is Phase.GAME_OVER and not isinstance(event, NewGame):
            return
        now = self._clock.now()
        if isinstance(event, NewGame):
            self._last_progress = now
        before = self.state
        self.state, commands = step(before, event, now)
        self.report.steps += 1
        self._count(before, event, commands)
        saves = [i for i, command in enumerate(commands) if isinstance(command, SaveJournal | StartJournal)]
        shown_after = saves[-1] if saves else -1
        if shown_after < 0:
            self._effects.progress(before, self.state, now)
        for index, command in enumerate(commands):
            self._effects.carry_out(command, self.state, self._clock.now())
            if index == shown_after:
                self._effects.progress(before, self.state, now)
        if len(self.state.moves) != len(before.moves):
            self._last_progress = now

    def _carry_out(self, commands: Sequence[Command]) -> None:
        for command in commands:
            self._effects.carry_out(command, self.state, self._clock.now())

    def _count(self, before: GameState, event: Event, commands: Sequence[Command]) -> None:
        report = self.report
        for command in commands:
            if isinstance(command, Prompt):
                report.prompts.append(command.question)
                self._robot_clean = False
            elif isinstance(command, ExecuteMove):
                self._executed = command.usi
                if command.attempt == 1:
                    self._robot_clean = True
        if isinstance(event, TransferFailed):
            report.transfer_failures += 1
            self._robot_clean = False
        elif isinstance(event, MismatchSeen):
            if event.messages != self._last_mismatch:
                report.mismatches += 1
                self._last_mismatch = event.messages
            self._robot_clean = False
        elif isinstance(event, BoardMoveSeen | BoardConfirmed):
            self._last_mismatch = ()
        executed = before.pending is not None and before.pending == self._executed
        seen = isinstance(event, BoardMoveSeen) and event.moves[:1] == (before.pending,)
        if executed and seen and self.state.pending is None:
            report.robot_moves += 1
            first = before.phase is Phase.ROBOT_MOVING and self._robot_clean and not before.retried
            report.robot_first_try += int(first)
            self._executed = None

    def _guard(self, now: float) -> None:
        limits, state = self._limits, self.state
        if state.phase is Phase.GAME_OVER:
            return
        if limits.keep_serving and state.phase in (Phase.SETUP_CHECK, Phase.RESET):
            self._last_progress = now
            return
        cap = limits.max_plies
        if cap is not None and len(state.moves) >= cap and state.phase in (Phase.WAIT_HUMAN, Phase.ENGINE_THINKING):
            self.report.stopped = f"the ply cap ({cap}) was reached"
            self.send(Abort(f"stopped after {len(state.moves)} moves (ply cap {cap})"))
        elif now - self._last_progress > limits.stall_s:
            self.report.stopped = f"no move for {limits.stall_s:.0f} s (phase {state.phase.value})"
            self.send(Abort(f"no progress for {limits.stall_s:.0f} s"))
