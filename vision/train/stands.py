"""Training crops of pieces on the stands (komadai), cut exactly as `vision.hands` cuts them (training only).

A frame is rendered with both stands in view and random pieces in hand; each stand is rectified from the
renderer's true grid corners (nudged by a pixel or two, as a found grid would be), the reader's own ink-peak
search picks the window centres, and gote's windows are turned by 180 degrees, as `vision.hands.count_stand`
does. A window is labelled with the kind of the nearest piece the renderer put on the stand when it lies close
to that piece's centre (always sente's kind: the windows are turned upright), "empty" when no piece is near
(bare wood, grain, the rim), and is dropped in between (half on a piece: no honest label).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from vision.board import BoardGeometry
from vision.board_read import hands_field as reader_hands_field
from vision.hands import StandLayout, ink_peaks, rectify_stand, stand_windows
from vision.labels import EMPTY, HAND_KINDS, SQUARE_LABELS
from vision.render.assets import PIECE_HEIGHT_MM
from vision.render.geometry import SQUARE_H_MM, SQUARE_W_MM
from vision.render.stands import stand_layout
from vision.set_counts import SET_LIMITS
from vision.squares import CELL, CROP

SET_COUNT: dict[str, int] = {kind: n for kind, n in SET_LIMITS.items() if kind != "K"}
"""Pieces of each kind that can be in hand, in a whole set."""
MAX_IN_HAND: dict[str, int] = {"R": 2, "B": 2, "G": 4, "S": 4, "N": 4, "L": 4, "P": 8}
NEAR_MM = 10.0
"""A window centred this close to a piece's (nominal) centre sees that piece."""
FAR_MM = 28.0
"""A window centred farther than this from every piece sees no piece."""
_SIZES: tuple[tuple[int, int], ...] = ((960, 720), (1280, 960), (800, 600))


def random_hands(rng: np.random.Generator) -> dict[str, int]:
    """Random pieces in hand on both stands (never more of a kind than a set has; pawns at most 8 a side)."""
    hands: dict[str, int] = {}
    for kind in HAND_KINDS:
        left = SET_COUNT[kind]
        for label in (kind, kind.lower()):
            if rng.random() < 0.5 and left > 0:
                n = int(rng.integers(1, min(left, MAX_IN_HAND[kind]) + 1))
                hands[label] = n
                left -= n
    return hands


def hands_field(hands: dict[str, int]) -> str:
    """The SFEN hands field of `hands` (SFEN letters, uppercase sente's)."""
    sente = {kind: n for kind, n in hands.items() if kind.isupper()}
    gote = {kind.upper(): n for kind, n in hands.items() if kind.islower()}
    return reader_hands_field({"b": sente, "w": gote})


def window_labels(
    centres_px: list[tuple[int, int]], region: NDArray[np.float64], pieces: list[tuple[str, NDArray[np.float64]]]
) -> list[int | None]:
    """Class index per window centre (pixels of the rectified stand `region`, grid units), None = dropped."""
    empty = SQUARE_LABELS.index(EMPTY)
    out: list[int | None] = []
    scale = np.array([SQUARE_W_MM, SQUARE_H_MM])
    for x, y in centres_px:
        at_mm = (region[0] + np.array([x, y], dtype=np.float64) / CELL) * scale
        if not pieces:
            out.append(empty)
            continue
        dist = [float(np.hypot(*(at_mm - centre))) for _, centre in pieces]
        nearest = int(np.argmin(dist))
        if dist[nearest] < NEAR_MM:
            out.append(SQUARE_LABELS.index(pieces[nearest][0].upper()))
        elif dist[nearest] > FAR_MM:
            out.append(empty)
        else:
            out.append(None)
    return out


def frame_stand_crops(seed: int, styles: list[str]) -> tuple[NDArray[np.uint8], NDArray[np.int64]]:
    """Stand windows and class indices from one rendered frame."""
    from vision.render import RenderOptions, render_position

    rng = np.random.default_rng(seed)
    style = styles[int(rng.integers(len(styles)))]
    hands = random_hands(rng)
    size = _SIZES[int(rng.integers(len(_SIZES)))]
    options = RenderOptions(style=style, seed=seed, size=size, stands_in_view=True)
    frame = render_position(f"9/9/9/9/9/9/9/9/9 b {hands_field(hands)} 1", options)
    corners = np.asarray(frame.board_corners_px, dtype=np.float64) + rng.normal(0, 1.0, (4, 2))
    geometry = BoardGeometry(corners, 1.0)
    layout = StandLayout()
    nominal = stand_layout(hands, {k: v * 0.89 for k, v in PIECE_HEIGHT_MM.items()}, None)
    crops: list[NDArray[np.uint8]] = []
    targets: list[int] = []
    for side, region_t in layout.regions.items():
        region = np.array(region_t, dtype=np.float64)
        stand = rectify_stand(frame.image, geometry, region)
        if stand is None:
            continue
        pieces = [(label, np.array(c)) for label, c, _ in nominal if label.isupper() == (side == "b")]
        centres = ink_peaks(stand, layout)
        if not centres:
            continue
        windows = stand_windows(stand, centres, side)
        for window, target in zip(windows, window_labels(centres, region, pieces), strict=True):
            if target is not None:
                crops.append(window)
                targets.append(target)
    if not crops:
        return np.zeros((0, CROP, CROP, 3), np.uint8), np.zeros(0, np.int64)
    return np.ascontiguousarray(np.stack(crops)), np.array(targets, dtype=np.int64)


def stand_dataset(seeds: range, styles: list[str]) -> tuple[NDArray[np.uint8], NDArray[np.int64]]:
    """Stand windows from the frames of several seeds, concatenated."""
    parts = [frame_stand_crops(seed, styles) for seed in seeds]
    return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])
