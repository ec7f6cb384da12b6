"""Finding the 9×9 grid in a frame and checking it cheaply on later frames.

The grid is described by a homography from grid coordinates to image pixels: grid x runs 0..9 from the
9-file edge to the 1-file edge, grid y 0..9 from rank a to rank i (as seen from sente). `find_board` proposes
rough grids (from the grid lines' vanishing points, `vision.grid_lines`; from outlines of the board or of the
grid's outer frame, and the whole image for a picture already cropped to the board, `vision.grid_fit`), polishes
each on the picture shrunk to a working size, then judges it on the full-size picture, where a steep view's thin
far lines are still clear: moved by one line when that is clearly better supported, nudged onto its lines when
it narrowly fails, registered by the board's edge when a one-line move is supported as well (`vision.board_rim`),
and accepted only if its lines are well supported and not at half the real spacing. Which of the four rotations
is sente's is not decided here (see `vision.orientation`); `BoardGeometry.rotated` turns it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.board_rim import rim_shift
from vision.errors import ImageError
from vision.grid_fit import PAD, candidate_quads, fit_grid, fit_view
from vision.grid_lines import rectifying_views

FloatArray = NDArray[np.float64]
Image = NDArray[Any]
"""A picture (BGR or gray, usually uint8); loosely typed because OpenCV's stubs return generic arrays."""

GRID_CORNERS = np.array([[0.0, 0.0], [9.0, 0.0], [9.0, 9.0], [0.0, 9.0]])
"""Grid coordinates of the corners 9a, 1a, 1i, 9i."""

_WORK_SIDE = 640  # frames are searched at most this large
_VIEW = 440  # side of a view rectified from the grid lines' vanishing points
_VIEW_FILL = 0.3  # ... in which the grid spans at least this much (stands' edges may widen the view)
MIN_SUPPORT = 0.7  # mean fraction of grid-line samples that must look like a line
MIN_LINE = 0.12  # ... and on every single line (a rank full of pieces hides most of its line)
_OFF = 0.08  # where "beside the line" is, in squares
_FAINT_SUPPORT = 0.55  # mean line support accepted when the lines stand out from the squares' middles ...
_MID_GAP = 0.2  # ... by this much in both directions
_PARITY_GAP = 0.3  # the odd and even lines of a direction may differ this much in mean support ...
_FAINT_PARITY = 0.15  # ... or this much when the support is faint
_TRUSTED = 0.85  # outline candidates are not tried after a grid this well supported from the lines
_GOOD_ENOUGH = 0.9  # stop trying candidates once a grid is supported this well
_TIE = 0.025  # a grid moved one line whose mean line support is this close is decided by the board's edge
_REFINE = 0.58  # a refused grid this well supported at full scale is nudged onto its lines and judged again
_WORTH_VERIFYING = 0.5  # a grid this well supported at the working scale is judged on the full-scale picture


@dataclass(frozen=True)
class BoardGeometry:
    """Where the grid lies in the image: corners 9a, 1a, 1i, 9i (pixels) and their homography."""

    corners: FloatArray
    support: float
    """Fraction of sampled grid-line points that look like a line (0..1) when the grid was found."""

    @property
    def homography(self) -> FloatArray:
        """3×3 map from grid coordinates (0..9, 0..9) to image pixels."""
        matrix = cv2.getPerspectiveTransform(GRID_CORNERS.astype(np.float32), self.corners.astype(np.float32))
        return np.asarray(matrix, dtype=np.float64)

    def rotated(self, quarter_turns: int) -> BoardGeometry:
        """The same grid with sente's side turned by `quarter_turns` × 90° (the labels move, not the lines)."""
        return BoardGeometry(np.roll(self.corners, -(quarter_turns % 4), axis=0), self.support)

    def project(self, grid_points: FloatArray) -> FloatArray:
        """Image pixels of grid points (N×2)."""
        pts = np.asarray(grid_points, dtype=np.float64).reshape(-1, 1, 2)
        return np.asarray(cv2.perspectiveTransform(pts, self.homography), dtype=np.float64).reshape(-1, 2)


def to_gray(image: Image) -> Image:
    """A grayscale copy of a BGR or gray frame; ImageError for anything else."""
    if image.ndim == 2:
        return image
    if image.ndim == 3 and image.shape[2] in (3, 4):
        code = cv2.COLOR_BGR2GRAY if image.shape[2] == 3 else cv2.COLOR_BGRA2GRAY
        return np.asarray(cv2.cvtColor(image, code))
    raise ImageError(f"expected a gray or BGR image, got shape {image.shape}")


