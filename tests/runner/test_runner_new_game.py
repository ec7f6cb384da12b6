"""A new game from the web page: the form's fields become the next game's settings (or a sentence saying what is
wrong), and a serving session plays game after game, each with its own journal and records."""

from __future__ import annotations

from pathlib import Path

import pytest
from runner_world import build, play_settings, record_settings

from controller.game.events import NewGame, Resign
from controller.game.journal import resume
from controller.game.settings import GameSettings, Mode, OpponentKind
from controller.game.state import GameState, Phase
from controller.planning.state import PhysicalState
from controller.rules.positions import HANDICAPS, STARTPOS_SFEN
from controller.rules.types import Color, Termination
from controller.runner.new_game import NewGameError, new_game_choice


def test_the_form_becomes_the_next_games_settings() -> None:
    """Play, engine on sente, 5 min + 30 s byoyomi, bishop handicap, gpsusi."""
    form = {"mode": "play", "engine": "gpsusi", "engine_side": "b", "time_control": "5+0+30", "handicap": "bishop"}
    choice = new_game_choice(play_settings(), form, has_gantry=True)
    s = choice.settings
    assert (s.mode, s.opponent_side, s.gantry, choice.engine) == (Mode.PLAY, Color.BLACK, True, "gpsusi")
    assert (s.clock.main_s, s.clock.byoyomi_s, s.clock.increment_s) == (300.0, 30.0, 0.0)
    assert s.start_sfen == HANDICAPS["bishop"].sfen


def test_record_mode_has_no_opponent_and_no_gantry() -> None:
    """Switching to record mode: two humans, nothing moved by the arm."""
    choice = new_game_choice(play_settings(), {"mode": "record", "handicap": "even"}, has_gantry=True)
    assert choice.settings.opponent_side is None and not choice.settings.gantry
    assert choice.settings.start_sfen == STARTPOS_SFEN


def test_play_without_a_gantry_is_assist_mode() -> None:
    """A session without a gantry plays the engine's moves by announcing them."""
    choice = new_game_choice(record_settings(), {"mode": "play", "engine_side": "w"}, has_gantry=False)
    assert choice.settings.mode is Mode.PLAY and not choice.settings.gantry


@pytest.mark.parametrize(
    ("form", "words"),
    [
        ({"mode": "blitz"}, "play or record"),
        ({"engine_side": "x"}, "b (sente) or w (gote)"),
        ({"time_control": "ten"}, "minutes+increment+byoyomi"),
        ({"time_control": "10+5+30"}, "not both"),
        ({"handicap": "queen"}, "Unknown handicap"),
    ],
)
def test_a_bad_form_says_what_is_wrong(form: dict[str, str], words: str) -> None:
    """Each bad field gets its own sentence."""
    with pytest.raises(NewGameError, match=words.replace("+", r"\+").replace("(", r"\(").replace(")", r"\)")):
        new_game_choice(play_settings(), form, has_gantry=True)


def test_a_remote_games_next_game_is_set_up_on_the_server() -> None:
    """Against a remote opponent the page cannot start another game."""
    remote = GameSettings(Mode.PLAY, opponent_side=Color.WHITE, opponent=OpponentKind.REMOTE)
    with pytest.raises(NewGameError, match="server"):
        new_game_choice(remote, {}, has_gantry=True)


def test_a_serving_session_plays_the_next_game_in_new_files(tmp_path: Path) -> None:
    """Keep serving: after a resignation the page's new game starts once the board is set up again, and its
    moves go to `game-2.journal`; the first game's files are left as they were."""
    shell, _effects, people, table, _robot = build(
        record_settings(), tmp_path, script=["7g7f", "3c3d"], keep_serving=True
    )
    steps: list[str] = []

    def until(state: GameState) -> bool:
        if not steps and len(state.moves) == 2 and state.phase is Phase.WAIT_HUMAN:
            steps.append("resign")
            shell.post(Resign(Color.BLACK))
        elif steps == ["resign"] and state.phase is Phase.GAME_OVER:
            steps.append("new game")
            table.places = dict(PhysicalState.from_sfen(STARTPOS_SFEN).items())
            people.moves.append("2g2f")
            shell.post(NewGame())
        return steps == ["resign", "new game"] and len(state.moves) == 1 and state.phase is Phase.WAIT_HUMAN

    report = shell.run(until=until)
    assert report.state.usi_moves == ("2g2f",)
    first = resume(tmp_path / "game.journal")
    assert [m.usi for m in first.record.moves] == ["7g7f", "3c3d"]
    assert first.result is not None and first.result.termination is Termination.RESIGN
    assert [m.usi for m in resume(tmp_path / "game-2.journal").record.moves] == ["2g2f"]
    assert (tmp_path / "game-2.kifu").exists()
