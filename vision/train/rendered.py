"""Training crops cut from whole frames of the virtual camera (training only; complements `synth`).

Positions come from random prefixes of real games and, as often, from random placements of a set's pieces with
about half of them promoted (a game position has few promoted pieces); frames from `vision.render` under random
poses (up to 45 degrees of tilt), picture sizes, lighting and sometimes an arm, drawn with training styles only.
The crops are cut exactly as the reader cuts them (`vision.squares`), from the renderer's true grid corners
nudged by a pixel or two as a found grid would be.
Squares the arm touches are labelled "unreadable"; most empty squares are dropped to keep the classes balanced.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from vision.board import BoardGeometry
from vision.labels import EMPTY, HAND_KINDS, SQUARE_LABELS, board_field_from_labels
from vision.squares import crops_from_frame
from vision.train.synth import UNREADABLE

GAMES = Path(__file__).resolve().parents[2] / ".." / "shared" / "data" / "games" / "lishogi-500.usi"
SET: dict[str, int] = {"K": 2, "R": 2, "B": 2, "G": 4, "S": 4, "N": 4, "L": 4, "P": 18}
SIZES: tuple[tuple[int, int], ...] = ((960, 720), (960, 720), (640, 480), (1280, 960), (800, 600))


def random_sfen(games: list[list[str]], rng: np.random.Generator) -> str:
    """The position after a random prefix of a random game."""
    import cshogi

    moves = games[int(rng.integers(len(games)))]
    board = cshogi.Board()
    for move in moves[: int(rng.integers(0, len(moves) + 1))]:
        board.push_usi(move)
    return str(board.sfen())


def random_placement(rng: np.random.Generator) -> str:
    """Some of a set's pieces on random squares, random owners, about half of the promotable ones promoted;
    the rest in hand."""
    pieces = [kind for kind, n in SET.items() for _ in range(n)]
    rng.shuffle(pieces)
    on_board = int(rng.integers(12, len(pieces) + 1))
    labels = [EMPTY] * 81
    hands: dict[str, int] = {}
    for kind, square in zip(pieces[:on_board], rng.permutation(81), strict=False):
        label = "+" + kind if kind not in ("K", "G") and rng.random() < 0.5 else kind
        labels[int(square)] = label if rng.random() < 0.5 else label.lower()
    for kind in pieces[on_board:]:
        if kind != "K":
            side = kind if rng.random() < 0.5 else kind.lower()
            hands[side] = hands.get(side, 0) + 1
    hand = "".join(
        f"{hands[k] if hands[k] > 1 else ''}{k}" for k in (*HAND_KINDS, *map(str.lower, HAND_KINDS)) if k in hands
    )
    return f"{board_field_from_labels(labels)} b {hand or '-'} 1"


def frame_crops(
    seed: int,
    styles: list[str],
    games: list[list[str]],
    keep_empty: float = 0.15,
    *,
    style_dirs: dict[str, Path] | None = None,
    ink_sheen: float = 0.0,
) -> tuple[NDArray[np.uint8], NDArray[np.int64]]:
    """Crops and class indices from one rendered frame; a style named in `style_dirs` is drawn from that
    sprite folder (training styles drawn from fonts), any other is a shipped style; `ink_sheen`: the chance of the
    lamp's reflection on the ink (`RenderOptions.ink_sheen`)."""
    from vision.render import RenderOptions, render_position

    rng = np.random.default_rng(seed)
    style = styles[int(rng.integers(len(styles)))]
    hand = bool(rng.random() < 0.2)
    sfen = random_sfen(games, rng) if rng.random() < 0.5 else random_placement(rng)
    size = SIZES[int(rng.integers(len(SIZES)))]
    folder = (style_dirs or {}).get(style)
    options = RenderOptions(style=style, seed=seed, size=size, hand=hand, style_dir=folder, ink_sheen=ink_sheen)
    frame = render_position(sfen, options)
    corners = np.asarray(frame.board_corners_px, dtype=np.float64) + rng.normal(0, 1.0, (4, 2))
    crops = crops_from_frame(frame.image, BoardGeometry(corners, 1.0))
    keep, targets = [], []
    for i, label in enumerate(frame.labels):
        if i in frame.occluded_squares:
            target = UNREADABLE
        elif label == EMPTY and rng.random() > keep_empty:
            continue
        else:
            target = SQUARE_LABELS.index(label)
        keep.append(i)
        targets.append(target)
    return crops[keep], np.array(targets, dtype=np.int64)


def rendered_dataset(
    seeds: range,
    styles: list[str],
    games_path: Path = GAMES,
    style_dirs: dict[str, Path] | None = None,
    ink_sheen: float = 0.0,
) -> tuple[NDArray[np.uint8], NDArray[np.int64]]:
    """Crops from the frames of several seeds, concatenated."""
    games = [line.split() for line in games_path.read_text().splitlines() if line.strip()]
    parts = [frame_crops(seed, styles, games, style_dirs=style_dirs, ink_sheen=ink_sheen) for seed in seeds]
    return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])