def find_board(image: Image) -> BoardGeometry | None:
    """The best-supported 9×9 grid in the image, or None when no candidate looks like a board."""
    gray = to_gray(image)
    if min(gray.shape[:2]) < 64:
        return None
    scale = min(1.0, _WORK_SIDE / max(gray.shape[:2]))
    small = cv2.resize(gray, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) if scale < 1 else gray
    small = cv2.GaussianBlur(small, (3, 3), 0)
    best: BoardGeometry | None = None
    judge = gray if scale < 1 else small
    for from_lines, found in _first_fits(small):
        if best is not None and best.support >= _TRUSTED and not from_lines:
            break  # a grid seen well from its own lines is not second-guessed by outlines (the search is slow)
        if found is None:
            continue
        corners, fractions = _polish(small, _clockwise(found))
        if scale < 1:
            if float(fractions.mean()) < _WORTH_VERIFYING or _aliased(fractions, _PARITY_GAP):
                continue
            corners, fractions = _full_scale(gray, corners / scale)
        if scale < 1 and float(fractions.mean()) >= _REFINE and not _accepted(judge, corners, fractions):
            corners, fractions = _refined(gray, corners, fractions)
        if _accepted(judge, corners, fractions) and (best is None or fractions.mean() > best.support):
            best = BoardGeometry(corners, float(fractions.mean()))
            if best.support >= _GOOD_ENOUGH:
                break
    if best is None or scale == 1:
        return best
    # later frames are checked at the working scale (`check_board`): keep the support seen there
    return BoardGeometry(best.corners, line_support(small, best.corners * scale))


def confirm_grid(image: Image, corners: FloatArray) -> BoardGeometry | None:
    """The grid with these corners (9a, 1a, 1i, 9i in pixels of `image`) if the picture supports it as a 9×9
    board by the test `find_board` applies to its candidates, else None (e.g. a grid at half the real spacing,
    whose every other line crosses the squares)."""
    gray = to_gray(image)
    ordered = _clockwise(np.asarray(corners, dtype=np.float64))
    fractions = line_fractions(gray, ordered)
    return BoardGeometry(ordered, float(fractions.mean())) if _accepted(gray, ordered, fractions) else None


def _full_scale(gray: Image, corners: FloatArray) -> tuple[FloatArray, FloatArray]:
    """A grid found at the working scale, judged on the full-scale picture (thin far lines of a steep view,
    shrunk and blurred, look faint; at full scale they are clear) and moved by one line if that picture supports
    that clearly better (in both mean and weakest line): shrunk and blurred, a thick board's rim seen at a steep
    angle can look more like the outer grid line than the line itself (a proxy look at 41 degrees:
    `tests/vision/test_board_rim.py`). Where lines cannot tell, the board's edge decides (`_registered`)."""
    moved, fractions = _best_shift(gray, _clockwise(corners))
    return _registered(gray, moved, fractions)


def _refined(gray: Image, corners: FloatArray, fractions: FloatArray) -> tuple[FloatArray, FloatArray]:
    """A near-miss grid nudged corner by corner (a pixel, then half a pixel) while its full-scale line support
    rises: a grid found on the shrunk picture can be a pixel or two off, enough for thin far lines to be missed."""
    corners = corners.copy()
    for step in (1.0, 0.5):
        for _ in range(2):
            improved = False
            for index in range(8):
                for sign in (-1.0, 1.0):
                    trial = corners.copy()
                    trial.flat[index] += sign * step
                    trial_fractions = line_fractions(gray, trial)
                    if trial_fractions.mean() > fractions.mean():
                        corners, fractions, improved = trial, trial_fractions, True
                        break
            if not improved:
                break
    return corners, fractions


