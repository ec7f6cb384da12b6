"""Proposing where the grid lies from its lines alone (no board outline needed).

Long thin dark segments are found (black-hat, probabilistic Hough); the two pencils of grid lines meet at two
vanishing points, found by consensus over pairs of segments. Sending both vanishing points to infinity removes
the perspective (an affine view is left, in which the grid's lines are parallel and equally spaced); an affine
map then turns the two line directions onto the axes. `rectifying_views` returns, for each plausible pair of
vanishing points, the homography from such an axis-aligned rectified image to the frame: `vision.board` then
looks for ten equally spaced lines in each direction there. Works when the board's outline is cut by the frame
edge, hidden, or absent (a picture cropped to the grid).
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

FloatArray = NDArray[np.float64]

_MAX_SEGMENTS = 60  # longest segments kept for the vanishing-point search
_ANGLE_TOL = 0.02  # radians: a segment points at a vanishing point within this
_MIN_FAMILY = 6  # segments a pencil of grid lines needs
_MIN_CROSSING = np.deg2rad(25)  # the two pencils cross at least at this angle
_SAME_LINE = 1e-6  # two segments' lines whose cross product is this small are one line
_MIN_HORIZON = 0.55  # the vanishing line lies at least this far from the picture centre (picture side = 1)


def line_segments(gray: NDArray[Any]) -> FloatArray:
    """Long thin dark segments (N×4: x1, y1, x2, y2), longest first."""
    hat = cv2.morphologyEx(gray, cv2.MORPH_BLACKHAT, np.ones((5, 5), np.uint8))
    level, _ = cv2.threshold(hat, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    binary = (hat > max(8.0, level)).astype(np.uint8) * 255
    found = cv2.HoughLinesP(binary, 1, np.pi / 360, 40, minLineLength=max(gray.shape[:2]) // 12, maxLineGap=6)
    if found is None:
        return np.zeros((0, 4))
    segs = found.reshape(-1, 4).astype(np.float64)
    lengths = np.hypot(segs[:, 2] - segs[:, 0], segs[:, 3] - segs[:, 1])
    return np.asarray(segs[np.argsort(-lengths)][:_MAX_SEGMENTS], dtype=np.float64)


def _lines(segs: FloatArray) -> FloatArray:
    """Homogeneous lines through the segments (unit normal)."""
    p = np.column_stack([segs[:, :2], np.ones(len(segs))])
    q = np.column_stack([segs[:, 2:], np.ones(len(segs))])
    lines = np.cross(p, q)
    return np.asarray(lines / np.maximum(np.hypot(lines[:, 0], lines[:, 1]), 1e-9)[:, None], dtype=np.float64)


def _pointing_error(segs: FloatArray, vps: FloatArray) -> FloatArray:
    """Angle (radians, 0..π/2) between each segment and the direction from its middle to each vanishing point
    (vps K×3 homogeneous; result K×N)."""
    mid = (segs[:, :2] + segs[:, 2:]) / 2
    direction = segs[:, 2:] - segs[:, :2]
    direction /= np.maximum(np.linalg.norm(direction, axis=1, keepdims=True), 1e-9)
    to_vp = vps[:, None, :2] - mid[None, :, :] * vps[:, None, 2:3]
    to_vp /= np.maximum(np.linalg.norm(to_vp, axis=2, keepdims=True), 1e-12)
    sine = np.abs(direction[None, :, 0] * to_vp[..., 1] - direction[None, :, 1] * to_vp[..., 0])
    return np.asarray(np.arcsin(np.clip(sine, 0.0, 1.0)), dtype=np.float64)


def vanishing_points(segs: FloatArray, wanted: int = 3) -> list[tuple[FloatArray, NDArray[np.bool_]]]:
    """Up to `wanted` vanishing points (unit homogeneous 3-vectors) with their inlier masks, best supported
    first; each found by trying every pair of remaining segments and keeping the point most segments (by
    length) point at, then refined by least squares over its inliers."""
    lines = _lines(segs)
    lengths = np.hypot(segs[:, 2] - segs[:, 0], segs[:, 3] - segs[:, 1])
    free = np.ones(len(segs), dtype=bool)
    found: list[tuple[FloatArray, NDArray[np.bool_]]] = []
    while len(found) < wanted and free.sum() >= _MIN_FAMILY:
        idx = np.flatnonzero(free)
        a, b = np.triu_indices(len(idx), 1)
        vps = np.cross(lines[idx[a]], lines[idx[b]])
        norms = np.linalg.norm(vps, axis=1, keepdims=True)
        vps /= np.maximum(norms, 1e-12)
        # two segments on one line (a grid line broken by a piece) meet nowhere: their "point" is the null
        # vector, at which every segment would seem to point
        inliers = (_pointing_error(segs[idx], vps) < _ANGLE_TOL) & (norms > _SAME_LINE)
        best = int(np.argmax(inliers.astype(np.float64) @ lengths[idx]))
        members = np.zeros(len(segs), dtype=bool)
        members[idx[inliers[best]]] = True
        if members.sum() < _MIN_FAMILY:
            break
        _, _, vt = np.linalg.svd(lines[members] * lengths[members, None])
        vp = vt[-1] / np.linalg.norm(vt[-1])
        found.append((np.asarray(vp, dtype=np.float64), members))
        free &= ~members
    return found


def rectifying_views(gray: NDArray[Any], size: int, pad: int) -> list[FloatArray]:
    """Homographies from a `size`-pixel square rectified view to the frame, one per plausible pair of grid-line
    pencils, with the lines' extent (both pencils' segments) fitted inside `pad` pixels of margin."""
    segs = line_segments(gray)
    if len(segs) < 2 * _MIN_FAMILY:
        return []
    h, w = gray.shape[:2]
    centre = np.array([[1.0, 0.0, -w / 2], [0.0, 1.0, -h / 2], [0.0, 0.0, max(h, w)]]) / max(h, w)
    pencils = vanishing_points(segs)
    views = []
    for i in range(len(pencils)):
        for j in range(i + 1, len(pencils)):
            view = _view(segs, centre, pencils[i], pencils[j], size=size, pad=pad)
            if view is not None:
                views.append(view)
    return views


def _view(
    segs: FloatArray,
    centre: FloatArray,
    first: tuple[FloatArray, NDArray[np.bool_]],
    second: tuple[FloatArray, NDArray[np.bool_]],
    *,
    size: int,
    pad: int,
) -> FloatArray | None:
    """Rectified-view-to-frame homography for two pencils, or None when they do not look like a grid."""
    v1, v2 = centre @ first[0], centre @ second[0]
    horizon = np.cross(v1, v2)
    if abs(horizon[2]) < _MIN_HORIZON * np.hypot(horizon[0], horizon[1]):
        return None  # the vanishing line crosses (or nears) the picture: not a board lying before the camera
    horizon = horizon / horizon[2]
    flatten = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [horizon[0], horizon[1], 1.0]])
    d1, d2 = (flatten @ v1)[:2], (flatten @ v2)[:2]
    d1, d2 = d1 / np.linalg.norm(d1), d2 / np.linalg.norm(d2)
    if abs(float(d1[0] * d2[1] - d1[1] * d2[0])) < np.sin(_MIN_CROSSING):
        return None
    # family 1 runs along d1 (it becomes the horizontal lines), family 2 along d2 (vertical)
    axes = np.eye(3)
    axes[:2, :2] = np.linalg.inv(np.column_stack([d1, d2]))
    to_view = axes @ flatten @ centre
    members = first[1] | second[1]
    pts = np.concatenate([segs[members, :2], segs[members, 2:]])
    mapped = cv2.perspectiveTransform(pts.reshape(-1, 1, 2), to_view).reshape(-1, 2)
    lo, hi = mapped.min(axis=0), mapped.max(axis=0)
    if (hi - lo).min() <= 1e-9:
        return None
    fit = np.diag([(size - 2 * pad) / (hi[0] - lo[0]), (size - 2 * pad) / (hi[1] - lo[1]), 1.0])
    fit[:2, 2] = pad - lo * np.diag(fit)[:2]
    return np.asarray(np.linalg.inv(fit @ to_view), dtype=np.float64)
