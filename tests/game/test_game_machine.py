"""The game's state machine, transition by transition (pure step function, scripted time)."""

from __future__ import annotations

import pytest
from game_machine_helpers import Driver, kinds, of_type, play_settings, record_settings

from controller.game.clock import ClockConfig, GoArgs
from controller.game.commands import (
    Announce,
    AskEngine,
    EndGame,
    ExecuteMove,
    ExpectMove,
    ExpectPosition,
    Prompt,
    SaveJournal,
    StartClock,
    StartJournal,
)
from controller.game.entries import MoveEntry, ResultEntry, TakebackEntry
from controller.game.events import (
    Abort,
    AmbiguousSeen,
    BoardConfirmed,
    BoardMoveSeen,
    Button,
    ButtonPressed,
    Declare,
    EngineMoved,
    MismatchSeen,
    NewGame,
    PromptAnswered,
    RemoteMoved,
    Resign,
    TakebackSeen,
    Tick,
    TransferDone,
    TransferFailed,
)
from controller.game.machine import initial, resumed, step
from controller.game.settings import ImpasseSetting, MoveSource, OpponentKind
from controller.game.state import Phase, PlayedMove
from controller.rules.positions import STARTPOS_SFEN
from controller.rules.types import Color, Termination

B, W = Color.BLACK, Color.WHITE
AFTER_7G7F = "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2"


def _engine_to_move(**changes: object) -> Driver:
    driver = Driver.started(play_settings(**changes))
    driver.send(BoardMoveSeen(("7g7f",)), 4.0)
    return driver


def _robot_moving(**changes: object) -> Driver:
    driver = _engine_to_move(**changes)
    driver.send(EngineMoved("3c3d"), 6.0)
    return driver


def test_setup_check_waits_for_the_start_position() -> None:
    """It should expect the start position, announce board problems, and start play when confirmed."""
    state, commands = initial(play_settings())
    assert state.phase is Phase.SETUP_CHECK and ExpectPosition(STARTPOS_SFEN) in commands
    assert commands[0].sfen == STARTPOS_SFEN  # type: ignore[union-attr]
    state, commands = step(state, MismatchSeen(("square 7g should hold a pawn",)), 0.0)
    assert state.phase is Phase.SETUP_CHECK and commands == [Announce("square 7g should hold a pawn")]
    state, commands = step(state, BoardConfirmed(), 1.0)
    assert state.phase is Phase.WAIT_HUMAN
    assert kinds(commands) == ["StartJournal", "Announce", "StartClock"] and StartClock(B) in commands


def test_engine_moving_first_is_asked_with_the_clock() -> None:
    """It should ask the engine at once when it has the first move, with USI clock arguments."""
    driver = Driver.started(play_settings(opponent_side=B))
    assert driver.state.phase is Phase.ENGINE_THINKING
    ask = of_type(driver.last, AskEngine)[0]
    assert ask.position == "position startpos" and ask.go == GoArgs(300000, 300000, byoyomi_ms=10000)


def test_human_move_is_journaled_before_the_engine_is_asked() -> None:
    """It should save the move first, then stop/start clocks and ask the engine with the new position."""
    driver = Driver.started(play_settings())
    commands = driver.send(BoardMoveSeen(("7g7f",)), 4.0)
    assert driver.state.phase is Phase.ENGINE_THINKING
    assert kinds(commands) == ["SaveJournal", "StopClock", "StartClock", "AskEngine"]
    entry = of_type(commands, SaveJournal)[0].entry
    assert isinstance(entry, MoveEntry) and (entry.ply, entry.usi, entry.spent_s) == (1, "7g7f", 4.0)
    assert entry.source is MoveSource.HUMAN and entry.clock.black.main_s == 296.0
    ask = of_type(commands, AskEngine)[0]
    assert ask.position == "position startpos moves 7g7f" and ask.go is not None and ask.go.btime_ms == 296000


