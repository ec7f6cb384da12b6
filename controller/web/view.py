"""The view model the page shows: a frozen snapshot of the game as the controller knows it, and its JSON form."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import cshogi

from controller.records.ki2 import ki2_move_text
from controller.records.tracker import Tracker
from controller.rules.positions import STARTPOS_SFEN
from controller.rules.types import Color
from controller.web.svg import board_svg


@dataclass(frozen=True)
class ClockView:
    """Both clocks in milliseconds, and whose is running (`b`, `w` or None)."""

    sente_ms: int
    gote_ms: int
    byoyomi_ms: int = 0
    running: str | None = None


@dataclass(frozen=True)
class PromptView:
    """A question for the player, with the answers the page offers as buttons.

    Attributes:
        typed: the page also offers a field for the move(s) played (a move question's way out: none of the
            options was the move).
    """

    prompt_id: str
    question: str
    options: tuple[str, ...]
    typed: bool = False


@dataclass(frozen=True)
class CameraView:
    """The latest camera frame's overlay: frame size and polygons (grid outline, squares in doubt) in pixels."""

    frame_version: int
    width: int
    height: int
    grid: tuple[tuple[float, float], ...] = ()
    doubtful: tuple[tuple[tuple[float, float], ...], ...] = ()


@dataclass(frozen=True)
class GameView:
    """Everything the page shows.

    Attributes:
        mode: `idle`, `play`, `record`, `remote` or `replay`.
        start_sfen: the starting position.
        moves: the moves so far (USI).
        status: one sentence on what is going on ("sente to move", "engine thinking").
        clocks, evaluation, prompt, camera: shown when present.
        doubtful: squares (USI names) the reader is unsure about.
        result: the result sentence once the game is over.
        names: player names per side (`b`, `w`).
        notice: the last thing the game said (what is wrong with the board, what to do next), empty for none.
    """

    mode: str = "idle"
    start_sfen: str = STARTPOS_SFEN
    moves: tuple[str, ...] = ()
    status: str = ""
    clocks: ClockView | None = None
    evaluation: str | None = None
    prompt: PromptView | None = None
    camera: CameraView | None = None
    doubtful: frozenset[str] = frozenset()
    result: str | None = None
    names: dict[str, str] = field(default_factory=dict)
    notice: str = ""


def japanese_moves(start_sfen: str, moves: tuple[str, ...]) -> list[str]:
    """The moves in Japanese notation (`▲７六歩`, `△同　銀`)."""
    tracker = Tracker(start_sfen)
    out = []
    for usi in moves:
        mark = "▲" if tracker.turn is Color.BLACK else "△"
        out.append(mark + ki2_move_text(tracker.facts(usi), tracker))
        tracker.play(usi)
    return out


def view_json(view: GameView, version: int) -> dict[str, Any]:
    """The JSON the page receives (includes the SVG diagram)."""
    board = cshogi.Board(view.start_sfen)
    for usi in view.moves:
        board.push_usi(usi)
    sfen = board.sfen()
    last = view.moves[-1] if view.moves else None
    return {
        "version": version,
        "mode": view.mode,
        "sfen": sfen,
        "turn": "b" if board.turn == cshogi.BLACK else "w",
        "moves": [
            {"ply": i + 1, "usi": usi, "ja": ja}
            for i, (usi, ja) in enumerate(zip(view.moves, japanese_moves(view.start_sfen, view.moves), strict=True))
        ],
        "svg": board_svg(sfen, last, view.doubtful),
        "status": view.status,
        "clocks": None if view.clocks is None else view.clocks.__dict__,
        "evaluation": view.evaluation,
        "prompt": None if view.prompt is None else _prompt_json(view.prompt),
        "camera": None if view.camera is None else _camera_json(view.camera),
        "result": view.result,
        "names": view.names,
        "notice": view.notice,
    }


def _prompt_json(prompt: PromptView) -> dict[str, Any]:
    return {"id": prompt.prompt_id, "question": prompt.question, "options": list(prompt.options), "typed": prompt.typed}


def _camera_json(camera: CameraView) -> dict[str, Any]:
    return {
        "version": camera.frame_version,
        "width": camera.width,
        "height": camera.height,
        "grid": [list(p) for p in camera.grid],
        "doubtful": [[list(p) for p in poly] for poly in camera.doubtful],
    }
