"""Finding the 9×9 grid in a frame and checking it cheaply on later frames.

The grid is described by a homography from grid coordinates to image pixels: grid x runs 0..9 from the 9-file edge to
the 1-file edge, grid y 0..9 from rank a to rank i (as seen from sente). `find_board` proposes rough grids (from the
grid lines' vanishing points, `vision.grid_lines`; from outlines of the board or of the grid's outer frame, and the
whole image for a picture already cropped to the board, `vision.grid_fit`; a picture cut at its outer grid lines, which
then have nothing beside them to be judged against, again inside a plain border, `vision.cut_edges`), polishes each on
the picture shrunk to a working size, then judges it on the full-size picture, where a steep view's thin far lines are
still clear: moved by one line when that is clearly better supported, nudged onto its lines when it narrowly fails,
registered by the board's edge when a one-line move is supported as well (`vision.board_rim`), and accepted only if its
lines are well supported, it is shaped like a board (`plausible_shape`) and it is not at half the real spacing (a grid
proposed at half the real spacing is replaced by the one at twice it, when that one is the better seen; a fairly
supported grid that is not yet a board is moved along its own lattice, by up to three lines or onto every other line, to
the best-supported grid there, `_relatticed`: on 300 fresh steep start and flipped photos of training styles misses 2 ->
1, on 300 game positions 1 -> 0, mean search 173 -> 195 and 145 -> 156 ms, no grid placed wrong). Which of the four
rotations is sente's is not decided here (see `vision.orientation`); `BoardGeometry.rotated` turns it. How well a
picture supports a grid's lines is measured in `vision.line_support`.
`vision.train.grid_eval` scores the search on development frames (2026-11-28, seeds 81-86, 1,800 steep views and start
positions: right 1780, off 3, not found 17).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.board_rim import rim_shift
from vision.cut_edges import lined_edge
from vision.errors import ImageError
from vision.grid_fit import PAD, candidate_quads, fit_grid, fit_view
from vision.grid_lines import rectifying_views
from vision.line_support import (
    GRID_CORNERS,
    LINE_OFF,
    axis_lines,
    in_front,
    line_fractions,
    line_support,
    looks_like_line,
)

FloatArray = NDArray[np.float64]
Image = NDArray[Any]
"""A picture (BGR or gray, usually uint8); loosely typed because OpenCV's stubs return generic arrays."""