def test_engine_move_is_journaled_then_executed_by_the_gantry() -> None:
    """It should save the engine's move, then tell the reconciler to expect it and run the transfer."""
    driver = _engine_to_move()
    commands = driver.send(EngineMoved("3c3d"), 6.0)
    assert driver.state.phase is Phase.ROBOT_MOVING
    assert kinds(commands) == ["SaveJournal", "StopClock", "Announce", "ExpectMove", "ExecuteMove"]
    assert of_type(commands, ExpectMove) == [ExpectMove("3c3d")]
    assert of_type(commands, ExecuteMove)[0] == ExecuteMove("3c3d", AFTER_7G7F)
    entry = of_type(commands, SaveJournal)[0].entry
    assert isinstance(entry, MoveEntry) and entry.source is MoveSource.ENGINE and entry.spent_s == 2.0


def test_robot_move_needs_the_camera_before_human_clock() -> None:
    """It should start the human's clock only when the camera sees the robot's move, not on the gantry's word."""
    driver = _robot_moving()
    assert driver.send(BoardConfirmed(), 7.0) == [] and driver.state.phase is Phase.ROBOT_MOVING
    assert driver.send(TransferDone(), 8.0) == [] and driver.state.phase is Phase.ROBOT_MOVING
    assert driver.send(BoardConfirmed(), 8.5) == [] and driver.state.clock.running is None
    commands = driver.send(BoardMoveSeen(("3c3d",)), 9.0)
    assert driver.state.phase is Phase.WAIT_HUMAN and commands == [StartClock(B)]
    assert driver.state.clock.started_at == 9.0


def test_robot_move_seen_before_done_report() -> None:
    """It should accept the camera's sight of the finished move even before the gantry reports done."""
    driver = _robot_moving()
    driver.send(BoardMoveSeen(("3c3d",)), 7.0)
    assert driver.state.phase is Phase.WAIT_HUMAN
    assert driver.send(TransferDone(), 8.0) == [] and driver.state.phase is Phase.WAIT_HUMAN


def test_failed_transfer_is_retried_once_then_the_human_is_asked() -> None:
    """It should retry a failed transfer once, then ask the human to make the move (assist)."""
    driver = _robot_moving()
    commands = driver.send(TransferFailed("alarm 1"), 7.0)
    assert driver.state.phase is Phase.ROBOT_MOVING
    assert of_type(commands, ExecuteMove) == [ExecuteMove("3c3d", AFTER_7G7F, attempt=2)]
    commands = driver.send(TransferFailed("alarm 1"), 8.0)
    assert driver.state.phase is Phase.ASSIST_WAIT and not of_type(commands, ExecuteMove)
    assert any("3c3d" in a.text for a in of_type(commands, Announce))
    driver.send(BoardMoveSeen(("3c3d",)), 20.0)
    assert driver.state.phase is Phase.WAIT_HUMAN


def test_camera_mismatch_after_transfer_asks_the_human_to_fix() -> None:
    """It should ask the human to finish the robot's move when the board is wrong after it, then start his turn."""
    driver = _robot_moving()
    driver.send(TransferDone(), 7.0)
    commands = driver.send(MismatchSeen(("square 3d should hold a gote pawn",)), 8.0)
    assert driver.state.phase is Phase.ASSIST_WAIT and driver.state.clock.running is None
    assert [a.text for a in of_type(commands, Announce)][-1] == "Please play 3c3d for the engine."
    commands = driver.send(BoardMoveSeen(("3c3d",)), 12.0)
    assert driver.state.phase is Phase.WAIT_HUMAN and StartClock(B) in commands


def test_assist_mode_announces_and_checks_the_engine_move() -> None:
    """It should announce the engine's move, refuse another move, and accept the right one."""
    driver = _engine_to_move(gantry=False)
    commands = driver.send(EngineMoved("3c3d"), 6.0)
    assert driver.state.phase is Phase.ASSIST_WAIT and not of_type(commands, ExecuteMove)
    assert "Please play 3c3d for the engine." in [a.text for a in of_type(commands, Announce)]
    commands = driver.send(MismatchSeen(("the move to make is 3c3d, but the board shows 8c8d instead.",)), 7.0)
    assert driver.state.phase is Phase.ASSIST_WAIT and len(of_type(commands, Announce)) == 1
    commands = driver.send(BoardMoveSeen(("8c8d",)), 8.0)
    assert driver.state.phase is Phase.ASSIST_WAIT and "not the engine's move" in of_type(commands, Announce)[0].text
    assert of_type(commands, ExpectPosition) == [ExpectPosition(STARTPOS_SFEN, ("7g7f",))]
    assert of_type(commands, ExpectMove) == [ExpectMove("3c3d")]
    assert driver.send(BoardConfirmed(), 8.5) == [] and driver.state.phase is Phase.ASSIST_WAIT
    driver.send(BoardMoveSeen(("3c3d",)), 9.0)
    assert driver.state.phase is Phase.WAIT_HUMAN and driver.state.clock.running is B


