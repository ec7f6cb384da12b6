"""The state machine's transitions as a table: (phase reached by a script, event) -> (next phase, commands)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from game_machine_helpers import Driver, kinds, play_settings, record_settings

from controller.game.events import (
    AmbiguousSeen,
    BoardConfirmed,
    BoardMoveSeen,
    Button,
    ButtonPressed,
    EngineMoved,
    Event,
    MismatchSeen,
    NewGame,
    PromptAnswered,
    Resign,
    TakebackSeen,
    Tick,
    TransferDone,
    TransferFailed,
)
from controller.game.machine import initial
from controller.game.state import Phase
from controller.rules.types import Color


def _setup() -> Driver:
    state, commands = initial(play_settings())
    return Driver(state, list(commands))


def _wait_human() -> Driver:
    return Driver.started(play_settings())


def _thinking() -> Driver:
    d = _wait_human()
    d.send(BoardMoveSeen(("7g7f",)), 2.0)
    return d


def _robot() -> Driver:
    d = _thinking()
    d.send(EngineMoved("3c3d"), 3.0)
    return d


def _robot_done() -> Driver:
    d = _robot()
    d.send(TransferDone(), 4.0)
    return d


def _assist() -> Driver:
    d = Driver.started(play_settings(gantry=False))
    d.run([(2.0, BoardMoveSeen(("7g7f",))), (3.0, EngineMoved("3c3d"))])
    return d


def _prompt() -> Driver:
    d = _wait_human()
    d.send(AmbiguousSeen((("7g7f",), ("6g6f",))), 2.0)
    return d


def _mismatch() -> Driver:
    d = _wait_human()
    d.send(MismatchSeen(("square 5e should be empty",)), 2.0)
    return d


def _thinking_mismatch() -> Driver:
    d = _thinking()
    d.send(MismatchSeen(("square 2g should hold a pawn",)), 3.0)
    return d


def _over() -> Driver:
    d = _wait_human()
    d.send(Resign(Color.BLACK), 2.0)
    return d


def _record() -> Driver:
    return Driver.started(record_settings())


Setup = Callable[[], Driver]
TABLE: list[tuple[str, Setup, Event, Phase, list[str]]] = [
    ("setup: board right", _setup, BoardConfirmed(), Phase.WAIT_HUMAN, ["StartJournal", "Announce", "StartClock"]),
    ("setup: board wrong", _setup, MismatchSeen(("x",)), Phase.SETUP_CHECK, ["Announce"]),
    ("setup: a move is not play", _setup, BoardMoveSeen(("7g7f",)), Phase.SETUP_CHECK, ["Announce", "ExpectPosition"]),
    ("setup: resign before play", _setup, Resign(Color.BLACK), Phase.SETUP_CHECK, []),
    (
        "human: move",
        _wait_human,
        BoardMoveSeen(("7g7f",)),
        Phase.ENGINE_THINKING,
        ["SaveJournal", "StopClock", "StartClock", "AskEngine"],
    ),
    ("human: board wrong", _wait_human, MismatchSeen(("x",)), Phase.MISMATCH, ["Announce"]),
    ("human: ambiguous", _wait_human, AmbiguousSeen((("7g7f",), ("6g6f",))), Phase.PROMPT, ["Prompt"]),
    (
        "human: one candidate",
        _wait_human,
        AmbiguousSeen((("7g7f",),)),
        Phase.ENGINE_THINKING,
        ["SaveJournal", "StopClock", "StartClock", "AskEngine", "ExpectPosition"],
    ),
    ("human: takeback of nothing", _wait_human, TakebackSeen(1), Phase.WAIT_HUMAN, ["Announce"]),
    ("human: move-done button", _wait_human, ButtonPressed(Button.MOVE_DONE), Phase.WAIT_HUMAN, ["ReadBoard"]),
    ("human: stray transfer report", _wait_human, TransferDone(), Phase.WAIT_HUMAN, []),
    ("human: illegal move read", _wait_human, BoardMoveSeen(("7g7e",)), Phase.MISMATCH, ["Announce", "ExpectPosition"]),
    (
        "human: resign",
        _wait_human,
        Resign(Color.BLACK),
        Phase.GAME_OVER,
        ["StopClock", "SaveJournal", "EndGame", "Announce"],
    ),
    (
        "thinking: engine move",
        _thinking,
        EngineMoved("3c3d"),
        Phase.ROBOT_MOVING,
        ["SaveJournal", "StopClock", "Announce", "ExpectMove", "ExecuteMove"],
    ),
    (
        "thinking: human touches board",
        _thinking,
        BoardMoveSeen(("2g2f",)),
        Phase.MISMATCH,
        ["Announce", "ExpectPosition"],
    ),
    ("thinking: tick in time", _thinking, Tick(), Phase.ENGINE_THINKING, []),
    (
        "thinking: new game",
        _thinking,
        NewGame(),
        Phase.RESET,
        ["StopEngine", "StopClock", "SaveJournal", "EndGame", "Announce", "ExpectPosition", "Announce"],
    ),
    ("robot: camera before done", _robot, BoardConfirmed(), Phase.ROBOT_MOVING, []),
    ("robot: board wrong while moving", _robot, MismatchSeen(("x",)), Phase.ROBOT_MOVING, []),
    ("robot: done", _robot, TransferDone(), Phase.ROBOT_MOVING, []),
    (
        "robot: failed once",
        _robot,
        TransferFailed("alarm"),
        Phase.ROBOT_MOVING,
        ["Announce", "ExecuteMove"],
    ),
    ("robot: no change is not a confirmation", _robot_done, BoardConfirmed(), Phase.ROBOT_MOVING, []),
    ("robot: move seen before done", _robot, BoardMoveSeen(("3c3d",)), Phase.WAIT_HUMAN, ["StartClock"]),
    ("robot: move seen", _robot_done, BoardMoveSeen(("3c3d",)), Phase.WAIT_HUMAN, ["StartClock"]),
    ("robot: wrong after done", _robot_done, MismatchSeen(("x",)), Phase.ASSIST_WAIT, ["Announce", "Announce"]),
    ("assist: right move", _assist, BoardMoveSeen(("3c3d",)), Phase.WAIT_HUMAN, ["StartClock"]),
    (
        "assist: wrong move",
        _assist,
        BoardMoveSeen(("8c8d",)),
        Phase.ASSIST_WAIT,
        ["Announce", "ExpectPosition", "ExpectMove"],
    ),
    (
        "assist: ambiguous with the move",
        _assist,
        AmbiguousSeen((("3c3d",), ("4c4d",))),
        Phase.WAIT_HUMAN,
        ["StartClock", "ExpectPosition"],
    ),
    ("assist: board wrong", _assist, MismatchSeen(("x",)), Phase.ASSIST_WAIT, ["Announce"]),
    (
        "prompt: answer",
        _prompt,
        PromptAnswered("7g7f"),
        Phase.ENGINE_THINKING,
        ["SaveJournal", "StopClock", "StartClock", "AskEngine", "ExpectPosition"],
    ),
    (
        "prompt: NO picks the second",
        _prompt,
        ButtonPressed(Button.NO),
        Phase.ENGINE_THINKING,
        ["SaveJournal", "StopClock", "StartClock", "AskEngine", "ExpectPosition"],
    ),
    ("prompt: other board move resyncs", _prompt, BoardMoveSeen(("2g2f",)), Phase.PROMPT, ["ExpectPosition"]),
    (
        "prompt: board settles on a candidate",
        _prompt,
        BoardMoveSeen(("6g6f",)),
        Phase.ENGINE_THINKING,
        ["SaveJournal", "StopClock", "StartClock", "AskEngine"],
    ),
    (
        "mismatch: refused move resyncs",
        _thinking_mismatch,
        BoardMoveSeen(("2g2f",)),
        Phase.MISMATCH,
        ["ExpectPosition"],
    ),
    ("mismatch: fixed", _mismatch, BoardConfirmed(), Phase.WAIT_HUMAN, ["Announce"]),
    ("mismatch: same message", _mismatch, MismatchSeen(("square 5e should be empty",)), Phase.MISMATCH, []),
    ("mismatch: new message", _mismatch, MismatchSeen(("square 4e should be empty",)), Phase.MISMATCH, ["Announce"]),
    (
        "mismatch: move made on a fixed board",
        _mismatch,
        BoardMoveSeen(("7g7f",)),
        Phase.ENGINE_THINKING,
        ["SaveJournal", "StopClock", "StartClock", "AskEngine"],
    ),
    ("over: events ignored", _over, BoardMoveSeen(("7g7f",)), Phase.GAME_OVER, []),
    ("over: tick", _over, Tick(), Phase.GAME_OVER, []),
    ("over: new game", _over, NewGame(), Phase.RESET, ["ExpectPosition", "Announce"]),
    ("record: move", _record, BoardMoveSeen(("7g7f",)), Phase.WAIT_HUMAN, ["SaveJournal", "StopClock", "StartClock"]),
    ("record: takeback", _record, TakebackSeen(1), Phase.WAIT_HUMAN, ["Announce"]),
]


@pytest.mark.parametrize(("name", "setup", "event", "phase", "commands"), TABLE, ids=[row[0] for row in TABLE])
def test_transition(name: str, setup: Setup, event: Event, phase: Phase, commands: list[str]) -> None:
    """It should reach the tabled phase with the tabled commands, in order."""
    driver = setup()
    got = driver.send(event, 10.0)
    assert (driver.state.phase, kinds(got)) == (phase, commands), name
