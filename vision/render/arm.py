"""A hand and forearm reaching over the board: drawn in the picture (skin, then a sleeve), its shadow on the
board plane, and which squares (and stands) it hides.

The arm is a tapered band in 3D above the board (fingertips at `Arm.tip_mm`, `Arm.height_mm` up, rising towards
the shoulder), projected through the camera, so it is bigger and more perspective-bent than the board.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.render.board import SHIFT, Plane
from vision.render.geometry import (
    BOARD_MARGIN_MM,
    GRID_H_MM,
    GRID_W_MM,
    SQUARE_H_MM,
    SQUARE_W_MM,
    Camera,
    apply_homography,
)
from vision.render.pieces import Light
from vision.render.scene import Arm

SKINS_BGR = ((120, 150, 205), (95, 130, 190), (70, 100, 150), (140, 170, 220), (60, 80, 120))
CLOTHS_BGR = ((40, 40, 40), (150, 90, 40), (200, 200, 200), (60, 60, 140), (90, 120, 90), (30, 30, 80))
WRIST_MM = 190.0
ARM_LENGTH_MM = 900.0


def random_arm(rng: np.random.Generator, camera: Camera) -> Arm:
    """An arm reaching from a random side, its fingertips seen over a random point of the grid (placed on the
    camera ray through that point, so the hand covers part of the board whatever the pose)."""
    seen = np.array([rng.uniform(20, GRID_W_MM - 20), rng.uniform(20, GRID_H_MM - 20)])
    height = float(min(rng.uniform(40, 160), 0.4 * abs(camera.centre[2])))
    foot = np.array(camera.foot())
    tip = foot + (seen - foot) / camera.parallax(height)
    return Arm((float(tip[0]), float(tip[1])), float(rng.uniform(0, 360)), height, float(rng.uniform(75, 100)))


def _frame(arm: Arm) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Fingertip point, unit direction towards the shoulder, and unit normal across the hand (board mm)."""
    a = math.radians(arm.from_deg)
    d = np.array([math.sin(a), math.cos(a)])
    return np.array(arm.tip_mm, dtype=float), d, np.array([-d[1], d[0]])


def _band(arm: Arm, s0: float, s1: float, widths: tuple[float, float]) -> np.ndarray:
    """3D outline (Nx3 mm) of the tapered band between distances s0 and s1 from the fingertips, rising 0.3 mm
    per mm towards the shoulder."""
    tip, d, n = _frame(arm)
    s = np.linspace(s0, s1, 16)
    w = np.interp(s, [s0, s1], widths)
    axis = tip[None, :] + s[:, None] * d[None, :]
    z = -(arm.height_mm + 0.3 * s)
    left = np.column_stack([axis + n * (w[:, None] / 2), z])
    right = np.column_stack([axis - n * (w[:, None] / 2), z])
    return np.concatenate([left, right[::-1]])


def _capsule(arm: Arm, a: tuple[float, float], b: tuple[float, float], radius: float) -> np.ndarray:
    """3D outline of a finger: a capsule between hand coordinates a and b (mm along the arm from the fingertips,
    mm across), the tip end dipping towards the board."""
    tip, d, n = _frame(arm)
    pa, pb = tip + a[0] * d + a[1] * n, tip + b[0] * d + b[1] * n
    axis = (pb - pa) / max(float(np.linalg.norm(pb - pa)), 1e-6)
    side = np.array([-axis[1], axis[0]])
    turn = np.linspace(-math.pi / 2, math.pi / 2, 7)
    cap_b = pb + radius * (np.cos(turn)[:, None] * axis + np.sin(turn)[:, None] * side)
    cap_a = pa - radius * (np.cos(turn)[:, None] * axis + np.sin(turn)[:, None] * side)
    ring = np.concatenate([cap_b, cap_a])
    along = (ring - tip) @ d
    z = -(arm.height_mm + 0.3 * along - 12.0 * np.clip(1 - along / 60.0, 0, 1))
    return np.column_stack([ring, z])


def _hand_outlines(arm: Arm) -> list[tuple[np.ndarray, str]]:
    """Palm, four fingers and a thumb (skin), then the sleeved forearm (cloth)."""
    w = arm.width_mm
    parts = [(_band(arm, 55.0, WRIST_MM, (w, w * 0.8)), "skin")]
    for offset, length in ((-0.36, 28.0), (-0.12, 8.0), (0.12, 0.0), (0.36, 14.0)):
        parts.append((_capsule(arm, (75.0, offset * w), (length + w * 0.1, offset * w * 1.1), w * 0.11), "skin"))
    parts.append((_capsule(arm, (120.0, 0.5 * w), (62.0, 0.72 * w), w * 0.12), "skin"))
    parts.append((_band(arm, WRIST_MM - 20, ARM_LENGTH_MM, (w * 0.95, w * 1.5)), "cloth"))
    return parts


def arm_parts(arm: Arm, camera: Camera) -> list[tuple[np.ndarray, str]]:
    """The arm's 3D outlines and their material, kept well below and in front of the camera (a real arm would
    not reach past the lens)."""
    parts = []
    for shape, material in _hand_outlines(arm):
        shape[:, 2] = np.maximum(shape[:, 2], 0.6 * camera.centre[2])
        depth = (shape - camera.centre) @ camera.rotation[2]
        keep = depth >= 0.2 * abs(camera.centre[2])
        if keep.sum() >= 6:
            parts.append((shape[keep], material))
    return parts