def test_assist_engine_move_then_human_move_in_one_read() -> None:
    """It should accept the engine's move and the human's next move seen together."""
    driver = _engine_to_move(gantry=False)
    driver.send(EngineMoved("3c3d"), 6.0)
    driver.send(BoardMoveSeen(("3c3d", "2g2f")), 9.0)
    assert driver.state.usi_moves == ("7g7f", "3c3d", "2g2f") and driver.state.phase is Phase.ENGINE_THINKING


def test_human_mismatch_keeps_the_clock_running() -> None:
    """It should wait for the board to be set right with the human's clock still running."""
    driver = Driver.started(play_settings())
    driver.send(MismatchSeen(("nifu: you already have a pawn on file 3",)), 2.0)
    assert driver.state.phase is Phase.MISMATCH and driver.state.clock.running is B
    assert driver.send(MismatchSeen(("nifu: you already have a pawn on file 3",)), 3.0) == []
    commands = driver.send(BoardConfirmed(), 5.0)
    assert driver.state.phase is Phase.WAIT_HUMAN and commands == [Announce("The board is right again.")]


def test_ambiguous_read_prompts_and_charges_time_when_seen() -> None:
    """It should ask which move was played and charge the mover up to the moment the board was seen."""
    driver = Driver.started(play_settings())
    commands = driver.send(AmbiguousSeen((("7g7f",), ("6g6f",))), 5.0)
    assert driver.state.phase is Phase.PROMPT and commands == [
        Prompt("Which move was played?", ("7g7f", "6g6f", "another move"))
    ]
    commands = driver.send(PromptAnswered("6g6f"), 30.0)
    assert driver.state.phase is Phase.ENGINE_THINKING and driver.state.usi_moves == ("6g6f",)
    entry = of_type(commands, SaveJournal)[0].entry
    assert isinstance(entry, MoveEntry) and entry.spent_s == 5.0


def test_promotion_question_answered_with_buttons() -> None:
    """It should ask whether a move promoted and take YES as the promoted move."""
    sfen = "4k4/9/9/2P6/9/9/9/9/4K4 b - 1"
    driver = Driver.started(record_settings(start_sfen=sfen))
    commands = driver.send(AmbiguousSeen((("7d7c",), ("7d7c+",))), 3.0)
    assert commands == [Prompt("Did 7d7c promote?", ("promote", "do not promote"))]
    driver.send(PromptAnswered("maybe"), 4.0)
    assert driver.state.phase is Phase.PROMPT and "Please answer one of" in of_type(driver.last, Announce)[0].text
    driver.send(ButtonPressed(Button.YES), 5.0)
    assert driver.state.usi_moves == ("7d7c+",) and driver.state.phase is Phase.WAIT_HUMAN


def test_record_mode_takeback_is_applied_at_once() -> None:
    """It should take back moves in record mode without asking, journaled first."""
    driver = Driver.started(record_settings())
    driver.run([(2.0, BoardMoveSeen(("7g7f",))), (4.0, BoardMoveSeen(("3c3d",)))])
    commands = driver.send(TakebackSeen(1), 6.0)
    assert driver.state.usi_moves == ("7g7f",) and driver.state.phase is Phase.WAIT_HUMAN
    assert kinds(commands)[0] == "SaveJournal" and isinstance(of_type(commands, SaveJournal)[0].entry, TakebackEntry)
    assert driver.state.clock.running is W


def test_play_mode_takeback_asks_first() -> None:
    """It should ask before a takeback in play mode, and apply it on yes."""
    driver = _robot_moving()
    driver.run([(7.0, TransferDone()), (8.0, BoardMoveSeen(("3c3d",)))])
    commands = driver.send(TakebackSeen(2), 10.0)
    assert driver.state.phase is Phase.PROMPT and commands == [
        Prompt("Take back 2 moves?", ("take back", "keep playing"))
    ]
    driver.send(PromptAnswered("take back"), 11.0)
    assert driver.state.usi_moves == () and driver.state.phase is Phase.WAIT_HUMAN and driver.state.clock.running is B