_WORK_SIDE = 640  # frames are searched at most this large
_VIEW = 440  # side of a view rectified from the grid lines' vanishing points
_VIEW_FILL = 0.3  # ... in which the grid spans at least this much (stands' edges may widen the view)
MIN_SUPPORT = 0.7  # mean fraction of grid-line samples that must look like a line
MIN_LINE = 0.12  # ... and on every single line (a rank full of pieces hides most of its line)
_FAINT_SUPPORT = 0.55  # mean line support accepted when the lines stand out from the squares' middles ...
_MID_GAP = 0.2  # ... by this much in both directions
_PARITY_GAP = 0.3  # the odd and even lines of a direction may differ this much in mean support ...
_FAINT_PARITY = 0.15  # ... or this much when the support is faint ...
_DOUBLED_GAP = 0.2
"""... or more, unless the grid at twice the spacing through either set of lines stands out from its squares'
middles by less than this (`_doubled_contrast`). On 300 rendered dev frames (training styles, random poses), the
true grids whose odd and even lines differ by over 0.2 (39 directions, up to 0.4: pieces standing on every other
rank hide the line behind them) gave at most 0.18; grids at half the true spacing (1,735 directions with a gap over
0.15, three placements on each frame) at least 0.22, median 0.5. Tried on 2026-11-28 and not kept: also asking the
grid at twice the spacing for a mean line support of 0.65 (dev frame 50038, the start position at 40 degrees,
true grid refused with a contrast of 0.20 and that grid's support 0.52; half-spaced grids 0.73-0.84). It accepted
a half-spaced grid on a board cut by the picture's edge (`test_board_cut_by_frame_edge_not_found`), and counting
only the points inside the picture gave 50038's 0.86: a board whose pieces hide every other line, its
surroundings out of the picture, looks like half a board cut by the edge. Looked at on 2026-11-29 and not
changed: on 800 dev frames (plain and artwork, start position and steep views, seeds 81/83/91/93), 9 of 318 true
grid directions with a parity gap over 0.15 reach 0.2 (up to 0.32: the start position's hidden lines inside the
board, and the board's rim, a stand or the table's grain beyond it at the odd places), against 3,098 of 4,057
grids at half the spacing. Asking the part of that grid beyond the grid's own lines (inside the picture) to stand
out too, by 0.1 to 0.3, or its lines there to be seen by 0.4 to 0.6, kept 3-9 true directions aliased and let 13 to
409 more half-spaced ones through: beyond the board, too, something often looks like every other line."""
_TRUSTED = 0.85  # outline candidates are not tried after a grid this well supported from the lines
_GOOD_ENOUGH = 0.9  # stop trying candidates once a grid is supported this well
_TIE = 0.025  # a grid moved one line whose mean line support is this close is decided by the board's edge
# (on the full-size picture a move must beat the grid by more; a tie taken by `_best_shift` put dev frame 500102,
# the start position in kanji_red_wood, one rank off)
_REFINE = 0.58  # a refused grid this well supported at full scale is nudged onto its lines and judged again
_WORTH_VERIFYING = 0.5  # a grid this well supported at the working scale is judged on the full-scale picture
_RELATTICE_MOVES = range(-3, 4)  # lines a poorly supported grid is tried moved by (`_relatticed`)
_RELATTICE_STARTS = range(-10, 2)
"""Where the grid on every other line of a poorly supported grid may start (`_relatticed`), in its lines: -9..0
keeps all of the grid inside it; one more on either side lets it reach a line past the real board's edge, where a
grid found at half the spacing can have been polished onto the rim (dev frame 72160, 32 degrees: the real grid
starts at +1; not found with -9..0)."""
_BORDER = 0.03  # of the longer side: the plain border a picture cut at its grid lines is searched in
_MAX_ASPECT = 3.0  # a grid's across and along sizes differ by at most this factor (`plausible_shape`)
RECHECK_RATIO = 0.75
"""Fraction of a known grid's support (`BoardGeometry.support`) that a later picture from the same camera must keep
(`check_board`) for the grid to be reused there instead of searched for afresh."""


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
    """The best-supported 9×9 grid in the image, or None when no candidate looks like a board. A picture cut at
    (or through) its outer grid lines, where a dark line hugs an edge (`vision.cut_edges`), is searched again
    inside a plain border of its median gray if the picture itself gives no grid (`_search_bordered`)."""
    gray = to_gray(image)
    if min(gray.shape[:2]) < 64:
        return None
    found = _search(gray)
    if found is not None or not lined_edge(gray):
        return found
    return _search_bordered(gray)


def _search_bordered(gray: Image) -> BoardGeometry | None:
    """`_search` of the picture inside a plain border (`_BORDER` of its longer side, its median gray): the cut
    outer lines are then seen against something beside them. The grid comes back in the picture's own pixels,
    with the support that `check_board` measures there, so that later frames are compared with like."""
    pad = max(4, round(_BORDER * max(gray.shape[:2])))
    bordered = cv2.copyMakeBorder(gray, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=float(np.median(gray)))
    found = _search(bordered)
    if found is None:
        return None
    corners = found.corners - pad
    return BoardGeometry(corners, check_board(gray, BoardGeometry(corners, 1.0)))


def _search(gray: Image) -> BoardGeometry | None:
    """The best-supported 9×9 grid in a gray picture (`find_board` without the bordered search)."""
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
        corners, fractions, doubled = _polished(small, found)
        if scale < 1:  # (a grid `_doubled` left alone is not aliased: only a replaced one is checked again)
            aliased = doubled and _aliased(small, corners, fractions, _PARITY_GAP)
            if float(fractions.mean()) < _WORTH_VERIFYING or aliased:
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
    moved, fractions = _best_shift(gray, _clockwise(corners), _TIE)
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


