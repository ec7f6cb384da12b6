"""The game journal: durable appends, resume with a torn final line, refusal of corruption, crash of a real
process (kill -9) mid-game, and the KIFU/CSA files kept as the game goes."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from controller.game.clock import ClockConfig, GameClock, SideTime
from controller.game.entries import ClockSnapshot, JournalHeader, MoveEntry, ResultEntry, TakebackEntry
from controller.game.errors import JournalCorruptError, JournalError
from controller.game.gamelog import GameLog
from controller.game.journal import Journal, resume
from controller.game.live_records import LiveRecords
from controller.game.settings import GameSettings, ImpasseSetting, Mode, MoveSource
from controller.records.io import read_record
from controller.rules.positions import HANDICAPS
from controller.rules.types import Color, GameResult, HeaderKey, Termination

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "controller" / "data" / "sample_game.usi"
SAMPLE_MOVES = SAMPLE.read_text().split()[2:]
CHILD = Path(__file__).with_name("game_journal_child.py")
CLOCK = '"clock":{"b":{"main_s":1,"periods":1,"used_s":0},"w":{"main_s":1,"periods":1,"used_s":0}}'
SETTINGS = GameSettings(clock=ClockConfig(main_s=300, byoyomi_s=10), impasse=ImpasseSetting.COUNT_24)


def _snap(black_main: float = 300.0) -> ClockSnapshot:
    return ClockSnapshot(SideTime(black_main, 1, 300.0 - black_main), SideTime(300.0, 1, 0.0))


def _write_game(path: Path, moves: list[str]) -> None:
    with Journal.create(path, JournalHeader(SETTINGS, {"name": "fairy-stockfish"}, "2026-11-22T02:00:00")) as j:
        for ply, usi in enumerate(moves, start=1):
            j.append(MoveEntry(ply, usi, MoveSource.HUMAN, 2.5, _snap(300.0 - ply)))


def test_resume_rebuilds_record_clock_and_settings(tmp_path: Path) -> None:
    """It should give back the moves with their times, the clock of the last entry and the settings."""
    path = tmp_path / "g.journal"
    _write_game(path, ["7g7f", "3c3d", "8h2b+"])
    game = resume(path)
    assert game.record.usi_moves == ["7g7f", "3c3d", "8h2b+"]
    assert [m.seconds for m in game.record.moves] == [2.5, 2.5, 2.5]
    assert game.settings == SETTINGS and game.torn is None and game.result is None
    assert game.clock.black.main_s == 297.0 and game.clock.running is None
    assert game.record.headers[HeaderKey.IMPASSE_RULE] == "count24"
    assert game.record.headers[HeaderKey.WHITE] == "fairy-stockfish"


def test_lines_are_json_with_header_first(tmp_path: Path) -> None:
    """It should write a header line (start, mode, settings, engine, impasse rule) and one line per event."""
    path = tmp_path / "g.journal"
    _write_game(path, ["7g7f"])
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert lines[0]["type"] == "header" and lines[0]["mode"] == "play" and lines[0]["impasse_rule"] == "count24"
    assert lines[0]["engine"] == {"name": "fairy-stockfish"}
    assert lines[1] == {
        "type": "move",
        "ply": 1,
        "usi": "7g7f",
        "source": "human",
        "spent_s": 2.5,
        "clock": {
            "b": {"main_s": 299.0, "periods": 1, "used_s": 1.0},
            "w": {"main_s": 300.0, "periods": 1, "used_s": 0.0},
        },
    }


def test_create_refuses_existing_file(tmp_path: Path) -> None:
    """It should never overwrite an existing journal."""
    path = tmp_path / "g.journal"
    _write_game(path, [])
    with pytest.raises(JournalError, match="exists already"):
        Journal.create(path, JournalHeader(SETTINGS))


def test_takeback_and_result(tmp_path: Path) -> None:
    """It should replay takebacks and keep the result."""
    path = tmp_path / "g.journal"
    _write_game(path, ["7g7f", "3c3d"])
    result = GameResult(Termination.RESIGN, Color.BLACK, "gote resigns")
    with Journal.reopen(path)[0] as j:
        j.append(TakebackEntry(1, _snap(250.0)))
        j.append(MoveEntry(2, "8c8d", MoveSource.ENGINE, 1.0, _snap(250.0)))
        j.append(ResultEntry(result))
    game = resume(path)
    assert game.record.usi_moves == ["7g7f", "8c8d"] and game.sources == (MoveSource.HUMAN, MoveSource.ENGINE)
    assert game.result == result and game.result.detail == "gote resigns"


def test_torn_last_line_is_ignored_reported_and_cut(tmp_path: Path) -> None:
    """It should ignore a final line without its newline, say where it was, and cut it off on reopen."""
    path = tmp_path / "g.journal"
    _write_game(path, ["7g7f", "3c3d"])
    good = path.stat().st_size
    with path.open("ab") as handle:
        handle.write(b'{"type":"move","ply":3,"us')
    game = resume(path)
    assert game.record.usi_moves == ["7g7f", "3c3d"]
    assert game.torn is not None and (game.torn.line, game.torn.offset, game.torn.size) == (4, good, 26)
    journal, _ = Journal.reopen(path)
    with journal:
        journal.append(MoveEntry(3, "2g2f", MoveSource.HUMAN, 1.0, _snap()))
    assert resume(path).record.usi_moves == ["7g7f", "3c3d", "2g2f"] and resume(path).torn is None


@pytest.mark.parametrize(
    ("line", "needle"),
    [
        ("{not json", "not JSON"),
        ('{"type":"castle"}', "unknown entry type"),
        ('{"type":"move","ply":3,"usi":"7g7f","source":"human","spent_s":1,"clock":{}}', "clock.b"),
        (
            '{"type":"move","ply":5,"usi":"2g2f","source":"human","spent_s":1,' + CLOCK + "}",
            "expected ply 3",
        ),
        (
            '{"type":"move","ply":3,"usi":"5a5b","source":"human","spent_s":1,' + CLOCK + "}",
            "illegal move",
        ),
        (
            '{"type":"takeback","plies":9,' + CLOCK + "}",
            "only 2 played",
        ),
        ("", "not JSON"),
    ],
)
def test_corruption_before_the_end_names_the_line(tmp_path: Path, line: str, needle: str) -> None:
    """It should refuse a bad line that is not the torn last one, naming its line number."""
    path = tmp_path / "g.journal"
    _write_game(path, ["7g7f", "3c3d"])
    with path.open("a") as handle:
        handle.write(line + "\n")
        handle.write('{"type":"result","termination":"abort","winner":null,"detail":""}\n')
    with pytest.raises(JournalCorruptError, match=needle) as info:
        resume(path)
    assert info.value.line == 4


def test_entry_after_result_is_corrupt(tmp_path: Path) -> None:
    """It should refuse entries after the result."""
    path = tmp_path / "g.journal"
    _write_game(path, ["7g7f"])
    with path.open("a") as handle:
        handle.write('{"type":"result","termination":"abort","winner":null,"detail":""}\n')
        handle.write('{"type":"result","termination":"abort","winner":null,"detail":""}\n')
    with pytest.raises(JournalCorruptError, match="after the game's result") as info:
        resume(path)
    assert info.value.line == 4


def test_torn_header_means_no_game(tmp_path: Path) -> None:
    """It should say the game never started when even the header is incomplete."""
    path = tmp_path / "g.journal"
    path.write_bytes(b'{"type":"header","vers')
    with pytest.raises(JournalError, match="no complete header"):
        resume(path)


def _run_child(tmp_path: Path, *extra: str) -> tuple[subprocess.Popen[str], Path]:
    path = tmp_path / "crash.journal"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    cmd = [sys.executable, str(CHILD), str(path), str(SAMPLE), *extra]
    child = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True, env=env, cwd=REPO)
    return child, path


@pytest.mark.slow
def test_kill_9_mid_game_keeps_every_fsynced_move(tmp_path: Path) -> None:
    """It should resume, after SIGKILL of the appending process, with every acknowledged move and no other."""
    child, path = _run_child(tmp_path)
    assert child.stdout is not None
    acknowledged = 0
    while acknowledged < 25:
        line = child.stdout.readline()
        assert line.startswith("ok "), line
        acknowledged = int(line.split()[1])
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    child.stdout.close()
    game = resume(path)
    played = game.record.usi_moves
    assert len(played) >= acknowledged
    assert played == SAMPLE_MOVES[: len(played)]


@pytest.mark.slow
def test_kill_9_during_a_write_leaves_a_torn_line(tmp_path: Path) -> None:
    """It should resume after a kill in the middle of a line: the moves before it, the torn line reported."""
    child, path = _run_child(tmp_path, "--tear", "12")
    assert child.stdout is not None
    lines = []
    while not lines or lines[-1] != "torn":
        lines.append(child.stdout.readline().strip())
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    child.stdout.close()
    assert lines[-2] == "ok 11"
    game = resume(path)
    assert game.record.usi_moves == SAMPLE_MOVES[:11]
    assert game.torn is not None and game.torn.line == 13


def test_gamelog_writes_kifu_and_csa_as_it_goes(tmp_path: Path) -> None:
    """It should journal each event, then rewrite KIFU and CSA files that read back to the same game."""
    base = tmp_path / "game1"
    settings = GameSettings(mode=Mode.RECORD, opponent_side=None, gantry=False, start_sfen=HANDICAPS["bishop"].sfen)
    log = GameLog.start(base, JournalHeader(settings, {}, "2026-11-22T02:00:00"), LiveRecords(base))
    for ply, usi in enumerate(["3c3d", "7g7f"], start=1):
        log.save(MoveEntry(ply, usi, MoveSource.HUMAN, 3.0, _snap()))
    assert read_record(tmp_path / "game1.kifu").usi_moves == ["3c3d", "7g7f"]
    assert read_record(tmp_path / "game1.csa").usi_moves == ["3c3d", "7g7f"]
    log.close()
    log, _ = GameLog.reopen(base, LiveRecords(base))
    log.save(ResultEntry(GameResult(Termination.RESIGN, Color.BLACK, "gote resigns")))
    log.close()
    record = read_record(tmp_path / "game1.kifu")
    assert record.result is not None and record.result.termination is Termination.RESIGN
    assert resume(base.with_name("game1.journal")).result is not None
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game1.csa", "game1.journal", "game1.kifu"]


def test_gamelog_refuses_an_illegal_entry_before_writing(tmp_path: Path) -> None:
    """It should refuse an entry that does not fit the game and leave the journal unchanged."""
    base = tmp_path / "g"
    log = GameLog.start(base, JournalHeader(SETTINGS), None)
    size = log.journal.path.stat().st_size
    with pytest.raises(JournalCorruptError, match="illegal move"):
        log.save(MoveEntry(1, "5a5b", MoveSource.HUMAN, 1.0, _snap()))
    assert log.journal.path.stat().st_size == size
    log.close()


def test_resumed_clock_feeds_a_new_clock(tmp_path: Path) -> None:
    """It should give a stopped clock that can be started with the journal's times."""
    path = tmp_path / "g.journal"
    _write_game(path, ["7g7f"])
    clock: GameClock = resume(path).clock.start(Color.WHITE, 0.0)
    assert clock.remaining(Color.BLACK, 5.0) == pytest.approx(299.0 + 10.0)
