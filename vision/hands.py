"""Reading the pieces in hand from the two piece stands (komadai) beside the board.

Where the stands lie is given relative to the grid (`StandLayout`, in grid units: one unit is one square's width
across the files and one square's height along the ranks; the default matches a standard set-up with sente's
stand right of the board at sente's end and gote's left at the far end). Each stand is rectified at the board's
scale; pieces are found by their ink (dark strokes darker than their surroundings, smoothed into a density whose
peaks sit on the characters, one per piece, even in a crowded row where the pieces touch), a window centred on
each peak is classified (an unsure window, top probability under 0.9, also from windows 3 pixels off it on each
side, its readings combined as the board's unsure squares' are: `shifted_windows`), and windows that see a piece
are merged (non-maximum suppression: pieces lie side by
side, so the same piece is only merged within less than a piece's width across and a piece's length along).
`read_stands` gives each kept window's kind readings (`vision.hand_fit.StandPieces`, whose `counts` are their
likeliest kinds counted); with the whole set in play the reader fits the stands to what the board leaves over
(`vision.hand_fit.fit_whole_set`). Each stand is read on its own: one that is not wholly inside the frame, or
that is covered, is unknown (its side is left out of the result), and the other stand still counts. A side
present with no kinds (`{}`) is an empty stand; a side absent is unknown, not empty; None is both unknown.

Tried on 2026-11-27 and not kept (`vision.train.hands_eval`, 40 frames, seed 5, counts right of 560 each, without ->
with): stand windows borrowing kinds from the board's lookalike pieces (`vision.lookalikes`, the board's occupied
squares as lenders): plain 500 -> 507, artwork 523 -> 523, plain2 443 -> 442, one 487 -> 488; the ink peaks taken
from a black-hat map instead of the adaptive threshold: plain 500 -> 478-491, artwork 523 -> 508-519; each piece's
kind voted over all its merged windows: plain 500 -> 497, artwork 523 -> 525. Most wrong counts there are kinds
misread at the wide shots' small scale (a stand's piece about 20 pixels across), not rows miscounted.

Kept on 2026-11-28: the shifted windows (`hands_eval` frames, 40 each, seeds 5 and 11, counts right without ->
with): artwork 523 -> 534 and 544 -> 546, plain 500 -> 507 and 511 -> 509, plain2 (seed 5) 443 -> 456, one 487 -> 487
and 499 -> 500: +32 of 3913 counts. Every window shifted, not only the unsure ones: the same within one count (+33);
shifts of 2 or 5 pixels, or 8 shifts, no better. Tried with it and not kept: the ink threshold `min_ink` 0.3 -> 0.25
or 0.2 (faint two-character faces lose peaks; with every window shifted, seed 5: artwork 534 -> 535 and 536, plain
509 -> 504 and 503), and each kept piece's kind read
again from one window at the mean place of the windows merged into it (seed 11: artwork 545 -> 539, plain 509 ->
513).

Tried on 2026-11-29 and not kept: mending the main frames' counts too high. At a steep camera a stand's piece is
seen blurred, its outline (and shadow) darker than its character, so the ink peaks sit on its two edges, about 0.8
of a square apart: farther than touching pieces in a row (0.64), so no merge distance tells them from two pieces.
`hands_eval`, 30 frames each, counts right (main frames: artwork seed 3111, of 112; wide frames: artwork and plain
seed 3101, of 420 each), now -> tried: the density a box of a piece's size (0.6 × 0.7 squares) instead of the
Gaussian: main 101 -> 107, wide artwork 403 -> 383 (two stands unread), plain 387 -> 378; a Gaussian of 0.22
squares: main 103; each peak moved to the box density's largest value within 0.3 (0.2) squares: main 108 (108),
wide 397 (398) and 376 (379), only where that gains 15 % (30 %): main 108 (106), wide 401 (402) and 378 (379);
the moved peaks added to the first ones: main 102, wide 400-404 and 381; two kept windows side by side (0.45-0.95
apart across) replaced by the window between them when that reads a piece more surely than either: main 102,
wide 396 and 381. The pieces on the wide frames' stands are smaller (0.55-0.65 of a square across, against
0.85-0.95 on those main frames' artwork), so a box of one size moves their peaks off the characters and merges a
row's neighbours: the ink map needs the piece's size first.

Tried on 2026-12-04 and not kept: crowded rows counted from the ink profile's period along the row (`hands_eval`
wide frames, seed 4801, 40 a family: counts right 1949 -> 1943 of 2240, too high 138 -> 152). One piece's own
strokes, and a touching row's characters and edges, repeat at 0.25-0.47 squares as strongly as a crowded row's
pieces (docs/classifier-training.md, session 48; the code on the branch `experiment/s48-stand-rows`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.board import BoardGeometry, Image
from vision.crop_reads import calibrated, predict_crops, read_crops
from vision.hand_fit import OPTIONS, StandPieces
from vision.labels import EMPTY, KINDS, PIECE_LABELS, SQUARE_LABELS
from vision.shifted_looks import SHIFT_BELOW, SHIFTS, geometric_mean
from vision.squares import CELL, CROP

if TYPE_CHECKING:
    from vision.classifier import PieceClassifier
    from vision.reader import Calibrator
    from vision.stand_memo import StandMemo

_SQ_W_MM, _SQ_H_MM, _MARGIN_MM, _GAP_MM, _SIZE_MM = 33.3, 36.4, 16.0, 35.0, 165.0


def _default_region(side: str) -> tuple[tuple[float, float], ...]:
    """A 165 mm stand 35 mm beside the board's 16 mm rim, at its owner's end (grid units)."""
    if side == "b":
        x0 = 9 + (_MARGIN_MM + _GAP_MM) / _SQ_W_MM
        y1 = 9 + _MARGIN_MM / _SQ_H_MM
        x1, y0 = x0 + _SIZE_MM / _SQ_W_MM, y1 - _SIZE_MM / _SQ_H_MM
    else:
        x1 = -(_MARGIN_MM + _GAP_MM) / _SQ_W_MM
        y0 = -_MARGIN_MM / _SQ_H_MM
        x0, y1 = x1 - _SIZE_MM / _SQ_W_MM, y0 + _SIZE_MM / _SQ_H_MM
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


@dataclass(frozen=True)
class StandLayout:
    """Stand outlines in grid units (corners clockwise from top-left as seen from sente), per side b / w."""

    regions: dict[str, tuple[tuple[float, float], ...]] = field(
        default_factory=lambda: {"b": _default_region("b"), "w": _default_region("w")}
    )
    min_piece: float = 0.6
    """Probability of "a piece" a window needs to count."""
    ink_blur: float = 0.15
    """Smoothing of the ink map (squares): the strokes of one character melt into one peak."""
    min_ink: float = 0.3
    """Ink density a peak needs (bare wood's grain stays below)."""
    peak_gap: float = 0.4
    """Nearest two ink peaks may be (squares)."""
    same_piece: tuple[float, float] = (0.5, 0.6)
    """Windows nearer than this across and along (squares) see the same piece (one piece's two characters can
    give peaks 0.45 apart across; touching pawns lie 0.64 or more apart; 0.5 chosen on training-style frames).
    Peaks alone cannot do better: one piece's peaks lie up to 0.45-0.5 apart across (two-character faces, pale ink
    on a dark body, and the dark outline at a piece's top, which the ink map also picks up), as far apart as
    pieces in a crowded row. Measured on 120 stands of training-style frames (2026-11-27, `hands_eval` frames,
    seed 11), counts right / too low / too high: 0.5 across 815 / 17 / 8 of 840; 0.4: 815 / 10 / 15; 0.3: 815 / 7 / 18;
    merging only windows of the same read kind: 816 / 16 / 8. Telling a crowded row's pieces apart needs another
    cue (each piece's pointed top along the row's outline, say)."""


def read_stands(
    image: Image,
    geometry: BoardGeometry,
    layout: StandLayout,
    classifier: PieceClassifier,
    calibration: Calibrator | None = None,
    *,
    memo: StandMemo | None = None,
) -> dict[str, StandPieces]:
    """The pieces seen on each stand that could be read, by side; a stand out of the frame or covered is left
    out. With a `memo`, a stand whose picture has not changed since two reads agreed on it keeps that reading
    (`vision.stand_memo`)."""
    stands: dict[str, StandPieces] = {}
    for side, region in layout.regions.items():
        stand = rectify_stand(image, geometry, np.array(region, dtype=np.float64))
        if stand is None:
            continue
        counter = partial(count_stand, side=side, layout=layout, classifier=classifier, calibration=calibration)
        counted = counter(stand) if memo is None else memo.count(side, stand, counter)
        if counted is not None:
            stands[side] = counted
    return stands


def rectify_stand(image: Image, geometry: BoardGeometry, region: NDArray[np.float64]) -> Image | None:
    """The stand seen square-on at the board's scale, or None when part of it lies outside the frame."""
    corners_px = geometry.project(region)
    h, w = image.shape[:2]
    tolerance = 0.01 * max(h, w)
    if (
        (corners_px < -tolerance).any()
        or (corners_px[:, 0] > w + tolerance).any()
        or (corners_px[:, 1] > h + tolerance).any()
    ):
        return None
    width = round(float(region[1, 0] - region[0, 0]) * CELL)
    height = round(float(region[3, 1] - region[0, 1]) * CELL)
    target = (region - region[0]) * CELL
    region_to_img = cv2.getPerspectiveTransform(region.astype(np.float32), corners_px.astype(np.float32))
    out_to_img = region_to_img @ cv2.getPerspectiveTransform(target.astype(np.float32), region.astype(np.float32))
    warped = cv2.warpPerspective(image, out_to_img, (width, height), flags=cv2.WARP_INVERSE_MAP | cv2.INTER_LINEAR)
    return np.asarray(warped, dtype=np.uint8)


def count_stand(
    stand: Image,
    side: str,
    layout: StandLayout,
    classifier: PieceClassifier,
    calibration: Calibrator | None,
) -> StandPieces | None:
    """The pieces on one rectified stand, each with its kind readings (None when too much of it is unreadable)."""
    centres = ink_peaks(stand, layout)
    if not centres:
        return StandPieces(np.zeros((0, len(OPTIONS))))
    crops = stand_windows(stand, centres, side)
    prediction = predict_crops(classifier, crops, calibration)
    probs = calibrated(prediction, crops, calibration)
    if float(prediction.unreadable.mean()) > 0.5:  # a hand or sleeve over the stand
        return None
    classify = partial(read_crops, classifier, calibration=calibration)
    probs = shifted_windows(stand, centres, side, probs, classify)
    return _count(probs, prediction.unreadable, centres, layout)


def shifted_windows(
    stand: Image,
    centres: list[tuple[int, int]],
    side: str,
    probs: NDArray[np.float64],
    classify: Callable[[Image], NDArray[np.float64]],
) -> NDArray[np.float64]:
    """`probs` of the stand's windows with the unsure ones (top probability under `SHIFT_BELOW`) replaced by the
    normalised geometric mean of their readings from the window and from windows `SHIFTS` off it, as the board's
    unsure squares are read (`vision.shifted_looks`)."""
    unsure = np.flatnonzero(probs.max(axis=1) < SHIFT_BELOW)
    if not len(unsure):
        return probs
    height, width = stand.shape[:2]
    readings = [probs[unsure]]
    for dx, dy in SHIFTS:
        moved = [
            (min(max(centres[i][0] + dx, 0), width - 1), min(max(centres[i][1] + dy, 0), height - 1)) for i in unsure
        ]
        readings.append(classify(stand_windows(stand, moved, side)))
    out = probs.copy()
    out[unsure] = geometric_mean(readings)
    return out


def ink_peaks(stand: Image, layout: StandLayout) -> list[tuple[int, int]]:
    """Centres (x, y pixels) of the ink clusters on a rectified stand: one per character (per piece)."""
    gray = cv2.cvtColor(stand, cv2.COLOR_BGR2GRAY) if stand.ndim == 3 else stand
    ink = cv2.adaptiveThreshold(gray, 1, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV, int(CELL * 0.6) | 1, 12)
    density = cv2.GaussianBlur(ink.astype(np.float32), (0, 0), layout.ink_blur * CELL)
    reach = int(layout.peak_gap * CELL) | 1
    peaks = (density >= cv2.dilate(density, np.ones((reach, reach), np.uint8))) & (density > layout.min_ink)
    ys, xs = np.nonzero(peaks)
    return [(int(x), int(y)) for x, y in zip(xs, ys, strict=True)]


def stand_windows(stand: Image, centres: list[tuple[int, int]], side: str) -> Image:
    """CROP × CROP windows of a rectified stand centred on `centres` (x, y pixels; the stand's edge pixels
    repeated beyond it), gote's (`side` "w") turned by 180 degrees: their pieces point towards sente."""
    half = CROP // 2
    padded = cv2.copyMakeBorder(stand, half, half, half, half, cv2.BORDER_REPLICATE)
    crops = np.stack([padded[y : y + CROP, x : x + CROP] for x, y in centres])
    return np.ascontiguousarray(crops[:, ::-1, ::-1] if side == "w" else crops)


def _count(
    probs: NDArray[np.float64],
    unreadable: NDArray[np.float64],
    origins: list[tuple[int, int]],
    layout: StandLayout,
) -> StandPieces:
    """Greedy non-maximum suppression over windows that see a piece; the kept windows' kind readings (each
    option's probability that of its likelier face, so a window's likeliest option is the base kind of its
    likeliest piece label)."""
    empty = SQUARE_LABELS.index(EMPTY)
    piece_p = (1.0 - probs[:, empty]) * (1.0 - unreadable)
    order = np.argsort(-piece_p)
    kept: list[int] = []
    pts = np.array(origins, dtype=np.float64)
    gap = np.array(layout.same_piece) * CELL
    for i in order:
        if piece_p[i] < layout.min_piece:
            break
        if all((np.abs(pts[i] - pts[j]) > gap).any() for j in kept):
            kept.append(int(i))
    return StandPieces(_by_option(probs[kept]))


def _by_option(probs: NDArray[np.float64]) -> NDArray[np.float64]:
    """Windows' probabilities over `vision.hand_fit.OPTIONS`: each kind's likelier face, either owner's labels
    summed."""
    faces = probs[:, : len(PIECE_LABELS) // 2] + probs[:, len(PIECE_LABELS) // 2 : len(PIECE_LABELS)]
    out = np.zeros((len(probs), len(OPTIONS)))
    for j, kind in enumerate(KINDS):
        column = OPTIONS.index(kind.lstrip("+"))
        out[:, column] = np.maximum(out[:, column], faces[:, j])
    return out
