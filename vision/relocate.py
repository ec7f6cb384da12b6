"""Pieces of known squares moved, in the picture, onto empty squares of the same board: calibration examples of
each face away from the squares the start shows it on.

A set learnt from the start position sees each kind only on its start squares: the lances only on the corners,
the knights only beside them on the back ranks. A model fitted on those crops can learn the place with the face
(a corner's frame line and rim with the lance) and then read other pieces on that place as that kind. Pasting
the middle of each piece's square onto the middle of an empty square (a feathered mask: the target's grid lines,
rim and neighbours stay) gives examples of the same face in other places.

Owns: `move_pieces`, `square_box`, `PIECE_SPAN`.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.board import Image
from vision.squares import CELL, MARGIN

PIECE_SPAN = 0.85
"""Side of the pasted middle, as a fraction of a square (a piece covers most of its square, its kanji the middle)."""
_FEATHER = 1.5
"""Gaussian sigma (pixels) of the mask's edge."""


@lru_cache(maxsize=1)
def _mask() -> NDArray[np.float32]:
    """A square's-size mask (H×W×1): 1 over the middle `PIECE_SPAN`, falling to 0 towards the grid lines."""
    size = round(CELL)
    inner = round(size * PIECE_SPAN)
    start = (size - inner) // 2
    mask = np.zeros((size, size), np.float32)
    mask[start : start + inner, start : start + inner] = 1.0
    mask = np.asarray(cv2.GaussianBlur(mask, (0, 0), _FEATHER), dtype=np.float32)
    mask.flags.writeable = False
    return mask[:, :, None]


def square_box(square: int) -> tuple[slice, slice]:
    """Rows and columns of a square (SFEN order) on the rectified board."""
    row, col = divmod(square, 9)
    size = round(CELL)
    y0, x0 = round((row + MARGIN) * CELL), round((col + MARGIN) * CELL)
    return slice(y0, y0 + size), slice(x0, x0 + size)


def move_pieces(
    board: Image, pieces: Sequence[int], empties: Sequence[int], rng: np.random.Generator, rounds: int = 2
) -> list[tuple[Image, list[int], list[int]]]:
    """Copies of the rectified `board`, each with some of the `pieces` (SFEN-order squares) pasted onto distinct
    `empties`: per copy, (board, targets, sources). Every piece is moved `rounds` times, each time onto an empty
    square drawn at random; the pieces' own squares are left as they were."""
    out: list[tuple[Image, list[int], list[int]]] = []
    if not pieces or not empties:
        return out
    mask = _mask()
    for _ in range(rounds):
        order = [int(p) for p in rng.permutation(list(pieces))]
        for k in range(0, len(order), len(empties)):
            sources = order[k : k + len(empties)]
            targets = [int(t) for t in rng.permutation(list(empties))[: len(sources)]]
            copy = board.copy()
            for source, target in zip(sources, targets, strict=True):
                piece = board[square_box(source)].astype(np.float32)
                under = copy[square_box(target)].astype(np.float32)
                copy[square_box(target)] = np.clip(mask * piece + (1.0 - mask) * under + 0.5, 0, 255).astype(np.uint8)
            out.append((copy, targets, sources))
    return out