def test_play_mode_takeback_refused_waits_for_the_board() -> None:
    """It should wait for the position to be restored when the takeback is refused."""
    driver = _robot_moving()
    driver.run([(7.0, TransferDone()), (8.0, BoardMoveSeen(("3c3d",))), (10.0, TakebackSeen(2))])
    driver.send(ButtonPressed(Button.NO), 11.0)
    assert driver.state.phase is Phase.MISMATCH and driver.state.usi_moves == ("7g7f", "3c3d")
    driver.send(BoardConfirmed(), 15.0)
    assert driver.state.phase is Phase.WAIT_HUMAN


def test_takeback_while_engine_thinks_stops_the_search() -> None:
    """It should abandon the engine's search when the human takes back while it thinks."""
    driver = _engine_to_move()
    commands = driver.send(TakebackSeen(1), 5.0)
    assert kinds(commands) == ["StopEngine", "Prompt"] and driver.state.clock.running is None
    assert driver.send(EngineMoved("3c3d"), 5.5) == []
    driver.send(PromptAnswered("take back"), 6.0)
    assert driver.state.usi_moves == () and driver.state.phase is Phase.WAIT_HUMAN


def test_time_out_ends_the_game_on_tick() -> None:
    """It should end the game when the running side's time (main + byoyomi) runs out."""
    driver = Driver.started(play_settings())
    assert driver.send(Tick(), 310.0) == [] and driver.state.phase is Phase.WAIT_HUMAN
    commands = driver.send(Tick(), 310.5)
    assert driver.state.phase is Phase.GAME_OVER and driver.state.result is not None
    assert (driver.state.result.termination, driver.state.result.winner) == (Termination.TIMEOUT, W)
    assert kinds(commands) == ["StopClock", "SaveJournal", "EndGame", "Announce"]


def test_clock_button_fixes_the_move_time() -> None:
    """It should charge the move up to the clock press, not the later camera commit, and ask for a read."""
    driver = Driver.started(play_settings(clock_button=True))
    assert kinds(driver.send(ButtonPressed(Button.CLOCK, B), 5.0)) == ["ReadBoard"]
    commands = driver.send(BoardMoveSeen(("7g7f",)), 8.0)
    entry = of_type(commands, SaveJournal)[0].entry
    assert isinstance(entry, MoveEntry) and entry.spent_s == 5.0


def test_clock_press_before_flag_is_in_time() -> None:
    """It should not flag a side that pressed its clock before its time ran out."""
    driver = Driver.started(play_settings(clock_button=True))
    driver.send(ButtonPressed(Button.CLOCK, B), 309.0)
    driver.send(BoardMoveSeen(("7g7f",)), 311.0)
    assert driver.state.phase is Phase.ENGINE_THINKING


def test_wrong_side_clock_button_is_ignored() -> None:
    """It should ignore the clock button of the side not to move."""
    driver = Driver.started(play_settings(clock_button=True))
    assert driver.send(ButtonPressed(Button.CLOCK, W), 5.0) == [] and driver.state.move_time_at is None


@pytest.mark.parametrize(
    ("answer", "termination", "winner"),
    [("resign", Termination.RESIGN, B), ("win", Termination.IMPASSE_LOSE, B), ("5a5c", Termination.ILLEGAL_MOVE, B)],
)
def test_engine_special_answers_end_the_game(answer: str, termination: Termination, winner: Color) -> None:
    """It should end the game on the engine's resignation, failed declaration or illegal move."""
    driver = _engine_to_move()
    commands = driver.send(EngineMoved(answer), 6.0)
    assert driver.state.phase is Phase.GAME_OVER and driver.state.result is not None
    assert (driver.state.result.termination, driver.state.result.winner) == (termination, winner)
    assert "StopEngine" not in kinds(commands) and of_type(commands, EndGame)


