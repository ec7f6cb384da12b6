"""The game shell with fakes: a synthetic camera on a table whose pieces move only by what an in-memory gantry's
head did or by scripted people, a scripted engine, the real state machine, reconciler, planner, executor and
journal."""

from __future__ import annotations

from pathlib import Path

from runner_world import ScriptedEngine, build, play_settings, record_settings

from controller.engines.client import GameOver
from controller.game.journal import resume
from controller.game.state import Phase
from controller.rules.types import Color, Termination

GAME = ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e", "B*5e"]
"""Captures both ways (a horse taken back to a stand: turned over by a person), and drops by both sides."""


def test_robot_moves_are_executed_and_confirmed_by_the_camera(tmp_path: Path) -> None:
    """Against a scripted engine, every gantry move (capture, demotion, drop) is confirmed on the first try."""
    engine = ScriptedEngine([GAME[1], GAME[3], GAME[5]])
    shell, _effects, people, table, robot = build(
        play_settings(), tmp_path, script=[GAME[0], GAME[2], GAME[4]], engine=engine, max_plies=6
    )
    report = shell.run()
    assert report.state.usi_moves == tuple(GAME)
    assert report.robot_moves == 3 and report.robot_first_try == 3
    assert robot is not None and [r.usi for r in robot.runs] == [GAME[1], GAME[3], GAME[5]]
    assert table.loose == [] and table.held is None
    assert report.state.result is not None and report.state.result.termination is Termination.ABORT
    assert "ply cap" in report.stopped and people.prompts == []


def test_the_journal_and_records_follow_the_game(tmp_path: Path) -> None:
    """The journal holds every move with its source; the KIFU and CSA files are written as the game goes."""
    engine = ScriptedEngine([GAME[1], GAME[3]])
    shell, _effects, _people, _table, _robot = build(
        play_settings(), tmp_path, script=[GAME[0], GAME[2]], engine=engine, max_plies=4
    )
    shell.run()
    game = resume(tmp_path / "game.journal")
    assert [m.usi for m in game.record.moves] == GAME[:4]
    assert [s.value for s in game.sources] == ["human", "engine", "human", "engine"]
    assert (tmp_path / "game.kifu").read_text(encoding="utf-8").count("\n") > 4
    assert "-3122GI" in (tmp_path / "game.csa").read_text(encoding="utf-8")


def test_engine_resignation_ends_the_game_and_the_engine_is_told(tmp_path: Path) -> None:
    """`bestmove resign` ends the game as a resignation; the engine gets `gameover lose`."""
    engine = ScriptedEngine([GAME[1], "resign"])
    shell, _e, _p, _t, _r = build(play_settings(), tmp_path, script=[GAME[0], GAME[2]], engine=engine)
    report = shell.run()
    assert report.state.result is not None and report.state.result.termination is Termination.RESIGN
    assert report.state.result.winner is Color.BLACK
    assert engine.results == [GameOver.LOSE]


def test_assist_mode_the_person_plays_the_engines_move(tmp_path: Path) -> None:
    """Without a gantry the engine's move is announced, the person makes it, and the camera checks it."""
    engine = ScriptedEngine([GAME[1], GAME[3]])
    shell, effects, people, _t, robot = build(
        play_settings(gantry=False), tmp_path, script=[GAME[0], GAME[2]], engine=engine, max_plies=4
    )
    report = shell.run()
    assert robot is None and report.state.usi_moves == tuple(GAME[:4])
    assert people.played == GAME[:4]
    assert any("3c3d" in text for text in effects.announcements)


def test_record_mode_records_both_humans(tmp_path: Path) -> None:
    """Two people play; every move is committed from the camera alone."""
    shell, _e, _p, _t, _r = build(record_settings(), tmp_path, script=list(GAME), max_plies=6)
    report = shell.run()
    assert report.state.usi_moves == tuple(GAME)
    assert report.robot_moves == 0 and report.mismatches == 0


