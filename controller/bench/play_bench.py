"""The simulated play mode for `bench game --play N`: whole games against the engine on the virtual board, with
the real reader, reconciler, engine, planner and serial link, piece styles the classifier never saw.

Owns: running those games and the figures the issue asks of play mode: games completed (ended by the rules, not
by a cap, a stall or an error), robot moves confirmed by the camera on the first try, transfers, prompts, and the
virtual board matching the record at the end.
"""

from __future__ import annotations

import tempfile
import time
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class PlayFigures:
    """One simulated play game."""

    seed: int
    style: str
    plies: int
    ending: str
    completed: bool
    robot_moves: int
    first_try: int
    transfers: int
    prompts: int
    board_matches: bool
    wall_s: float


def play_game(seed: int, style: str, max_plies: int = 256) -> PlayFigures:
    """Play one simulated game to its end (or the cap) and measure it."""
    from controller.game.settings import Mode
    from controller.rules.types import Termination
    from controller.runner.options import SessionOptions
    from controller.runner.session import run_session

    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="bench-play-") as out:
        options = SessionOptions(
            Mode.PLAY, sim=True, seed=seed, style=style, out=Path(out), name="play", max_plies=max_plies,
            board_every=0, stall_s=120,
        )  # fmt: skip
        result = run_session(options, say=lambda _text: None)
    state, report = result.report.state, result.report
    ending = "not finished"
    if state.result is not None:
        detail = f" ({state.result.detail})" if state.result.detail else ""
        ending = state.result.termination.value + detail
    completed = state.result is not None and state.result.termination is not Termination.ABORT
    return PlayFigures(
        seed, style, len(state.moves), ending, completed, report.robot_moves, report.robot_first_try,
        result.transfers, len(report.prompts), bool(result.board_matches), time.perf_counter() - started,
    )  # fmt: skip


def figure_lines(games: list[PlayFigures]) -> list[str]:
    """Per game, then in total."""
    return [game_line(i + 1, g) for i, g in enumerate(games)] + [total_line(games)]


def game_line(number: int, g: PlayFigures) -> str:
    """One game's figures."""
    return (
        f"play {number} (seed {g.seed}, {g.style}): {g.plies} plies, {g.ending}; robot moves confirmed first try "
        f"{g.first_try}/{g.robot_moves}; {g.transfers} transfers; {g.prompts} prompts; board matches record: "
        f"{'yes' if g.board_matches else 'NO'}; {g.wall_s:.0f} s"
    )


def total_line(games: list[PlayFigures]) -> str:
    """The games' figures in total."""
    robot = sum(g.robot_moves for g in games)
    first = sum(g.first_try for g in games)
    return (
        f"# play mode: games completed {sum(g.completed for g in games)}/{len(games)}; robot moves confirmed by the "
        f"camera on the first try {first}/{robot} ({100 * first / robot if robot else 0:.1f} %); prompts "
        f"{sum(g.prompts for g in games)}; boards matching their record {sum(g.board_matches for g in games)}"
        f"/{len(games)}"
    )
