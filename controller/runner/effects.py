"""What the state machine's commands do to the world, and what the players are shown.

Owns: `Effects`, which carries out each command (reconciler sync, engine request or stop, gantry move, journal
start and save, announcements to the console, speech and web page, prompts, clocks, the end of the game), shows
progress (each committed move in Japanese and USI with both clocks, the compact board every few moves), publishes
the `GameView` to the web page, and gathers the events pages and buttons send.
"""

from __future__ import annotations

import queue
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol

from controller.game.commands import (
    Announce,
    AskEngine,
    Command,
    EndGame,
    ExecuteMove,
    Prompt,
    SaveJournal,
    StartClock,
    StartJournal,
    StopClock,
    StopEngine,
)
from controller.game.entries import JournalHeader
from controller.game.events import Event
from controller.game.gamelog import GameLog
from controller.game.live_records import LiveRecords
from controller.game.settings import GameSettings
from controller.game.state import GameState
from controller.rules.types import Color, GameResult
from controller.runner import display
from controller.runner.opponent import Opponent
from controller.runner.page_controls import PageControls
from controller.runner.reconciling import ReconcilerPort, apply_to_reconciler
from controller.runner.robot import GantryRobot
from controller.web.hub import ViewHub
from controller.web.view import GameView

Say = Callable[[str], None]


class Speaker(Protocol):
    """`controller.speech.Speaker`."""

    def say(self, text: str) -> None:
        """Speak `text`."""
        ...


@dataclass
class GameFiles:
    """Where the game's journal and records go, and what the journal's header records about the engine.

    Attributes:
        base: path without extension (`out/game` -> `out/game.journal`, `out/game.kifu`, `out/game.csa`).
        formats: record formats kept up to date.
        engine: the engine as the header records it.
        log: the open journal (set by `StartJournal`, or given when resuming).
        games: games started in this session.
    """

    base: Path
    formats: tuple[str, ...] = ("kifu", "csa")
    engine: dict[str, Any] = field(default_factory=dict)
    log: GameLog | None = None
    games: int = 0

    def start(self, settings: GameSettings) -> GameLog:
        """Create the journal (and the record files) for a new game; the session's later games get `-2`, `-3`...
        after the first one's name (a game's files are never overwritten)."""
        if self.log is not None:
            self.log.close()
            self.base = self.base.with_name(f"{self.base.name.removesuffix(f'-{self.games}')}-{self.games + 1}")
        self.games += 1
        self.base.parent.mkdir(parents=True, exist_ok=True)
        started = time.strftime("%Y/%m/%d %H:%M:%S")
        header = JournalHeader(settings, dict(self.engine), started)
        self.log = GameLog.start(self.base, header, LiveRecords(self.base, self.formats))
        return self.log

    def records(self) -> list[Path]:
        """The record files."""
        return LiveRecords(self.base, self.formats).paths()


