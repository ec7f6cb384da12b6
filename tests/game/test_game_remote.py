"""The state machine against a remote opponent: the server's moves, clocks and verdicts rule; the local clock
never flags; a takeback on the board is refused (the servers have none). And a takeback asked on the web page."""

from __future__ import annotations

from game_machine_helpers import Driver, play_settings, record_settings

from controller.game.commands import AskEngine, EndGame, ExecuteMove, ExpectPosition
from controller.game.events import (
    BoardMoveSeen,
    EngineMoved,
    RemoteEnded,
    RemoteMoved,
    ServerClocks,
    TakebackAsked,
    TakebackSeen,
    Tick,
)
from controller.game.settings import OpponentKind
from controller.game.state import Phase
from controller.rules.types import Color, GameResult, Termination

REMOTE = play_settings(opponent=OpponentKind.REMOTE)


def test_the_remote_move_is_asked_for_and_played_by_the_gantry() -> None:
    """After the human's move the remote side is asked (with the moves so far); its answer goes to the gantry."""
    driver = Driver.started(REMOTE)
    commands = driver.send(BoardMoveSeen(("7g7f",)), 1.0)
    assert [c.moves for c in commands if isinstance(c, AskEngine)] == [("7g7f",)]
    commands = driver.send(RemoteMoved("3c3d"), 2.0)
    assert [c.usi for c in commands if isinstance(c, ExecuteMove)] == ["3c3d"]
    assert driver.state.phase is Phase.ROBOT_MOVING


def test_the_servers_verdict_ends_the_game() -> None:
    """`RemoteEnded` (a time-up on the server, say) ends the game with the server's result, in any phase."""
    driver = Driver.started(REMOTE)
    driver.send(BoardMoveSeen(("7g7f",)), 1.0)
    verdict = GameResult(Termination.TIMEOUT, Color.BLACK, "#TIME_UP")
    commands = driver.send(RemoteEnded(verdict), 2.0)
    assert driver.state.phase is Phase.GAME_OVER and driver.state.result == verdict
    assert [c.result for c in commands if isinstance(c, EndGame)] == [verdict]


def test_the_local_clock_does_not_flag_against_a_remote_opponent() -> None:
    """Long past the local main time and byoyomi, a tick does not end the game: the server judges time."""
    driver = Driver.started(REMOTE)
    driver.send(Tick(), 10_000.0)
    assert driver.state.phase is Phase.WAIT_HUMAN
    driver.send(BoardMoveSeen(("7g7f",)), 10_001.0)
    assert [m.usi for m in driver.state.moves] == ["7g7f"]


def test_against_an_engine_the_local_clock_still_flags() -> None:
    """The same tick against an engine ends the game on time (the remote rule is only for remote games)."""
    driver = Driver.started(play_settings())
    driver.send(Tick(), 10_000.0)
    assert driver.state.result is not None and driver.state.result.termination is Termination.TIMEOUT


def test_server_clocks_are_adopted() -> None:
    """`ServerClocks` sets both sides' main time left; the running clock keeps running."""
    driver = Driver.started(REMOTE)
    driver.send(ServerClocks(123.0, 45.0), 1.0)
    clock = driver.state.clock
    assert (clock.black.main_s, clock.white.main_s) == (123.0, 45.0)
    assert clock.running is Color.BLACK


def test_a_takeback_on_the_board_is_refused_with_a_reason() -> None:
    """A takeback seen on the board is not applied: the game stays, and the player is told to put it back."""
    driver = Driver.started(REMOTE)
    driver.send(BoardMoveSeen(("7g7f",)), 1.0)
    driver.send(TakebackSeen(1), 2.0)
    assert [m.usi for m in driver.state.moves] == ["7g7f"]
    assert driver.state.phase is Phase.MISMATCH
    assert "no takeback" in " ".join(driver.state.messages)


def test_a_takeback_asked_on_the_page_undoes_the_players_move_and_the_reply() -> None:
    """Against an engine, the human's takeback request removes their move and the engine's answer; the board must
    then be set back (the reconciler is told to expect the earlier position)."""
    driver = Driver.started(play_settings())
    driver.send(BoardMoveSeen(("7g7f",)), 1.0)
    driver.send(EngineMoved("3c3d"), 2.0)
    driver.send(BoardMoveSeen(("3c3d",)), 3.0)
    assert driver.state.phase is Phase.WAIT_HUMAN
    commands = driver.send(TakebackAsked(Color.BLACK), 4.0)
    assert driver.state.moves == () and driver.state.phase is Phase.WAIT_HUMAN
    assert any(isinstance(c, ExpectPosition) and c.moves == () for c in commands)


def test_a_takeback_asked_in_record_mode_undoes_the_last_move() -> None:
    """Two humans: the last move is taken back, whoever made it."""
    driver = Driver.started(record_settings())
    driver.send(BoardMoveSeen(("7g7f", "3c3d")), 1.0)
    driver.send(TakebackAsked(Color.BLACK), 2.0)
    assert [m.usi for m in driver.state.moves] == ["7g7f"]


def test_a_takeback_asked_against_a_remote_player_is_refused() -> None:
    """The servers have no takeback: the request changes nothing and says why."""
    driver = Driver.started(REMOTE)
    driver.send(BoardMoveSeen(("7g7f",)), 1.0)
    driver.send(TakebackAsked(Color.BLACK), 2.0)
    assert [m.usi for m in driver.state.moves] == ["7g7f"]
    assert "no takeback" in " ".join(driver.state.messages)
