"""`bench vision`'s read after a move: what a game's reader costs once it has read the board before.

A game's reader sees the same board frame after frame; after a move it classifies only the squares whose picture
changed (`vision.square_memo`). Here: a random position of a real game rendered in a held-out style, read (grid
found, every square classified) and read again on still frames until every doubted square has had its looks
(`square_memo.LOOKS` reads in all, each picture with fresh sensor noise: a game reads a position several times a
second, so a move finds it so), then the position after the game's next move under the same camera, each piece
that did not move exactly where it was, with fresh sensor noise: that second read is timed, and the number of
squares it classified counted, and its labels scored against the truth. Then the same position taken twice more
(a still board, as most of a game's frames are): the second of those is timed too, when every square and each
stand (`vision.stand_memo`: a count is kept once two reads agree) is known from before. Both stands are in the
picture, as the game's camera sees them (figures before 2026-11-26 were taken with the stands wherever the pose
put them, often out of view). Each picture (the render with fresh sensor noise, `controller.sim.camera.vary`) is
made before its read's clocks start (`timed_read`): until 2026-11-28 the noise, about 30 ms a frame, was timed as
part of both reads. Until 2026-11-29 the position was read once before the move, so the read after it also gave
every doubted square of the position its second look, each with its shifted cuts: the figure was that of a move
made on the frame after the position first appeared, not a game's. On 20 positions of the held-out styles, the
same positions and pictures both ways (2026-11-29, two runs): squares classified after the move, median 24.5 ->
6; CPU median 100-105 -> 50-55 ms; boards right 10 -> 11 of 20.
"""

from __future__ import annotations

import dataclasses
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import cshogi
import numpy as np

from controller.reconcile.labels import square_index
from controller.rules.sfen import parse_usi


@dataclass(frozen=True)
class MoveReadFigures:
    """Medians over the samples: wall and CPU milliseconds of the read after the move, squares classified; CPU
    milliseconds of a still frame's read, and the stands counted at it (not taken from memory) in all."""

    wall_ms: float
    cpu_ms: float
    reread: float
    samples: int
    right: int
    still_cpu_ms: float = float("nan")
    still_stands_counted: int = 0


def time_reads_after_moves(
    classifier: Any, games: list[list[str]], styles: list[str], size: tuple[int, int], *, rng: Any, n: int = 20
) -> MoveReadFigures:
    """Read `n` positions, then each position after its game's next move (see the module)."""
    from controller.sim.camera import vary
    from vision.orientation import sente_direction
    from vision.reader import BoardReader, ReaderSettings
    from vision.render import RenderOptions, render_scene
    from vision.render.scene import scene_from_sfen
    from vision.square_memo import LOOKS

    walls, cpus, rereads, right, stills, counted = [], [], [], 0, [], 0
    for i in range(n):
        sfen, usi = _position_and_move(games, rng)
        options = RenderOptions(style=styles[i % len(styles)], seed=7000 + i, size=size, stands_in_view=True)
        scene = scene_from_sfen(sfen, np.random.default_rng(i))
        before = render_scene(scene, options)
        after_scene = _after(scene, sfen, usi)
        after = render_scene(after_scene, dataclasses.replace(options, pose=before.pose))
        reader = BoardReader(classifier, ReaderSettings(sente_side=sente_direction(before.board_corners_px)))
        if not reader.read(vary(before.image, rng)).board_found:
            continue
        still = np.random.default_rng([7000 + i, 1])  # their own noise: the positions and pictures drawn as before
        for _ in range(LOOKS - 1):  # still frames: each doubted square has its looks
            reader.read(vary(before.image, still))
        result, wall, cpu = timed_read(reader, vary(after.image, rng))
        walls.append(wall)
        cpus.append(cpu)
        rereads.append(reader.reread)
        right += result.labels == list(after.labels)
        reader.read(vary(after.image, rng))
        stands_before = reader.stands_counted or 0
        _, _, cpu = timed_read(reader, vary(after.image, rng))
        stills.append(cpu)
        counted += (reader.stands_counted or 0) - stands_before
    if not walls:
        return MoveReadFigures(float("nan"), float("nan"), float("nan"), 0, 0)
    return MoveReadFigures(
        statistics.median(walls), statistics.median(cpus), statistics.median(rereads), len(walls), right,
        statistics.median(stills), counted,
    )  # fmt: skip


def timed_read(
    reader: Any,
    image: Any,
    clocks: tuple[Callable[[], float], Callable[[], float]] = (time.perf_counter, time.thread_time),
) -> tuple[Any, float, float]:
    """`reader.read(image)` with its wall and CPU milliseconds (`clocks`: wall, CPU; seconds). The picture is made
    before the clocks start: figures before 2026-11-28 also timed the simulated camera's noise on it (`vary`,
    about 30 ms a 960x720 frame), which is not the reader's work."""
    wall_clock, cpu_clock = clocks
    begin, cpu = wall_clock(), cpu_clock()
    result = reader.read(image)
    return result, (wall_clock() - begin) * 1000, (cpu_clock() - cpu) * 1000


def _position_and_move(games: list[list[str]], rng: Any) -> tuple[str, str]:
    """A random position of a random game and the move the game played next."""
    moves = games[int(rng.integers(len(games)))]
    board = cshogi.Board()
    ply = int(rng.integers(0, len(moves)))
    for move in moves[:ply]:
        board.push_usi(move)
    return str(board.sfen()), moves[ply]


def _after(scene: Any, sfen: str, usi: str) -> Any:
    """The scene after the move: the moving piece keeps its offset and turn, a captured piece leaves, a dropped
    piece sits in the middle of its square; hands as the rules say."""
    from vision.render.scene import PlacedPiece, parse_sfen

    board = cshogi.Board(sfen)
    board.push_usi(usi)
    labels, hands = parse_sfen(str(board.sfen()))
    parsed = parse_usi(usi)
    if parsed is None:
        raise ValueError(f"not a USI move: {usi!r}")
    source, target, _, _ = parsed
    to = square_index(target)
    pieces = [p for p in scene.pieces if p.square != to]
    if source is None:
        pieces.append(PlacedPiece(labels[to], to))
    else:
        start = square_index(source)
        pieces = [dataclasses.replace(p, square=to, label=labels[to]) if p.square == start else p for p in pieces]
    return dataclasses.replace(scene, pieces=tuple(pieces), hands=hands)