def test_human_mate_ends_the_game() -> None:
    """It should rule checkmate after the human's mating move, journaling the move then the result."""
    driver = Driver.started(play_settings(start_sfen="8k/9/8P/9/9/9/9/9/4K4 b G 1"))
    commands = driver.send(BoardMoveSeen(("G*1b",)), 3.0)
    assert driver.state.phase is Phase.GAME_OVER and driver.state.result is not None
    assert driver.state.result.termination is Termination.CHECKMATE and driver.state.result.winner is B
    entries = [c.entry for c in of_type(commands, SaveJournal)]
    assert isinstance(entries[0], MoveEntry) and isinstance(entries[1], ResultEntry)
    assert not of_type(commands, AskEngine)


def test_engine_mating_move_is_still_played_by_the_robot() -> None:
    """It should end the game on the engine's mate and still have the gantry play the mating move."""
    driver = Driver.started(play_settings(start_sfen="4k4/9/9/9/9/9/p8/9/K8 w g 1"))
    assert driver.state.phase is Phase.ENGINE_THINKING
    commands = driver.send(EngineMoved("G*9h"), 1.0)
    assert driver.state.result is not None and driver.state.result.termination is Termination.CHECKMATE
    assert driver.state.result.winner is W and driver.state.phase is Phase.GAME_OVER
    assert kinds(commands) == [
        "SaveJournal",
        "StopClock",
        "Announce",
        "ExecuteMove",
        "SaveJournal",
        "EndGame",
        "Announce",
    ]


def test_perpetual_check_in_record_mode() -> None:
    """It should rule the fourth repetition with one side checking throughout as a loss for the checker."""
    driver = Driver.started(record_settings(start_sfen="8k/9/9/9/9/9/9/9/R3K4 b - 1"))
    cycle = ["9i9a", "1a1b", "9a9b", "1b1a", "9b9a", "1a1b"]
    moves = [*cycle, *(["9a9b", "1b1a", "9b9a", "1a1b"] * 2)]
    for t, usi in enumerate(moves, start=1):
        driver.send(BoardMoveSeen((usi,)), float(t))
        if driver.state.phase is Phase.GAME_OVER:
            break
    assert driver.state.result is not None and driver.state.result.termination is Termination.PERPETUAL_CHECK
    assert driver.state.result.winner is W


def test_human_declaration_under_the_27_point_rule() -> None:
    """It should judge a human's entering-king declaration with the game's impasse rule."""
    sfen = "RBBRGG3/GG2K4/SS7/9/9/9/9/9/8k b 2P 1"
    driver = Driver.started(record_settings(start_sfen=sfen))
    driver.send(Declare(B), 3.0)
    assert driver.state.result is not None and driver.state.result.termination is Termination.IMPASSE_WIN
    driver = Driver.started(record_settings(start_sfen=sfen, impasse=ImpasseSetting.DECLARE_24))
    driver.send(Declare(B), 3.0)
    assert driver.state.result is not None and driver.state.result.termination is Termination.IMPASSE_DRAW


def test_declaration_off_turn_is_refused() -> None:
    """It should refuse a declaration or resignation made on the opponent's turn."""
    driver = Driver.started(record_settings())
    assert "only on their own turn" in of_type(driver.send(Declare(W), 1.0), Announce)[0].text
    assert "only on their own turn" in of_type(driver.send(Resign(W), 1.0), Announce)[0].text
    assert driver.state.phase is Phase.WAIT_HUMAN


def test_record_mode_two_moves_in_one_read() -> None:
    """It should commit both moves of a fast exchange in record mode, each with its side's clock."""
    driver = Driver.started(record_settings())
    commands = driver.send(BoardMoveSeen(("7g7f", "3c3d")), 6.0)
    entries = [c.entry for c in of_type(commands, SaveJournal)]
    assert [(e.ply, e.usi, e.spent_s) for e in entries if isinstance(e, MoveEntry)] == [
        (1, "7g7f", 6.0),
        (2, "3c3d", 0.0),
    ]
    assert driver.state.phase is Phase.WAIT_HUMAN and driver.state.clock.running is B


def test_play_mode_extra_move_is_refused() -> None:
    """It should commit the human's move but refuse a second move made for the engine."""
    driver = Driver.started(play_settings())
    commands = driver.send(BoardMoveSeen(("7g7f", "3c3d")), 6.0)
    assert driver.state.phase is Phase.MISMATCH and driver.state.usi_moves == ("7g7f",)
    assert of_type(commands, ExpectPosition) == [ExpectPosition(STARTPOS_SFEN, ("7g7f",))], "reconciler set back"
    commands = driver.send(BoardConfirmed(), 9.0)
    assert driver.state.phase is Phase.ENGINE_THINKING and of_type(commands, AskEngine)


