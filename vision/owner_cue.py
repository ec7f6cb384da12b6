"""The owner from the piece's outline: which way its pointed end faces, whatever is written on it.

A shogi piece is a pentagon whose point (apex) faces the opponent: sente's pieces point up the rectified board
(towards rank a), gote's down. The point is two straight edges, the shoulders, meeting at an angle; kanji,
ink and wood differ from set to set, the shoulders do not. This module looks for that corner in the rectified
board (`vision.squares.rectified_board`), square by square:
- edge energy tuned to each shoulder's direction (the colour structure tensor, so a piece differing from the
  board in hue rather than brightness still shows; sharply tuned, so the grid lines and the wood grain, which run
  along the board's axes, give almost nothing), summed along a short line in that direction;
- a point up (sente) is both shoulders at once, the left one below-left of the point and the right one
  below-right (the smaller of the two: one strong edge alone is not a corner); a point down (gote) the same
  turned by 180 degrees;
- the strongest point up is sought in the square's upper part and the strongest point down in its lower part,
  off centre by what a piece's placement and the camera's tilt (the face is lifted by the piece's thickness)
  move it, but not as far as where a neighbour's point would lie.
The two strengths (relative to the board's typical edge energy, so exposure does not matter) give an owner
log-odds and a presence log-likelihood ratio (`OwnerCue`), each a logistic fit on rendered frames of training
styles and of the proxy looks kept out of training (`vision.train.looks.PROXY_FONTS`; never the benchmark's
held-out styles), capped so that the cue alone can never make a square confident. `apply_owner_cue` multiplies
them into a square's probabilities: the owner evidence splits the piece labels between the owners (an outline
that says nothing, as on an empty square, leaves them as they are), the presence evidence raises every piece
label against `empty` (never lowers it: a low-contrast piece shows no outline, which is no evidence of an
empty square). Costs 5-15 ms per board on one core (this machine, quiet to loaded).
Off by default (`vision.reader.ReaderSettings.owner_cue`): on the proxy looks it raises owner accuracy
(98.48 -> 99.09 % on 120 frames not used for any choice: `vision.train.owner_cue_fit`) and leaves training
styles unchanged, but on the benchmark's held-out styles it did not help (owner 98.426 -> 98.374 %): there the
owner errors are almost all one frame whose grid was found in the wrong place, which no owner cue can mend.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.board import Image
from vision.squares import CELL, MARGIN


@dataclass(frozen=True)
class CueShape:
    """What a point looks like in the rectified board (pixels of `vision.squares.CELL` per square).

    `shoulder_deg`: angle of each shoulder from the board's horizontal (the sets' artwork measures 34-39 degrees
    on the sprite, about 5 less in the rectified square, which is wider than a real square is tall);
    `arm_px`: distance from the point to the middle of each shoulder; `line_px`: length along which each
    shoulder's edge energy is summed; `tuning`: power (a power of 2) of the cosine of twice the angle between
    an edge and a shoulder (8: an edge 20 degrees off counts 0.17, the grid lines 45-50 degrees off nothing);
    `reach_up`, `reach_centre`: where a sente piece's point is sought, as fractions of a square above the
    square's centre (from `reach_up` to `reach_centre`; a gote piece's point as far below); `reach_side`: how
    far left or right of the centre. Chosen on the proxy looks and training styles (see the module docstring).
    """

    shoulder_deg: float = 40.0
    arm_px: float = 7.0
    line_px: float = 11.0
    tuning: int = 8
    reach_up: float = 0.6
    reach_centre: float = 0.05
    reach_side: float = 0.25
    smooth_px: float = 1.0


@dataclass(frozen=True)
class CueCalibration:
    """From strengths to evidence: `floor` is added to both strengths before their log-ratio (a faint point
    gives little evidence); owner log-odds = `owner_weight` × log((up + floor) / (down + floor)); presence
    log-ratio = `presence_weight` × log(max(up, down) + floor) + `presence_bias`; both capped at `cap` (the
    presence at 0 from below). The weights are logistic fits (owner given a piece; piece or empty, less the
    fitting frames' prior) by `python -m vision.train.owner_cue_fit` (125 rendered frames of the proxy looks,
    125 of training styles; 2026-11-22). `floor` and `cap` were chosen on such frames among 0.02/0.05/0.1 and
    1.5/2/3 (0.05 and 0.1 tied, and the larger floor keeps empty squares' owner evidence small; cap 3 cost
    training-style boards, 1.5 proxy owners)."""

    floor: float = 0.1
    owner_weight: float = 5.37
    presence_weight: float = 14.31
    presence_bias: float = 28.39
    cap: float = 2.0


@dataclass(frozen=True)
class OwnerCue:
    """Per-square outline evidence, SFEN order (81 each)."""

    up: NDArray[np.float64]
    """Strength of a point up (sente's piece) in each square, relative to the board's typical edge energy."""
    down: NDArray[np.float64]
    """Strength of a point down (gote's piece)."""
    calibration: CueCalibration = CueCalibration()

    def owner_log_odds(self) -> NDArray[np.float64]:
        """log P(sente) / P(gote) given that the square holds a piece, from the outline alone (capped), scaled
        down where the outline hardly shows a point at all (by the presence evidence over its cap)."""
        c = self.calibration
        ratio = np.log((self.up + c.floor) / (self.down + c.floor))
        sure = self.presence_log_ratio() / c.cap  # no point seen (an empty square): no owner evidence
        return np.asarray(sure * np.clip(c.owner_weight * ratio, -c.cap, c.cap), dtype=np.float64)

    def presence_log_ratio(self) -> NDArray[np.float64]:
        """log P(outline | piece) / P(outline | empty), 0 (no evidence) up to the cap."""
        c = self.calibration
        strength = np.log(np.maximum(self.up, self.down) + c.floor)
        return np.asarray(np.clip(c.presence_weight * strength + c.presence_bias, 0.0, c.cap), dtype=np.float64)


def measure(board: Image, shape: CueShape = CueShape(), calibration: CueCalibration = CueCalibration()) -> OwnerCue:
    """The point up and point down strengths of the 81 squares of a rectified board (BGR or gray uint8)."""
    left, right, typical = shoulder_energies(board, shape)
    t = math.radians(shape.shoulder_deg)
    u, v = round(shape.arm_px * math.cos(t)), round(shape.arm_px * math.sin(t))
    h, w = left.shape
    point_up = np.zeros_like(
        left
    )  # at (x, y): the left shoulder's middle at (x - u, y + v), the right's at (x + u, y + v)
    point_up[: h - v, u : w - u] = np.minimum(left[v:, : w - 2 * u], right[v:, 2 * u :])
    point_down = np.zeros_like(left)  # the same turned by 180 degrees
    point_down[v:, u : w - u] = np.minimum(right[: h - v, : w - 2 * u], left[: h - v, 2 * u :])
    up = _best_near(point_up, shape, upper=True)
    down = _best_near(point_down, shape, upper=False)
    return OwnerCue(up / typical, down / typical, calibration)


def apply_owner_cue(probs: NDArray[np.float64], cue: OwnerCue) -> NDArray[np.float64]:
    """81×29 probabilities with the outline evidence multiplied in (rows renormalised)."""
    sente = 2.0 / (1.0 + np.exp(-cue.owner_log_odds()))  # P(outline | sente) / P(outline | a piece of either side)
    more = np.exp(cue.presence_log_ratio())
    out = np.array(probs, dtype=np.float64, copy=True)
    out[:, :14] *= (more * sente)[:, None]
    out[:, 14:28] *= (more * (2.0 - sente))[:, None]
    return np.asarray(out / out.sum(axis=1, keepdims=True), dtype=np.float64)


def shoulder_energies(board: Image, shape: CueShape) -> tuple[NDArray[np.float32], NDArray[np.float32], float]:
    """Edge energy along the left shoulder of a point up (`/`) and the right one (`\\`), each summed along a
    short line in its own direction, and the board's typical (median) edge energy, at least 1."""
    f = board.astype(np.float32)
    gx = cv2.Sobel(f, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(f, cv2.CV_32F, 0, 1, ksize=3)
    jxx, jyy, jxy = (_channel_sum(cv2.multiply(a, b)) for a, b in ((gx, gx), (gy, gy), (gx, gy)))
    jxx, jyy, jxy = (cv2.GaussianBlur(j, (5, 5), shape.smooth_px) for j in (jxx, jyy, jxy))
    energy = cv2.add(jxx, jyy) + np.float32(1e-3)
    cos2, sin2 = cv2.subtract(jxx, jyy), cv2.add(jxy, jxy)
    out = []
    for sign in (-1.0, 1.0):  # `/` runs up to the right (-angle in image coordinates), `\` down to the right
        line = sign * shape.shoulder_deg
        normal = math.radians(2.0 * (line + 90.0))
        aligned: Image = cv2.addWeighted(cos2, math.cos(normal), sin2, math.sin(normal), 0.0)
        aligned = cv2.divide(np.maximum(aligned, 0.0, out=aligned), energy)
        for _ in range(round(math.log2(shape.tuning))):
            aligned = cv2.multiply(aligned, aligned)
        tuned = cv2.multiply(aligned, energy)
        summed = cv2.filter2D(tuned, -1, _line_kernel(line, shape.line_px), borderType=cv2.BORDER_CONSTANT)
        out.append(np.maximum(summed, 0.0, dtype=np.float32))
    typical = float(np.median(energy[::4, ::4])) + 1.0
    return out[0], out[1], typical


def _channel_sum(a: Image) -> Image:
    """Sum over the colour channels (a gray image passes through)."""
    if a.ndim == 2:
        return a
    return np.asarray(cv2.transform(a, np.ones((1, a.shape[2]), np.float32)))


def _line_kernel(angle_deg: float, length: float) -> NDArray[np.float32]:
    """A normalised anti-aliased line of `length` pixels at `angle_deg` (image coordinates) through the centre."""
    size = math.ceil(length) | 1
    kernel = np.zeros((size, size), np.float32)
    c, t = size // 2, math.radians(angle_deg)
    dx, dy = math.cos(t) * (length - 1) / 2, math.sin(t) * (length - 1) / 2
    ends = [(round(8 * (c - dx)), round(8 * (c - dy))), (round(8 * (c + dx)), round(8 * (c + dy)))]
    cv2.line(kernel, ends[0], ends[1], 1.0, 1, cv2.LINE_AA, shift=3)
    return np.asarray(kernel / kernel.sum(), dtype=np.float32)


def _best_near(points: NDArray[np.float32], shape: CueShape, *, upper: bool) -> NDArray[np.float64]:
    """Per square, the strongest point in its search window (above the centre for a point up, below for down)."""
    cell = round(CELL)
    pad = 2 * cell
    padded = cv2.copyMakeBorder(points, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=0)
    wide = round(2 * shape.reach_side * CELL)
    tall = round((shape.reach_up - shape.reach_centre) * CELL)
    top = -shape.reach_up if upper else shape.reach_centre  # window top, in squares from the centre
    y0 = pad + round(MARGIN * CELL + (0.5 + top) * CELL)
    x0 = pad + round(MARGIN * CELL + 0.5 * CELL - wide / 2)
    block = padded[y0 : y0 + 9 * cell, x0 : x0 + 9 * cell].reshape(9, cell, 9, cell)
    return np.asarray(block[:, :tall, :, :wide].max(axis=(1, 3)).reshape(81), dtype=np.float64)