def test_a_failed_transfer_is_retried_from_where_it_stopped(tmp_path: Path) -> None:
    """A gantry fault at the first grip of the capture: the retry continues the plan and the camera confirms."""
    engine = ScriptedEngine([GAME[1], GAME[3]])
    shell, _e, _p, table, robot = build(
        play_settings(), tmp_path, script=[GAME[0], GAME[2]], engine=engine, fail_on={2}, max_plies=4
    )
    report = shell.run()
    assert report.state.usi_moves == tuple(GAME[:4])
    assert report.transfer_failures == 1 and report.robot_moves == 2 and report.robot_first_try == 1
    assert robot is not None and [(r.usi, r.attempt, r.ok) for r in robot.runs][-2:] == [
        (GAME[3], 1, False),
        (GAME[3], 2, True),
    ]
    assert table.loose == []


def test_phase_is_game_over_after_run(tmp_path: Path) -> None:
    """The loop returns only when the game is over."""
    shell, _e, _p, _t, _r = build(record_settings(), tmp_path, script=GAME[:2], max_plies=2)
    assert shell.run().state.phase is Phase.GAME_OVER


def test_moves_and_announcements_are_spoken_in_order(tmp_path: Path) -> None:
    """With a speaker, every committed move and announcement is spoken, in order, from the speech thread."""
    from controller.runner.effects import BackgroundSpeaker
    from controller.speech import RecordingSpeaker

    recording = RecordingSpeaker()
    shell, effects, _p, _t, _r = build(record_settings(), tmp_path, script=GAME[:2], max_plies=2)
    speaker = BackgroundSpeaker(recording)
    effects.speaker = speaker
    shell.run()
    speaker.close()
    spoken = [text for text in recording.said if text not in effects.announcements]
    assert spoken == ["Black: pawn to 7f", "White: pawn to 3d"]
    assert [t for t in recording.said if t in effects.announcements] == effects.announcements


def test_a_typed_number_answers_the_open_prompt(tmp_path: Path) -> None:
    """On the console, `2` answers a prompt with its second option."""
    from controller.game.commands import Prompt
    from controller.game.events import PromptAnswered

    shell, effects, _p, _t, _r = build(record_settings(), tmp_path, script=[])
    effects.carry_out(Prompt("Which move?", ("7g7f", "7g7f+")), shell.state, 0.0)
    effects.answer_typed("2\n")
    assert list(effects.commands_from_outside(shell.state)) == [PromptAnswered("7g7f+")]


def test_a_typed_move_answers_a_move_question_on_the_console(tmp_path: Path) -> None:
    """On the console, the move(s) played typed in USI are the answer (a move question's way out), as typed."""
    from controller.game.commands import Prompt
    from controller.game.events import PromptAnswered

    shell, effects, _p, _t, _r = build(record_settings(), tmp_path, script=[])
    effects.carry_out(Prompt("Which move was played?", ("L*8a", "S*8a", "another move")), shell.state, 0.0)
    effects.answer_typed(" R*8a B*8h\n")
    assert list(effects.commands_from_outside(shell.state)) == [PromptAnswered("R*8a B*8h")]


def test_an_engine_that_cannot_answer_aborts_the_game_with_the_reason(tmp_path: Path) -> None:
    """When the engine fails beyond what its supervisor can restart, the game ends (aborted) saying why."""
    from controller.engines.errors import EngineDied

    class DeadEngine(ScriptedEngine):
        def play(self, position: object, limits: object = None) -> object:  # type: ignore[override]
            raise EngineDied("fairy-stockfish exited with -9 (restarted twice)")

    shell, _e, _p, _t, _r = build(play_settings(), tmp_path, script=[GAME[0]], engine=DeadEngine([]))
    report = shell.run()
    assert report.state.result is not None and report.state.result.termination is Termination.ABORT
    assert "exited with -9" in report.state.result.detail