def _polished(small: Image, found: FloatArray) -> tuple[FloatArray, FloatArray, bool]:
    """A rough grid polished (`_polish`), replaced by the grid at twice its spacing if it was found at half the
    real spacing (then True), or moved along its lattice if it is fairly but not well supported
    (`_relatticed`). Found at half the spacing means aliased (`_doubled`) and the grid at twice the spacing,
    polished, at least as well supported: beside a board on tatami, whose stripes run along one set of lines, the
    grid at twice the real spacing can stand out from its middles as a real one does, but half of it lies on the
    mat and its mean support falls (dev frame 71280, 34 degrees: the real grid 0.73, doubled 0.52-0.58, a wrong
    grid found). Asking the same of `_aliased` (which judges every grid accepted) was tried and not kept: on 1,800
    dev frames (steep views of game positions, and the start and flipped positions) it found one more grid and
    placed three more wrong."""
    corners, fractions = _polish(small, _clockwise(found))
    doubled = _doubled(small, corners, fractions, _PARITY_GAP)
    if doubled is not None:  # found at half the real spacing: the real grid is the one at twice the spacing ...
        twice, twice_fractions = _polish(small, _clockwise(doubled))
        if twice_fractions.mean() >= fractions.mean():  # ... whose lines are then the better seen
            return twice, twice_fractions, True
    if float(fractions.mean()) >= _WORTH_VERIFYING and not supported(fractions):
        corners, fractions = _relatticed(small, corners, fractions)
    return corners, fractions, False


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
    real spacing, nor one not shaped like a board (`plausible_shape`)."""
    if not plausible_shape(corners) or _aliased(small, corners, fractions, _PARITY_GAP):
        return False
    if supported(fractions):
        return True
    faint_ok = float(fractions.mean()) >= _FAINT_SUPPORT and float(fractions.min()) >= MIN_LINE
    if not faint_ok or _aliased(small, corners, fractions, _FAINT_PARITY):
        return False
    homography = cv2.getPerspectiveTransform(GRID_CORNERS.astype(np.float32), corners.astype(np.float32))
    for axis in (0, 1):
        half = GRID_CORNERS + np.array([0.5, 0.0] if axis else [0.0, 0.5])
        moved = cv2.perspectiveTransform(half.reshape(-1, 1, 2), homography).reshape(4, 2).astype(np.float64)
        lines = slice(10 * axis, 10 * axis + 9)
        if float(fractions[lines].mean()) - float(line_fractions(small, moved)[lines].mean()) < _MID_GAP:
            return False
    return True


def plausible_shape(corners: FloatArray) -> bool:
    """Whether a grid's size across the files and along them (means of its opposite sides, pixels) are within
    `_MAX_ASPECT` of each other: a board seen within 45 degrees of overhead always is. A grid folded onto one file,
    its ten lines on that file's two (an outline candidate on dev frame 85048, 42 degrees, line support 0.75
    against the true grid's 0.69), is not."""
    sides = np.linalg.norm(corners - np.roll(corners, -1, axis=0), axis=1)
    across, along = (sides[0] + sides[2]) / 2, (sides[1] + sides[3]) / 2
    return bool(min(across, along) * _MAX_ASPECT >= max(across, along))


def _aliased(gray: Image, corners: FloatArray, fractions: FloatArray, gap: float) -> bool:
    """True when, in either direction, every other line is seen much worse than the rest (by more than `gap`) and
    the grid at twice the spacing there is a grid: a grid at half the real spacing, whose odd "lines" cross the
    squares. Pieces hide every other line too (a view along the files of the start position: the pieces on ranks
    a, c, g and i each hide the line behind them); then the grid at twice the spacing runs off the board."""
    return _doubled(gray, corners, fractions, gap) is not None


def _doubled(gray: Image, corners: FloatArray, fractions: FloatArray, gap: float) -> FloatArray | None:
    """The corners of the grid at twice the spacing (`_doubled_grid`) in the first direction where the grid
    looks aliased (see `_aliased`), or None."""
    matrix = cv2.getPerspectiveTransform(GRID_CORNERS.astype(np.float32), corners.astype(np.float32))
    homography = np.asarray(matrix, dtype=np.float64)
    for axis in (0, 1):
        lines = fractions[10 * axis : 10 * axis + 10]
        if abs(float(lines[0::2].mean()) - float(lines[1::2].mean())) <= gap:
            continue
        contrast, first = _doubled_grid(gray, homography, axis)
        if contrast >= _DOUBLED_GAP:
            span = (GRID_CORNERS * ([1.0, 2.0] if axis == 0 else [2.0, 1.0])).copy()
            span[:, 1 - axis] += first
            moved = cv2.perspectiveTransform(span.reshape(-1, 1, 2), homography).reshape(4, 2)
            return np.asarray(moved, dtype=np.float64)
    return None


