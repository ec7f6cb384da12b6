"""Whether a picture is cut at its board's outer grid lines: a dark line hugging one of its edges.

A picture already cropped to the board may be cut at (or through) the outer grid lines. `vision.board`'s line
support judges a point on a line against the points beside it, and beside a line at the picture's edge there is
nothing: such a grid is refused. `find_board` then searches again inside a plain border, but only where this test
says a line runs along an edge, for a search that finds nothing is slow (about 0.85 s on a 960×720 picture of
noise here). Each edge is split into `SEGMENTS` pieces; a piece is lined when the darkest of its outermost rows
(at most `STRIP` of the longer side in, at least 2 pixels) is darker by `DIP` gray levels than the median of the
rows just inside them, each row averaged along the piece (noise averages out, a line does not); an edge is lined
when `LINED` of its pieces are. Set on the shared real photo cut at its grid (its three straight outer lines: 0.65-0.85
of their pieces lined; the slanted top line cut at one end only: 0.05) against the uncut photo, rendered frames
with and without a hand over the board, cut to their corners or not (at most 0.2), and pictures of noise (at most
0.2).

Owns: `lined_edge`, `lined_fractions`.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

STRIP = 0.004
"""How near the edge (fraction of the picture's longer side) a cut outer line lies."""
DIP = 20
"""Gray levels a cut line is darker than the picture just inside it."""
LINED = 0.5
"""Fraction of an edge's pieces that must be lined."""
SEGMENTS = 20
"""Pieces an edge is split into."""


def lined_fractions(gray: NDArray[np.uint8]) -> list[float]:
    """Per edge (top, bottom, left, right), the fraction of its pieces along which a dark line hugs it."""
    h, w = gray.shape[:2]
    k = max(2, round(STRIP * max(h, w)))
    out = []
    for strip in (gray[: 4 * k], gray[::-1][: 4 * k], gray.T[: 4 * k], gray.T[::-1][: 4 * k]):
        length = strip.shape[1] // SEGMENTS * SEGMENTS
        if length == 0 or strip.shape[0] < 4 * k:
            out.append(0.0)
            continue
        rows = strip[:, :length].astype(np.float32).reshape(strip.shape[0], SEGMENTS, -1).mean(axis=2)
        outer = rows[: k + 1].min(axis=0)
        inner = np.median(rows[2 * k : 4 * k], axis=0)
        out.append(float(((inner - outer) >= DIP).mean()))
    return out


def lined_edge(gray: NDArray[np.uint8]) -> bool:
    """True when a dark line runs along some edge of the picture (`lined_fractions` at least `LINED`)."""
    return max(lined_fractions(gray)) >= LINED
