"""Whole games through the step function: a scripted play-mode game to mate with the robot, prompts and a
mismatch on the way, its journal written through GameLog and resumed; and a record-mode game with a takeback."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from game_machine_helpers import Driver, of_type, play_settings, record_settings

from controller.game.commands import AskEngine, Command, ExecuteMove, SaveJournal, StartJournal
from controller.game.entries import JournalHeader
from controller.game.events import (
    Abort,
    AmbiguousSeen,
    BoardConfirmed,
    BoardMoveSeen,
    Declare,
    EngineMoved,
    Event,
    MismatchSeen,
    PromptAnswered,
    Resign,
    TakebackSeen,
    Tick,
    TransferDone,
)
from controller.game.gamelog import GameLog
from controller.game.journal import resume
from controller.game.live_records import LiveRecords
from controller.game.machine import resume_game, step
from controller.game.settings import ImpasseSetting
from controller.game.state import Phase
from controller.records.io import format_record, read_record
from controller.rules.types import Color, Termination

REPO = Path(__file__).resolve().parents[2]
GAME = (REPO / "controller" / "data" / "sample_game.usi").read_text().split()[2:]


class FilesShell:
    """The part of a shell that carries out journal commands, writing real files."""

    def __init__(self, base: Path) -> None:
        self.base = base
        self.log: GameLog | None = None

    def carry_out(self, commands: list[Command]) -> None:
        for command in commands:
            if isinstance(command, StartJournal):
                header = JournalHeader(command.settings, {"name": "scripted"}, "2026-11-22T03:00:00")
                self.log = GameLog.start(self.base, header, LiveRecords(self.base))
            elif isinstance(command, SaveJournal):
                assert self.log is not None
                self.log.save(command.entry)


def test_scripted_play_game_to_mate_with_robot(tmp_path: Path) -> None:
    """It should play a 75-move game to mate: human moves read, engine moves executed and confirmed, one
    ambiguous read and one mismatch on the way, with the journal and records written and resumable."""
    shell = FilesShell(tmp_path / "game")
    driver = Driver.started(play_settings())
    shell.carry_out(driver.log)
    now = 0.0
    for ply, usi in enumerate(GAME, start=1):
        now += 3.0
        if ply % 2:
            if ply == 9:
                shell.carry_out(driver.send(AmbiguousSeen(((usi,), ("9g9f",))), now))
                assert driver.state.phase is Phase.PROMPT
                shell.carry_out(driver.send(PromptAnswered(usi), now + 1))
            elif ply == 15:
                shell.carry_out(driver.send(MismatchSeen(("square 5e should be empty",)), now))
                shell.carry_out(driver.send(BoardConfirmed(), now + 1))
                shell.carry_out(driver.send(BoardMoveSeen((usi,)), now + 2))
            else:
                shell.carry_out(driver.send(BoardMoveSeen((usi,)), now))
            if ply < len(GAME):
                assert driver.state.phase is Phase.ENGINE_THINKING
                assert of_type(driver.last, AskEngine)[0].moves == tuple(GAME[:ply])
        else:
            shell.carry_out(driver.send(EngineMoved(usi), now))
            assert of_type(driver.last, ExecuteMove)[0].usi == usi
            shell.carry_out(driver.send(TransferDone(), now + 1))
            assert driver.send(BoardConfirmed(), now + 1.5) == [], "no change seen yet: not a confirmation"
            shell.carry_out(driver.send(BoardMoveSeen((usi,)), now + 2))
            assert driver.state.phase is Phase.WAIT_HUMAN
    result = driver.state.result
    assert driver.state.phase is Phase.GAME_OVER and result is not None
    assert (result.termination, result.winner) == (Termination.CHECKMATE, Color.BLACK)
    assert shell.log is not None
    shell.log.close()
    resumed = resume(tmp_path / "game.journal")
    assert resumed.record.usi_moves == GAME and resumed.result == result
    assert all(m.seconds is not None for m in resumed.record.moves)
    assert read_record(tmp_path / "game.kifu").usi_moves == GAME
    assert read_record(tmp_path / "game.csa").usi_moves == GAME


def test_scripted_record_game_with_takeback(tmp_path: Path) -> None:
    """It should record two humans' game with a takeback, the journal ending with the same moves."""
    shell = FilesShell(tmp_path / "rec")
    driver = Driver.started(record_settings())
    shell.carry_out(driver.log)
    script = [
        (2.0, BoardMoveSeen(("7g7f",))),
        (5.0, BoardMoveSeen(("3c3d",))),
        (7.0, BoardMoveSeen(("2g2f",))),
        (9.0, TakebackSeen(1)),
        (12.0, BoardMoveSeen(("8h2b+",))),
        (15.0, BoardMoveSeen(("3a2b",))),
    ]
    for now, event in script:
        shell.carry_out(driver.send(event, now))
    assert driver.state.usi_moves == ("7g7f", "3c3d", "8h2b+", "3a2b")
    assert shell.log is not None
    shell.log.close()
    resumed = resume(tmp_path / "rec.journal")
    assert resumed.record.usi_moves == ["7g7f", "3c3d", "8h2b+", "3a2b"]
    assert [m.seconds for m in resumed.record.moves] == [2.0, 3.0, 3.0, 3.0]
    assert resumed.clock.black.used_s == 2.0 + 2.0 + 3.0, "time spent on a move taken back is not refunded"


