"""The strip round the board's grid (the board's rim and the table just beyond it), which a hand reaching in
crosses even when it covers no square.

Owns `RimView`: for each of the 36 edge segments (one per edge square and side: 9 along each of the four sides),
a small picture of the strip outside that square, `RIM_NEAR` to `RIM_FAR` squares beyond the grid line. Two
views are compared once their light is matched (a lamp dimmed or the camera's exposure changing leaves the
strip unchanged).
`changed_since(reference)` names the edge squares whose strip looks different from a reference read's: a hand
or arm at the board's edge, holding a piece over a square without hiding any. Knows pictures and squares, not
moves: when a difference matters (the strip at the last confirmed position, say) is the caller's business.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.board import BoardGeometry, Image

RIM_NEAR = 0.2
"""Where the strip starts, in squares beyond the grid line: far enough out that a piece on an edge square, off
its centre and wider than usual, stays inside it."""
RIM_FAR = 0.9
"""Where the strip ends, in squares beyond the grid line: about the board's rim and a little of the table, short
of the piece stands."""
PX = 8
"""Pixels per square along the strip in a `RimView`."""
CHANGED_PIXEL = 0.15
"""A strip pixel differs when its colour moved by this much (Euclidean, in units of the reference strip's median
colour, after the light is matched)."""
CHANGED_SHARE = 0.2
"""A segment has changed when this share of its pixels differ."""

_DEPTH = max(1, round((RIM_FAR - RIM_NEAR) * PX))
_FINE = 3
"""The strip is sampled this many times finer and then averaged down (the sensor's noise averages out)."""
_SIDES = ("top", "right", "bottom", "left")


def _edge_squares(side: str) -> list[int]:
    """The edge squares along one side, in the order the strip runs (SFEN indices: 0 = 9a, 80 = 1i)."""
    if side == "top":
        return list(range(9))
    if side == "bottom":
        return list(range(72, 81))
    if side == "left":
        return [9 * r for r in range(9)]
    return [9 * r + 8 for r in range(9)]


def _strip_corners(side: str) -> NDArray[np.float64]:
    """The strip's corners in grid units, ordered so that the warped strip runs along the side, depth across."""
    near, far = RIM_NEAR, RIM_FAR
    if side == "top":
        return np.array([[0, -far], [9, -far], [9, -near], [0, -near]], dtype=np.float64)
    if side == "bottom":
        return np.array([[0, 9 + near], [9, 9 + near], [9, 9 + far], [0, 9 + far]], dtype=np.float64)
    if side == "left":  # runs down the ranks: x of the strip image is the rank
        return np.array([[-near, 0], [-near, 9], [-far, 9], [-far, 0]], dtype=np.float64)
    return np.array([[9 + far, 0], [9 + far, 9], [9 + near, 9], [9 + near, 0]], dtype=np.float64)


SEGMENT_SQUARES: tuple[int, ...] = tuple(sq for side in _SIDES for sq in _edge_squares(side))
"""The edge square of each of the 36 segments, in `RimView.segments` order (a corner square appears twice)."""


@dataclass(frozen=True)
class RimView:
    """The strip round the grid as one frame shows it: `segments` (36, PX, depth, 3) float32 BGR; `inside` (36,)
    whether each segment lies wholly inside the frame (one that does not says nothing)."""

    segments: NDArray[np.float32]
    inside: NDArray[np.bool_]

    def changed_segments(self, reference: RimView) -> NDArray[np.bool_]:
        """(36,) True where this view's segment differs from the reference's (both inside the frame), once the
        light has been matched: each colour channel scaled by the median ratio of the two strips (a hand covers
        a small part of the strip; a dimmer lamp or a camera's exposure scales all of it)."""
        both = self.inside & reference.inside
        if not both.any():
            return np.zeros(len(self.inside), dtype=np.bool_)
        now, then = self.segments[both], reference.segments[both]
        gain = np.median(now.reshape(-1, 3) / np.maximum(then.reshape(-1, 3), 1.0), axis=0)
        scale = np.maximum(np.median(then.reshape(-1, 3), axis=0), 1.0)
        distance = np.linalg.norm((now / np.maximum(gain, 1e-3) - then) / scale, axis=-1)
        changed = np.zeros(len(self.inside), dtype=np.bool_)
        changed[both] = (distance > CHANGED_PIXEL).mean(axis=(1, 2)) >= CHANGED_SHARE
        return changed

    def changed_since(self, reference: RimView) -> frozenset[int]:
        """The edge squares (SFEN indices) whose strip looks different from the reference's."""
        changed = self.changed_segments(reference)
        return frozenset(SEGMENT_SQUARES[i] for i in np.flatnonzero(changed))


def rim_view(image: Image, geometry: BoardGeometry) -> RimView:
    """The strip round the grid of `geometry` in `image` (BGR)."""
    strips, inside = [], []
    for side in _SIDES:
        pixels = geometry.project(_strip_corners(side))
        strips.append(_strip(image, pixels))
        inside += _segments_inside(pixels, image.shape[:2])
    return RimView(np.concatenate(strips), np.array(inside, dtype=np.bool_))


def _strip(image: Image, pixels: NDArray[np.float64]) -> NDArray[np.float32]:
    """(9, PX, depth, 3): one side's strip (corners `pixels` in the image) cut into its nine segments."""
    fine = (9 * PX * _FINE, _DEPTH * _FINE)
    target = np.array([[0, 0], [fine[0], 0], [fine[0], fine[1]], [0, fine[1]]], dtype=np.float32)
    matrix = cv2.getPerspectiveTransform(target, pixels.astype(np.float32))
    warped = cv2.warpPerspective(
        image, matrix, fine, flags=cv2.WARP_INVERSE_MAP | cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )
    strip = cv2.resize(warped, (9 * PX, _DEPTH), interpolation=cv2.INTER_AREA)
    return np.asarray(strip, dtype=np.float32).transpose(1, 0, 2).reshape(9, PX, _DEPTH, 3)


def _segments_inside(pixels: NDArray[np.float64], shape: tuple[int, ...]) -> list[bool]:
    """Whether each of a strip's nine segments (strip corners `pixels`) lies wholly inside an image of `shape`."""
    h, w = shape
    out = []
    for a, b in itertools.pairwise(np.linspace(0.0, 1.0, 10)):
        ends = np.array([[a], [b]])
        corners = np.vstack([pixels[0] + (pixels[1] - pixels[0]) * ends, pixels[3] + (pixels[2] - pixels[3]) * ends])
        out.append(bool(((corners >= 0) & (corners <= [w - 1, h - 1])).all()))
    return out