def test_mismatch_while_engine_thinks_holds_the_robot() -> None:
    """It should not move the robot onto a wrong board: the engine's move waits until the board is right."""
    driver = _engine_to_move()
    driver.send(MismatchSeen(("square 2g should hold a pawn",)), 5.0)
    commands = driver.send(EngineMoved("3c3d"), 6.0)
    assert driver.state.phase is Phase.MISMATCH and not of_type(commands, ExecuteMove)
    commands = driver.send(BoardConfirmed(), 8.0)
    assert driver.state.phase is Phase.ROBOT_MOVING and of_type(commands, ExecuteMove)
    assert of_type(commands, ExpectMove) == [ExpectMove("3c3d")]


def test_stale_and_foreign_events_are_ignored() -> None:
    """It should ignore an engine answer when not thinking and a remote answer in an engine game."""
    driver = Driver.started(play_settings())
    assert driver.send(EngineMoved("3c3d"), 1.0) == [] and driver.state.phase is Phase.WAIT_HUMAN
    driver.send(BoardMoveSeen(("7g7f",)), 2.0)
    assert driver.send(RemoteMoved("3c3d"), 3.0) == [] and driver.state.phase is Phase.ENGINE_THINKING


def test_remote_opponent_answers_with_remote_moved() -> None:
    """It should take a remote player's move like an engine's, recorded as remote."""
    driver = Driver.started(play_settings(opponent=OpponentKind.REMOTE))
    driver.send(BoardMoveSeen(("7g7f",)), 2.0)
    commands = driver.send(RemoteMoved("3c3d"), 3.0)
    entry = of_type(commands, SaveJournal)[0].entry
    assert isinstance(entry, MoveEntry) and entry.source is MoveSource.REMOTE


def test_new_game_aborts_and_resets() -> None:
    """It should journal an abort, wait for the start position, and begin a new journal when it is there."""
    driver = _engine_to_move()
    commands = driver.send(NewGame(), 5.0)
    assert kinds(commands)[:3] == ["StopEngine", "StopClock", "SaveJournal"]
    assert driver.state.phase is Phase.RESET and driver.state.usi_moves == ()
    commands = driver.send(BoardConfirmed(), 10.0)
    assert of_type(commands, StartJournal) and driver.state.phase is Phase.WAIT_HUMAN


def test_abort_before_play_journals_nothing() -> None:
    """It should end a game that never started without a journal entry."""
    state, _ = initial(play_settings())
    state, commands = step(state, Abort("operator"), 0.0)
    assert state.phase is Phase.GAME_OVER and kinds(commands) == ["EndGame", "Announce"]


def test_resumed_game_checks_the_board_then_continues() -> None:
    """It should expect the journal's position, start no new journal, and give the turn to the side to move."""
    moves = [PlayedMove("7g7f", 3.0, MoveSource.HUMAN), PlayedMove("3c3d", 2.0, MoveSource.ENGINE)]
    from controller.game.clock import GameClock

    state, commands = resumed(play_settings(), moves, GameClock.new(ClockConfig(main_s=300, byoyomi_s=10)))
    assert state.phase is Phase.SETUP_CHECK and "3c3d" in of_type(commands, Announce)[0].text
    state, commands = step(state, BoardConfirmed(), 100.0)
    assert state.phase is Phase.WAIT_HUMAN and not of_type(commands, StartJournal) and StartClock(B) in commands


def test_repetition_is_a_draw() -> None:
    """It should rule the fourth occurrence of a position without perpetual check a draw."""
    driver = Driver.started(record_settings())
    shuffle = ["5i5h", "5a5b", "5h5i", "5b5a"] * 3
    for t, usi in enumerate(shuffle, start=1):
        driver.send(BoardMoveSeen((usi,)), float(t))
    result = driver.state.result
    assert driver.state.phase is Phase.GAME_OVER and result is not None
    assert (result.termination, result.winner, len(driver.state.moves)) == (Termination.REPETITION, None, 12)