def _registered(gray: Image, corners: FloatArray, fractions: FloatArray) -> tuple[FloatArray, FloatArray]:
    """The grid, or the grid moved one line in a direction where that move is supported about as well by the
    lines (mean support within `_TIE`: the rim, the table or a stand beside the board looks as much like a line as
    the real outer line) and the board's edge clearly asks for it (`vision.board_rim.rim_shift`)."""
    homography = cv2.getPerspectiveTransform(GRID_CORNERS.astype(np.float32), corners.astype(np.float32))
    tied: set[tuple[int, int]] = set()
    for axis in (0, 1):
        for step in (-1, 1):
            move = GRID_CORNERS + (np.array([step, 0.0]) if axis == 0 else np.array([0.0, step]))
            moved = cv2.perspectiveTransform(move.reshape(-1, 1, 2), homography).reshape(4, 2).astype(np.float64)
            if float(fractions.mean() - line_fractions(gray, moved).mean()) < _TIE:
                tied.add((axis, step))
    if not tied:
        return corners, fractions
    wanted = rim_shift(gray, corners)
    dx = wanted[0] if (0, wanted[0]) in tied else 0
    dy = wanted[1] if (1, wanted[1]) in tied else 0
    if dx == dy == 0:
        return corners, fractions
    move = (GRID_CORNERS + np.array([dx, dy], dtype=np.float64)).reshape(-1, 1, 2)
    moved = cv2.perspectiveTransform(move, homography).reshape(4, 2).astype(np.float64)
    return moved, line_fractions(gray, moved)


def _first_fits(small: Image) -> Iterator[tuple[bool, FloatArray | None]]:
    """Rough grids, most promising first: from the grid lines' own vanishing points (flagged True), then from
    outlines (False)."""
    for view in rectifying_views(small, _VIEW, PAD):
        yield True, fit_view(small, view, _VIEW, _VIEW_FILL)
    for quad in candidate_quads(small):
        yield False, fit_grid(small, quad)


def _polish(small: Image, found: FloatArray) -> tuple[FloatArray, FloatArray]:
    """A rough grid moved onto its best-supported lines, then re-fitted from itself while that helps (a rough
    view rectifies badly, the re-fit sees the lines straight)."""
    corners, fractions = _best_shift(small, found)
    for _ in range(3):
        refined = fit_grid(small, corners)
        if refined is None:
            break
        moved, moved_fractions = _best_shift(small, _clockwise(refined))
        if moved_fractions.mean() <= fractions.mean() + 0.005:
            break
        corners, fractions = moved, moved_fractions
    return corners, fractions


def _accepted(small: Image, corners: FloatArray, fractions: FloatArray) -> bool:
    """Whether a polished grid is a board: its lines well supported, or (a steep or dim view, whose far lines
    are faint) fairly supported and clearly better than the lines halfway between them; never a grid at half the
    real spacing."""
    if _aliased(fractions, _PARITY_GAP):
        return False
    if supported(fractions):
        return True
    faint_ok = float(fractions.mean()) >= _FAINT_SUPPORT and float(fractions.min()) >= MIN_LINE
    if not faint_ok or _aliased(fractions, _FAINT_PARITY):
        return False
    homography = cv2.getPerspectiveTransform(GRID_CORNERS.astype(np.float32), corners.astype(np.float32))
    for axis in (0, 1):
        half = GRID_CORNERS + np.array([0.5, 0.0] if axis else [0.0, 0.5])
        moved = cv2.perspectiveTransform(half.reshape(-1, 1, 2), homography).reshape(4, 2).astype(np.float64)
        lines = slice(10 * axis, 10 * axis + 9)
        if float(fractions[lines].mean()) - float(line_fractions(small, moved)[lines].mean()) < _MID_GAP:
            return False
    return True


def _aliased(fractions: FloatArray, gap: float) -> bool:
    """True when, in either direction, every other line is seen much worse than the rest: a grid at half the
    real spacing, whose odd "lines" cross the squares (pieces hide whole lines too, but not every other one)."""
    for axis in (0, 1):
        lines = fractions[10 * axis : 10 * axis + 10]
        if abs(float(lines[0::2].mean()) - float(lines[1::2].mean())) > gap:
            return True
    return False


def _clockwise(corners: FloatArray) -> FloatArray:
    """The corners in clockwise order on screen (a mirrored rectified view gives them anticlockwise), starting
    from the one nearest the picture's top-left (as the outline candidates do)."""
    x, y = corners[:, 0], corners[:, 1]
    area = float(np.dot(x, np.roll(y, -1)) - np.dot(np.roll(x, -1), y))
    ordered = corners if area > 0 else corners[[0, 3, 2, 1]]
    return np.roll(ordered, -int(np.argmin(ordered.sum(axis=1))), axis=0)


def _best_shift(gray: Image, corners: FloatArray) -> tuple[FloatArray, FloatArray]:
    """The grid, or the grid moved by one line along either axis, whichever has the best line support (the
    equal-spacing search can take the board's rim for the outer line and miss the real one)."""
    homography = cv2.getPerspectiveTransform(GRID_CORNERS.astype(np.float32), corners.astype(np.float32))
    best = (corners, line_fractions(gray, corners))
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            if dx == dy == 0:
                continue
            moved = (GRID_CORNERS + np.array([dx, dy], dtype=np.float64)).reshape(-1, 1, 2)
            candidate = cv2.perspectiveTransform(moved, homography).reshape(4, 2).astype(np.float64)
            fractions = line_fractions(gray, candidate)
            if fractions.min() > best[1].min() and fractions.mean() > best[1].mean():
                best = (candidate, fractions)
    return best