def _doubled_grid(gray: Image, homography: FloatArray, axis: int) -> tuple[float, float]:
    """How well the best-placed grid at twice the spacing in one direction (`axis` 0: the lines y = k, as in
    `line_fractions`) stands out, and where its first line is (in the grid's units). Its lines are at either
    parity of the grid's own, the first up to ten lines before it; placements reaching past the horizon are
    skipped. How well: mean support of its ten lines minus that of the nine halfway between them. At half the
    real spacing that is the real grid, well above its squares' middles; at the real spacing, half its lines are
    beyond the board, no better than their middles."""
    positions = np.arange(-10.0, 20.0)
    pts, aside = axis_lines(positions, axis, 2 * LINE_OFF)
    seen: NDArray[np.bool_] = np.all(in_front(homography, pts).reshape(len(positions), -1), axis=1)
    line_like = looks_like_line(gray, homography, pts, aside).reshape(len(positions), -1).mean(axis=1)
    best = (-1.0, 0.0)
    for first in range(12):  # the first line at positions[first]: -10 .. 1
        lines, middles = first + 2 * np.arange(10), first + 1 + 2 * np.arange(9)
        if seen[lines].all() and seen[middles].all():
            contrast = float(line_like[lines].mean() - line_like[middles].mean())
            best = max(best, (contrast, float(positions[first])))
    return best


def _relatticed(gray: Image, corners: FloatArray, fractions: FloatArray) -> tuple[FloatArray, FloatArray]:
    """A poorly supported grid, or the best-supported grid on its lattice: in each direction its own lines moved
    by up to `_RELATTICE_MOVES` lines, or every other one of its lines from any start in `_RELATTICE_STARTS` (it
    was found at half the real spacing, which a steep view of pieces on every other rank can hide from
    `_doubled`'s parity test: the lines halfway cross the pieces). A candidate must beat the grid in mean support
    with no line under `MIN_LINE`; whether it is a board is judged afterwards, as any candidate is."""
    homography = cv2.getPerspectiveTransform(GRID_CORNERS.astype(np.float32), corners.astype(np.float32))
    spans = [(1.0, float(b)) for b in _RELATTICE_MOVES] + [(2.0, float(b)) for b in _RELATTICE_STARTS]
    best = (corners, fractions)
    for scale_x, start_x in spans:
        for scale_y, start_y in spans:
            if (scale_x, start_x, scale_y, start_y) == (1.0, 0.0, 1.0, 0.0):
                continue  # the grid itself
            grid = GRID_CORNERS * [scale_x, scale_y] + [start_x, start_y]
            moved = cv2.perspectiveTransform(grid.reshape(-1, 1, 2), homography).reshape(4, 2).astype(np.float64)
            trial = line_fractions(gray, moved)
            if trial.mean() > best[1].mean() and trial.min() >= MIN_LINE:
                best = (moved, trial)
    return best


def _clockwise(corners: FloatArray) -> FloatArray:
    """The corners in clockwise order on screen (a mirrored rectified view gives them anticlockwise), starting
    from the one nearest the picture's top-left (as the outline candidates do)."""
    x, y = corners[:, 0], corners[:, 1]
    area = float(np.dot(x, np.roll(y, -1)) - np.dot(np.roll(x, -1), y))
    ordered = corners if area > 0 else corners[[0, 3, 2, 1]]
    return np.roll(ordered, -int(np.argmin(ordered.sum(axis=1))), axis=0)


def _best_shift(gray: Image, corners: FloatArray, margin: float = 0.0) -> tuple[FloatArray, FloatArray]:
    """The grid, or the grid moved by one line along either axis, whichever has the best line support (the
    equal-spacing search can take the board's rim for the outer line and miss the real one); a move must beat
    the grid where it is in its weakest line and by `margin` in mean support."""
    homography = cv2.getPerspectiveTransform(GRID_CORNERS.astype(np.float32), corners.astype(np.float32))
    here = line_fractions(gray, corners)
    best = (corners, here)
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            if dx == dy == 0:
                continue
            moved = (GRID_CORNERS + np.array([dx, dy], dtype=np.float64)).reshape(-1, 1, 2)
            candidate = cv2.perspectiveTransform(moved, homography).reshape(4, 2).astype(np.float64)
            fractions = line_fractions(gray, candidate)
            if fractions.mean() <= here.mean() + margin:
                continue
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


def supported(fractions: FloatArray) -> bool:
    """True when the grid lines are seen well enough to call it a board (every line, not just most)."""
    return float(fractions.mean()) >= MIN_SUPPORT and float(fractions.min()) >= MIN_LINE
