"""The simulated person of the play and record sessions answers a move question as the one who made the move."""

from __future__ import annotations

import sys
from pathlib import Path

from controller.game.commands import Prompt
from controller.game.events import AmbiguousSeen, Event, PromptAnswered
from controller.game.state import Phase
from controller.rules.types import Color
from controller.runner.sim_scene import RecordHuman, SimScene
from controller.sim import SimulatedHuman, VirtualBoard
from hardware.settings import load_settings

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "game"))
from game_machine_helpers import Driver, of_type, record_settings


def _answer_after(played: str, candidates: tuple[tuple[str, ...], ...]) -> list[Event]:
    """What the person posts when asked about `candidates` after playing `played`."""
    driver = Driver.started(record_settings())
    prompt = of_type(driver.send(AmbiguousSeen(candidates), 5.0), Prompt)[0]
    assert driver.state.phase is Phase.PROMPT
    board = VirtualBoard(load_settings(None).geometry, seed=5)
    posted: list[Event] = []
    scene = SimScene(board, SimulatedHuman(board, seed=5), RecordHuman([played]), (Color.BLACK,), posted.append)
    scene.played.append(played)
    scene.answer(prompt, driver.state)
    return posted


def test_person_picks_the_option_of_the_move_played() -> None:
    """The option that is the move played is chosen."""
    assert _answer_after("6g6f", (("7g7f",), ("6g6f",))) == [PromptAnswered("6g6f")]


def test_person_gives_the_move_when_no_option_is_it() -> None:
    """With no option the move played, the person answers with the move itself (the question's way out)."""
    assert _answer_after("2g2f", (("7g7f",), ("6g6f",))) == [PromptAnswered("2g2f")]