def draw_arm_shadow(shadow: np.ndarray, plane: Plane, camera: Camera, arm: Arm, light: Light) -> None:
    """Add the arm's shadow (projected along the light onto the board) to the plane's shadow layer."""
    for outline, _ in arm_parts(arm, camera):
        height = -outline[:, 2]
        flat = outline[:, :2] + np.column_stack([light.dx, light.dy]) * (height * light.shadow_per_mm)[:, None]
        px = np.round(plane.to_px(flat) * (1 << SHIFT)).astype(np.int64).clip(-(2**26), 2**26).astype(np.int32)
        cv2.fillPoly(shadow, [px], 217, cv2.LINE_AA, SHIFT)


def draw_arm(image: np.ndarray, camera: Camera, arm: Arm, rng: np.random.Generator) -> np.ndarray:
    """Paint the arm over the picture in place; returns its coverage mask (uint8, 255 = covered)."""
    h, w = image.shape[:2]
    skin = np.array(SKINS_BGR[int(rng.integers(len(SKINS_BGR)))]) * rng.uniform(0.9, 1.1, 3)
    cloth = np.array(CLOTHS_BGR[int(rng.integers(len(CLOTHS_BGR)))]) * rng.uniform(0.85, 1.15, 3)
    colour = np.zeros((h, w, 3), np.uint8)
    mask = np.zeros((h, w), np.uint8)
    for outline, material in reversed(arm_parts(arm, camera)):
        pts = [np.round(camera.project(outline) * (1 << SHIFT)).clip(-(2**26), 2**26).astype(np.int32)]
        fill = skin if material == "skin" else cloth
        cv2.fillPoly(colour, pts, tuple(float(c) for c in fill), cv2.LINE_AA, SHIFT)
        cv2.polylines(colour, pts, True, tuple(float(c) * 0.7 for c in fill), 2, cv2.LINE_AA, SHIFT)
        cv2.fillPoly(mask, pts, 255, cv2.LINE_AA, SHIFT)
    ys, xs = np.nonzero(mask[::4, ::4])
    if len(xs) == 0:
        return mask
    y0, y1 = max(0, ys.min() * 4 - 4), min(h, ys.max() * 4 + 8)
    x0, x1 = max(0, xs.min() * 4 - 4), min(w, xs.max() * 4 + 8)
    box = (slice(y0, y1), slice(x0, x1))
    shade = _soft(mask[box], max(2.0, 0.02 * max(h, w)))  # rounded limbs: darker towards the outline
    lit = cv2.multiply(colour[box], cv2.cvtColor(shade, cv2.COLOR_GRAY2BGR), scale=1.0 / 255.0)
    cv2.copyTo(lit, cv2.threshold(mask[box], 127, 255, cv2.THRESH_BINARY)[1], image[box])
    return mask


def _soft(mask: np.ndarray, sigma: float) -> np.ndarray:
    """Shading factor (uint8, 128 at the outline to 255 inside): the mask blurred by `sigma` pixels, at quarter
    resolution (the shading is smooth)."""
    h, w = mask.shape
    small = cv2.resize(mask, (max(1, w // 4), max(1, h // 4)), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (0, 0), sigma / 4)
    small = cv2.addWeighted(small, 0.5, small, 0.0, 127.5)
    out: np.ndarray = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
    return out


def covered_squares(mask: np.ndarray, camera: Camera) -> frozenset[int]:
    """SFEN indices of the squares any part of which lies under the mask."""
    small = cv2.resize(mask, (mask.shape[1] // 2, mask.shape[0] // 2), interpolation=cv2.INTER_AREA)
    ys, xs = np.nonzero(small)
    if len(xs) == 0:
        return frozenset()
    pts = np.column_stack([xs * 2.0 + 0.5, ys * 2.0 + 0.5])
    board = apply_homography(np.linalg.inv(camera.homography()), pts)
    col = np.floor(board[:, 0] / SQUARE_W_MM).astype(int)
    row = np.floor(board[:, 1] / SQUARE_H_MM).astype(int)
    inside = (col >= 0) & (col < 9) & (row >= 0) & (row < 9)
    return frozenset(int(v) for v in np.unique(row[inside] * 9 + col[inside]))


def covered_regions(mask: np.ndarray, regions_px: dict[str, np.ndarray]) -> frozenset[str]:
    """Keys of the picture polygons the mask touches."""
    hit = set()
    for key, poly in regions_px.items():
        region = np.zeros(mask.shape, np.uint8)
        cv2.fillPoly(region, [np.round(poly).clip(-(2**20), 2**20).astype(np.int32)], 255)
        if np.any(region & mask):
            hit.add(key)
    return frozenset(hit)


def board_margin_box() -> tuple[float, float, float, float]:
    """The board's wooden edge box in mm (x0, y0, x1, y1)."""
    return (-BOARD_MARGIN_MM, -BOARD_MARGIN_MM, GRID_W_MM + BOARD_MARGIN_MM, GRID_H_MM + BOARD_MARGIN_MM)
