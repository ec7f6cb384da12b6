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


def random_arm(rng: np.random.Generator) -> Arm:
    """An arm reaching for a random point over the board from a random side."""
    tip = (float(rng.uniform(20, GRID_W_MM - 20)), float(rng.uniform(20, GRID_H_MM - 20)))
    return Arm(tip, float(rng.uniform(0, 360)), float(rng.uniform(40, 160)), float(rng.uniform(75, 100)))


def _outline(arm: Arm, s0: float, s1: float, widths: tuple[float, float]) -> np.ndarray:
    """3D outline (Nx3 mm) of the band between distances s0 and s1 from the fingertips."""
    a = math.radians(arm.from_deg)
    d = np.array([math.sin(a), math.cos(a)])
    n = np.array([-d[1], d[0]])
    s = np.linspace(s0, s1, 24)
    w = np.interp(s, [s0, s1], widths)
    if s0 == 0.0:
        w = w * np.sqrt(np.clip(s / 35.0, 0.05, 1.0))
    axis = np.array(arm.tip_mm)[None, :] + s[:, None] * d[None, :]
    z = -(arm.height_mm + 0.3 * s)
    left = np.column_stack([axis + n * (w[:, None] / 2), z])
    right = np.column_stack([axis - n * (w[:, None] / 2), z])
    return np.concatenate([left, right[::-1]])


def arm_parts(arm: Arm, camera: Camera) -> list[tuple[np.ndarray, str]]:
    """The arm's 3D outlines and their material: the hand (skin) then the sleeved forearm, kept well below and
    in front of the camera (a real arm would not reach past the lens)."""
    parts = []
    for s0, s1, widths, material in (
        (0.0, WRIST_MM, (arm.width_mm * 0.85, arm.width_mm), "skin"),
        (WRIST_MM - 20, ARM_LENGTH_MM, (arm.width_mm * 0.95, arm.width_mm * 1.5), "cloth"),
    ):
        outline = _outline(arm, s0, s1, widths)
        outline[:, 2] = np.maximum(outline[:, 2], 0.6 * camera.centre[2])
        depth = (outline - camera.centre) @ camera.rotation[2]
        if depth.min() < 0.2 * abs(camera.centre[2]):
            keep = depth >= 0.2 * abs(camera.centre[2])
            if keep.sum() < 6:
                continue
            outline = outline[keep]
        parts.append((outline, material))
    return parts


def draw_arm_shadow(shadow: np.ndarray, plane: Plane, camera: Camera, arm: Arm, light: Light) -> None:
    """Add the arm's shadow (projected along the light onto the board) to the plane's shadow layer."""
    for outline, _ in arm_parts(arm, camera):
        height = -outline[:, 2]
        flat = outline[:, :2] + np.column_stack([light.dx, light.dy]) * (height * light.shadow_per_mm)[:, None]
        px = np.round(plane.to_px(flat) * (1 << SHIFT)).astype(np.int64).clip(-(2**26), 2**26).astype(np.int32)
        cv2.fillPoly(shadow, [px], 0.85, cv2.LINE_AA, SHIFT)


def draw_arm(image: np.ndarray, camera: Camera, arm: Arm, rng: np.random.Generator) -> np.ndarray:
    """Paint the arm over the picture in place; returns its coverage mask (uint8, 255 = covered)."""
    h, w = image.shape[:2]
    skin = np.array(SKINS_BGR[int(rng.integers(len(SKINS_BGR)))], np.float32) * rng.uniform(0.9, 1.1, 3)
    cloth = np.array(CLOTHS_BGR[int(rng.integers(len(CLOTHS_BGR)))], np.float32) * rng.uniform(0.85, 1.15, 3)
    colour = np.zeros((h, w, 3), np.float32)
    mask = np.zeros((h, w), np.uint8)
    for outline, material in reversed(arm_parts(arm, camera)):
        px = camera.project(outline)
        pts = np.round(px * (1 << SHIFT)).clip(-(2**26), 2**26).astype(np.int32)
        part = np.zeros((h, w), np.uint8)
        cv2.fillPoly(part, [pts], 255, cv2.LINE_AA, SHIFT)
        colour[part > 0] = skin if material == "skin" else cloth
        np.maximum(mask, part, out=mask)
    if not mask.any():
        return mask
    sigma = max(2.0, 0.02 * max(h, w))
    soft = cv2.GaussianBlur(mask, (0, 0), sigma).astype(np.float32) / 255.0
    shade = (0.5 + 0.5 * soft)[..., None]
    alpha = (mask.astype(np.float32) / 255.0)[..., None]
    out = image.astype(np.float32) * (1 - alpha) + colour * shade * alpha
    image[:] = np.clip(out, 0, 255).astype(np.uint8)
    return mask


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