def check_board(image: Image, geometry: BoardGeometry) -> float:
    """Current grid-line support of a known grid (cheap; compare with `geometry.support`). Only the part of the
    frame round the grid is converted and scaled."""
    if image.ndim not in (2, 3):
        raise ImageError(f"expected a gray or BGR image, got shape {image.shape}")
    h, w = image.shape[:2]
    scale = min(1.0, _WORK_SIDE / max(h, w))
    reach = 0.2 * float(np.linalg.norm(geometry.corners[0] - geometry.corners[2])) / 9 + 2
    x0, y0 = np.clip(np.floor(geometry.corners.min(axis=0) - reach), 0, [w, h]).astype(int)
    x1, y1 = np.clip(np.ceil(geometry.corners.max(axis=0) + reach), 0, [w, h]).astype(int)
    if x1 - x0 < 8 or y1 - y0 < 8:
        return 0.0
    gray = to_gray(image[y0:y1, x0:x1])
    small = cv2.resize(gray, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) if scale < 1 else gray
    return line_support(small, (geometry.corners - [x0, y0]) * scale)


def line_support(gray: Image, corners: FloatArray, samples: int = 40) -> float:
    """Mean over the 20 grid lines of the fraction of their points darker than both points just aside."""
    return float(line_fractions(gray, corners, samples).mean())


def line_fractions(gray: Image, corners: FloatArray, samples: int = 40) -> FloatArray:
    """Per grid line (10 across the files, then 10 along), the fraction of sampled points that look like a
    line: darker by a few gray levels than the points 0.08 square to either side."""
    matrix = cv2.getPerspectiveTransform(GRID_CORNERS.astype(np.float32), corners.astype(np.float32))
    t = (np.arange(samples) + 0.5) * 9.0 / samples
    tt, kk = np.meshgrid(t, np.arange(10, dtype=np.float64))
    sets = []
    for delta in (0.0, -_OFF, _OFF):
        rows = np.stack([tt.ravel(), (kk + delta).ravel()], axis=1)  # lines y = k
        cols = rows[:, ::-1]  # lines x = k
        sets.append(np.concatenate([rows, cols]))
    pts = np.concatenate(sets).reshape(-1, 1, 2)
    img_pts = cv2.perspectiveTransform(pts, matrix).reshape(-1, 2)
    h, w = gray.shape[:2]
    xi = np.clip(np.round(img_pts[:, 0]).astype(int), 0, w - 1)
    yi = np.clip(np.round(img_pts[:, 1]).astype(int), 0, h - 1)
    inside = (img_pts[:, 0] >= 0) & (img_pts[:, 0] < w) & (img_pts[:, 1] >= 0) & (img_pts[:, 1] < h)
    n = len(img_pts) // 3
    x0, x1 = max(0, int(xi.min()) - 1), min(w, int(xi.max()) + 2)
    y0, y1 = max(0, int(yi.min()) - 1), min(h, int(yi.max()) + 2)
    eroded = cv2.erode(gray[y0:y1, x0:x1], np.ones((3, 3), np.uint8))
    yc, xc = np.clip(yi - y0, 0, eroded.shape[0] - 1), np.clip(xi - x0, 0, eroded.shape[1] - 1)
    v_on = eroded[yc[:n], xc[:n]].astype(np.int16)  # the darkest pixel near the line ...
    v_a = gray[yi[n : 2 * n], xi[n : 2 * n]].astype(np.int16)  # ... against the points on either side,
    v_b = gray[yi[2 * n :], xi[2 * n :]].astype(np.int16)  # which must agree (noise does not)
    ok = inside[:n] & inside[n : 2 * n] & inside[2 * n :]
    dip = np.minimum(v_a, v_b) - v_on
    line_like = (dip > 3) & (np.abs(v_a - v_b) < dip) & ok
    return np.asarray(line_like.reshape(20, samples).mean(axis=1), dtype=np.float64)


def supported(fractions: FloatArray) -> bool:
    """True when the grid lines are seen well enough to call it a board (every line, not just most)."""
    return float(fractions.mean()) >= MIN_SUPPORT and float(fractions.min()) >= MIN_LINE