def test_crash_resume_continues_the_same_game(tmp_path: Path) -> None:
    """It should resume a journal left mid-game: board check, the side to move's turn, appending to it."""
    shell = FilesShell(tmp_path / "g")
    driver = Driver.started(play_settings())
    shell.carry_out(driver.log)
    for now, event in [(3.0, BoardMoveSeen(("7g7f",))), (5.0, EngineMoved("3c3d"))]:
        shell.carry_out(driver.send(event, now))
    assert shell.log is not None
    shell.log.journal.close()
    log, game = GameLog.reopen(tmp_path / "g", LiveRecords(tmp_path / "g"))
    state, commands = resume_game(game)
    assert state.phase is Phase.SETUP_CHECK and state.usi_moves == ("7g7f", "3c3d")
    state, commands = step(state, BoardConfirmed(), 100.0)
    assert state.phase is Phase.WAIT_HUMAN and not of_type(commands, StartJournal)
    state, commands = step(state, BoardMoveSeen(("2g2f",)), 104.0)
    for command in of_type(commands, SaveJournal):
        log.save(command.entry)
    log.close()
    assert resume(tmp_path / "g.journal").record.usi_moves == ["7g7f", "3c3d", "2g2f"]
    assert [m.seconds for m in resume(tmp_path / "g.journal").record.moves] == [3.0, 2.0, 4.0]


def _ended(settings_kwargs: dict[str, object], script: list[tuple[float, Event]], record: bool = False) -> Driver:
    settings = record_settings(**settings_kwargs) if record else play_settings(**settings_kwargs)
    driver = Driver.started(settings)
    driver.run(script)
    assert driver.state.phase is Phase.GAME_OVER
    return driver


CAMP = "RBBRGG3/GG2K4/SS7/9/9/9/9/9/8k b 2P 1"
ENDINGS: list[tuple[str, Callable[[], Driver]]] = [
    ("resign", lambda: _ended({}, [(1.0, Resign(Color.BLACK))])),
    ("engine resigns", lambda: _ended({}, [(1.0, BoardMoveSeen(("7g7f",))), (2.0, EngineMoved("resign"))])),
    ("timeout", lambda: _ended({}, [(400.0, Tick())])),
    ("engine timeout", lambda: _ended({}, [(1.0, BoardMoveSeen(("7g7f",))), (400.0, Tick())])),
    ("illegal", lambda: _ended({}, [(1.0, BoardMoveSeen(("7g7f",))), (2.0, EngineMoved("5a5c"))])),
    ("impasse win", lambda: _ended({"start_sfen": CAMP}, [(1.0, Declare(Color.BLACK))], record=True)),
    ("impasse lose", lambda: _ended({}, [(1.0, Declare(Color.BLACK))], record=True)),
    ("impasse count", lambda: _ended({"impasse": ImpasseSetting.COUNT_27}, [(1.0, Declare(Color.BLACK))], True)),
    ("abort", lambda: _ended({}, [(1.0, Abort("power"))])),
]


@pytest.mark.parametrize("ending", [e[1] for e in ENDINGS], ids=[e[0] for e in ENDINGS])
def test_every_game_end_can_be_written_as_kifu_and_csa(ending: Callable[[], Driver]) -> None:
    """It should end games only in ways the record formats can write."""
    driver = ending()
    record = driver.state.record()
    assert record.result is not None
    assert format_record(record, "kifu") and format_record(record, "csa")