@dataclass
class Effects:
    """Carries out commands; see the module docstring.

    Attributes:
        reconciler: the reconciler the board commands address.
        files: the journal and records.
        say: where progress lines go (the console).
        opponent: the engine or the remote player (play mode), None in record mode.
        robot: the gantry (play mode with a gantry), None otherwise.
        speaker: spoken announcements and moves, when on (`BackgroundSpeaker`, so the loop never waits for it).
        speech_language: `en` or `ja` for the spoken moves.
        hub: the web page's hub, when `--web` is on.
        on_prompt: told of each prompt (the simulated human answers through it).
        on_start: told the start SFEN when a new game's start position is confirmed and its journal starts (the
            reader learns the piece set from it: `controller.runner.set_learning`).
        board_every: print the compact board every this many moves (0: only at the end).
        names: player names for the web page.
        controls: the page's controls that are not game events (emergency stop, jog, calibrations).
    """

    reconciler: ReconcilerPort
    files: GameFiles
    say: Say = print
    opponent: Opponent | None = None
    robot: GantryRobot | None = None
    speaker: Speaker | None = None
    hub: ViewHub | None = None
    on_prompt: Callable[[Prompt, GameState], None] | None = None
    on_start: Callable[[str], object] | None = None
    board_every: int = 10
    names: dict[str, str] = field(default_factory=dict)
    speech_language: str = "en"
    controls: PageControls | None = None
    outside: queue.Queue[Event] = field(default_factory=queue.Queue)
    announcements: list[str] = field(default_factory=list)
    _prompt_id: int = 0
    _options: tuple[str, ...] = ()

    def carry_out(self, command: Command, state: GameState, now: float) -> None:
        """Do what `command` asks (journal entries are durable when this returns)."""
        if apply_to_reconciler(self.reconciler, command):
            return
        handler = _HANDLERS.get(type(command))
        if handler is not None:
            handler(self, command, state, now)

    def _ask(self, command: AskEngine, state: GameState, now: float) -> None:
        if self.opponent is None:
            raise RuntimeError("the game asked an engine, but none was started")
        self.opponent.ask(command)

    def _stop(self, _command: StopEngine, state: GameState, now: float) -> None:
        if self.opponent is not None:
            self.opponent.cancel()

    def _execute(self, command: ExecuteMove, state: GameState, now: float) -> None:
        if self.robot is None:
            raise RuntimeError("the game asked the gantry to move, but there is no gantry")
        retry = " (second attempt)" if command.attempt > 1 else ""
        self.say(f"      robot plays {command.usi}{retry}")
        self.robot.execute(command)

    def _announce(self, command: Announce, state: GameState, now: float) -> None:
        self.tell(command.text)
        if self.hub is not None:
            self._publish(state, now)

    def tell(self, text: str) -> None:
        """Say `text` to the players: console, speech, and the page's notice (at its next update)."""
        self.announcements.append(text)
        self.say(f"  » {text}")
        if self.speaker is not None:
            self.speaker.say(text)

    def _prompt(self, command: Prompt, state: GameState, now: float) -> None:
        self._prompt_id += 1
        self._options = command.options
        numbered = " / ".join(f"{i}: {option}" for i, option in enumerate(command.options, start=1))
        self.say(f"  ? {command.question} [{numbered}]")
        if self.on_prompt is not None:
            self.on_prompt(command, state)

    def _start_journal(self, command: StartJournal, state: GameState, now: float) -> None:
        log = self.files.start(command.settings)
        self.say(f"  journal {log.journal.path}; records {', '.join(str(p) for p in self.files.records())}")
        if self.hub is not None:
            self.hub.set_record_source(self._record_bytes)
        if self.on_start is not None:
            self.on_start(command.settings.start_sfen)

    def _save(self, command: SaveJournal, state: GameState, now: float) -> None:
        if self.files.log is None:
            raise RuntimeError("a journal entry came before the journal was started")
        self.files.log.save(command.entry)

    def _clock(self, command: StartClock | StopClock, state: GameState, now: float) -> None:
        return None  # the clocks live in the game state; the display reads them

    def _end(self, command: EndGame, state: GameState, now: float) -> None:
        result = command.result
        self.say(f"  game over: {describe_result(result)}")
        if self.opponent is not None:
            self.opponent.game_ended(result, state)

    def _record_bytes(self, fmt: str) -> bytes:
        from controller.records.io import write_record

        if self.files.log is None:
            return b""
        path = self.files.base.with_name(f".{self.files.base.name}.web.{fmt}")
        write_record(self.files.log.record(), path)
        data = path.read_bytes()
        path.unlink()
        return data

    # --- progress -------------------------------------------------------------------------------------------

    def progress(self, before: GameState, after: GameState, now: float) -> None:
        """Print newly committed moves and publish the view when anything changed."""
        if len(after.moves) > len(before.moves):
            for ply in range(len(before.moves) + 1, len(after.moves) + 1):
                self._show_move(_prefix(after, ply), now)
        elif len(after.moves) < len(before.moves):
            self.say(f"  takeback: back to move {len(after.moves)}")
        if self.hub is not None and (after is not before):
            self._publish(after, now)

    def _show_move(self, state: GameState, now: float) -> None:
        self.say(f"{display.move_line(state)}   {display.clock_line(state, now)}")
        if self.speaker is not None:
            from controller.speech import announce_move

            self.speaker.say(announce_move(state.settings.start_sfen, list(state.usi_moves), self.speech_language))
        if self.board_every and len(state.moves) % self.board_every == 0:
            self.say(display.compact_board(display.final_position(state)))

    def _publish(self, state: GameState, now: float) -> None:
        assert self.hub is not None
        notice = self.announcements[-1] if self.announcements else ""
        view = display.game_view(state, now, prompt_id=self._prompt_id, names=self.names, notice=notice)
        evaluation = getattr(self.opponent, "evaluation", None)
        self.hub.publish(replace(view, evaluation=evaluation) if evaluation else view)

    def publish_idle(self, text: str) -> None:
        """Show a status on the page before the game starts."""
        if self.hub is not None:
            self.hub.publish(GameView(status=text))

    def answer_typed(self, text: str) -> None:
        """An answer typed on the console: an option's number or its text (queued for the game loop)."""
        from controller.game.events import PromptAnswered

        text = text.strip()
        if text.isdigit() and 1 <= int(text) <= len(self._options):
            text = self._options[int(text) - 1]
        if text:
            self.outside.put(PromptAnswered(text))

    def commands_from_outside(self, state: GameState) -> Sequence[Event]:
        """Events from buttons (queued by their callbacks) and from pages."""
        from controller.runner.events import web_event

        events: list[Event] = []
        while not self.outside.empty():
            events.append(self.outside.get_nowait())
        if self.hub is not None:
            command = self.hub.take_command()
            while command is not None:
                event = web_event(command, state)
                if event is None and self.controls is not None:
                    event = self.controls.handle(command, state)
                if event is not None:
                    events.append(event)
                command = self.hub.take_command()
        return events


