"""The move question's way out: "another move", answered with the move(s) really played, checked by the referee."""

from __future__ import annotations

from game_machine_helpers import Driver, of_type, play_settings, record_settings

from controller.game.commands import Announce, ExpectPosition, Prompt, SaveJournal
from controller.game.entries import MoveEntry
from controller.game.events import AmbiguousSeen, PromptAnswered
from controller.game.prompts import ANOTHER_MOVE
from controller.game.state import Phase


def _asked(driver: Driver) -> None:
    driver.send(AmbiguousSeen((("7g7f",), ("6g6f",))), 5.0)
    assert driver.state.phase is Phase.PROMPT


def test_move_question_offers_another_move() -> None:
    """It should offer "another move" after the candidates, and choosing it should ask for the move."""
    driver = Driver.started(record_settings())
    commands = driver.send(AmbiguousSeen((("7g7f",), ("6g6f",))), 5.0)
    assert of_type(commands, Prompt)[0].options == ("7g7f", "6g6f", ANOTHER_MOVE)
    commands = driver.send(PromptAnswered(ANOTHER_MOVE), 6.0)
    assert driver.state.phase is Phase.PROMPT and "USI" in of_type(commands, Announce)[0].text


def test_typed_move_not_among_candidates_is_committed() -> None:
    """It should commit and journal a legal move given instead of the candidates, and tell the reconciler."""
    driver = Driver.started(play_settings())
    _asked(driver)
    commands = driver.send(PromptAnswered("2g2f"), 8.0)
    assert driver.state.usi_moves == ("2g2f",) and driver.state.phase is Phase.ENGINE_THINKING
    entry = of_type(commands, SaveJournal)[0].entry
    assert isinstance(entry, MoveEntry) and entry.usi == "2g2f" and entry.spent_s == 5.0
    assert of_type(commands, ExpectPosition)


def test_two_typed_moves_in_record_mode_are_both_recorded() -> None:
    """It should record both moves of a pair given for two moves between reads, in order."""
    driver = Driver.started(record_settings())
    _asked(driver)
    driver.send(PromptAnswered("2g2f 8c8d"), 8.0)
    assert driver.state.usi_moves == ("2g2f", "8c8d") and driver.state.phase is Phase.WAIT_HUMAN


def test_illegal_typed_move_is_refused_with_the_reason() -> None:
    """It should refuse an illegal move with the referee's reason and keep the question open, nothing committed."""
    driver = Driver.started(record_settings())
    _asked(driver)
    commands = driver.send(PromptAnswered("2g2e"), 8.0)
    assert driver.state.phase is Phase.PROMPT and driver.state.usi_moves == ()
    text = of_type(commands, Announce)[0].text
    assert "2g2e" in text and "Please answer one of: 7g7f, 6g6f, another move" in text
    driver.send(PromptAnswered("6g6f"), 9.0)
    assert driver.state.usi_moves == ("6g6f",)


def test_illegal_second_typed_move_commits_nothing() -> None:
    """It should commit neither move when the second of a typed pair is illegal after the first."""
    driver = Driver.started(record_settings())
    _asked(driver)
    driver.send(PromptAnswered("2g2f 2f2e"), 8.0)
    assert driver.state.phase is Phase.PROMPT and driver.state.usi_moves == ()


def test_play_mode_takes_one_typed_move_only() -> None:
    """It should refuse two typed moves against an engine (the second would be the engine's)."""
    driver = Driver.started(play_settings())
    _asked(driver)
    commands = driver.send(PromptAnswered("2g2f 8c8d"), 8.0)
    assert driver.state.phase is Phase.PROMPT and "Only one move" in of_type(commands, Announce)[0].text
