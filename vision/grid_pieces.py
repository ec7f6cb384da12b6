"""A grid found one line off, told by the pieces it leaves outside: a board's pieces all stand inside its outer grid
lines (the stands lie farther out, beyond the board's rim), so a row of pieces read just beyond one outer line,
and none beyond the opposite one, says the grid belongs one line further that way.

The lines alone cannot always tell (`vision.board`): at a steep view a far rank of tall, dark pieces hides the
outer line behind it and looks like the board's edge, while the board's real edge on the near side looks like a
line. Development frame 37 of `dev_eval --family artwork --n 40 --seed 4914` (kanji_red_wood, 39 degrees) was
found one rank off so, 64 squares read wrong and 53 of them vouched for; its wrong grid left 9 pieces read at 0.9
or more in the row beyond it, the true grid none. Beyond the true grids of 450 development frames (`grid_eval`
steep views of artwork and `one`, and start positions of artwork; 150 each) no piece was read at 0.9 or more.
The reader asks this once per grid found from scratch (`BoardReader`; a grid only checked on later frames is not
asked again). Cost: one rectification of the board with a square more on every side, and 36 crops through the
classifier (`bench vision`'s first read; on the real photo about 20 ms of CPU, one core here, where rectifying
the board once for each of the four moved grids had cost 40 ms).

Owns: `pieces_beyond`, `moved_towards_pieces`, `beyond_squares`, `crop_at`, `BEYOND_PIECES`, `BEYOND_SURE`.
"""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.board import BoardGeometry, Image, confirm_grid
from vision.classifier import PieceClassifier
from vision.labels import EMPTY_INDEX
from vision.line_support import GRID_CORNERS
from vision.squares import CELL, CROP, rectified_board

BEYOND_PIECES = 3
"""Pieces read beyond one outer line (and none beyond the opposite one) that move the grid one line that way."""
BEYOND_SURE = 0.9
"""Top probability from which a crop beyond the grid counts as a piece."""
MOVES: tuple[tuple[int, int], ...] = ((0, -1), (0, 1), (-1, 0), (1, 0))
"""The one-line moves, in grid units (x along the files' order 9 -> 1, y along the ranks a -> i): the row beyond
ranks a, the row beyond ranks i, the column beyond file 9, the column beyond file 1."""


def beyond_squares(move: tuple[int, int]) -> list[tuple[int, int]]:
    """(row, column) in grid squares (rank a row 0, file 9 column 0) of the nine squares just beyond the grid in
    the direction of a move: row -1 or 9, or column -1 or 9."""
    dx, dy = move
    if dy:
        return [(-1 if dy < 0 else 9, col) for col in range(9)]
    return [(row, -1 if dx < 0 else 9) for row in range(9)]


def moved_grid(geometry: BoardGeometry, move: tuple[int, int]) -> NDArray[np.float64]:
    """The grid's corners moved by one line (`move`, in grid units)."""
    homography = cv2.getPerspectiveTransform(GRID_CORNERS.astype(np.float32), geometry.corners.astype(np.float32))
    shifted = (GRID_CORNERS + np.asarray(move, dtype=np.float64)).reshape(-1, 1, 2)
    return np.asarray(cv2.perspectiveTransform(shifted, homography).reshape(4, 2), dtype=np.float64)


def pieces_beyond(image: Image, geometry: BoardGeometry, classifier: PieceClassifier) -> dict[tuple[int, int], int]:
    """Per one-line move, the pieces read (a piece label at `BEYOND_SURE` or more) in the row just beyond the grid
    that way."""
    board = rectified_board(image, geometry, beyond=1)
    crops = np.stack([crop_at(board, row, col) for move in MOVES for row, col in beyond_squares(move)])
    probs = classifier.predict(crops, features=False, skip_sure_empty=True).probs  # generic: no set
    piece = (probs.argmax(axis=1) != EMPTY_INDEX) & (probs.max(axis=1) >= BEYOND_SURE)
    return {move: int(piece[9 * n : 9 * n + 9].sum()) for n, move in enumerate(MOVES)}


def crop_at(board: Image, row: int, col: int) -> Image:
    """The crop of grid square (row, col), -1 to 9 each, from a board rectified with one square beyond
    (`vision.squares.rectified_board`), cut as `vision.squares.square_crops` cuts the board's own squares."""
    x0, y0 = round((col + 1) * CELL), round((row + 1) * CELL)
    return board[y0 : y0 + CROP, x0 : x0 + CROP]


def moved_towards_pieces(image: Image, geometry: BoardGeometry, classifier: PieceClassifier) -> BoardGeometry:
    """The grid moved one line towards a row of pieces read beyond it (at least `BEYOND_PIECES`, none beyond the
    opposite line), if the picture supports the moved grid as a board (`vision.board.confirm_grid`); else the
    grid as it is."""
    counts = pieces_beyond(image, geometry, classifier)
    for move in MOVES:
        opposite = (-move[0], -move[1])
        if counts[move] >= BEYOND_PIECES and counts[opposite] == 0:
            moved = confirm_grid(image, moved_grid(geometry, move))
            if moved is not None:
                return moved
    return geometry