class BackgroundSpeaker:
    """Speaks in a worker thread, in order, so that the game loop never waits for the speech program."""

    def __init__(self, speaker: Speaker) -> None:
        import threading

        self._speaker = speaker
        self._queue: queue.Queue[str | None] = queue.Queue()
        self._thread = threading.Thread(target=self._run, name="speech", daemon=True)
        self._thread.start()
        self.failures: list[str] = []

    def say(self, text: str) -> None:
        """Queue `text`."""
        self._queue.put(text)

    def close(self) -> None:
        """Finish what is queued, then stop."""
        self._queue.put(None)
        self._thread.join(timeout=30)

    def _run(self) -> None:
        import subprocess

        while (text := self._queue.get()) is not None:
            try:
                self._speaker.say(text)
            except (OSError, subprocess.SubprocessError) as exc:
                self.failures.append(f"{text!r}: {exc}")


def _prefix(state: GameState, ply: int) -> GameState:
    from dataclasses import replace

    return replace(state, moves=state.moves[:ply])


def describe_result(result: GameResult) -> str:
    """`checkmate, sente wins (detail)`."""
    winner = {Color.BLACK: "sente wins", Color.WHITE: "gote wins", None: "no winner"}[result.winner]
    detail = f" ({result.detail})" if result.detail else ""
    return f"{result.termination.value}, {winner}{detail}"


_HANDLERS: dict[type, Callable[[Effects, Any, GameState, float], None]] = {
    AskEngine: Effects._ask,
    StopEngine: Effects._stop,
    ExecuteMove: Effects._execute,
    Announce: Effects._announce,
    Prompt: Effects._prompt,
    StartJournal: Effects._start_journal,
    SaveJournal: Effects._save,
    StartClock: Effects._clock,
    StopClock: Effects._clock,
    EndGame: Effects._end,
}
