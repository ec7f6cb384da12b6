"""The robot's XY gantry when it is in view: a bridge across the board on two rails, the head on the bridge and
the gripper tube below it, as solid boxes above the board (drawn in the picture, shadows on the board plane).

A `Gantry` in a `Scene` puts the head above `head_mm`; pieces lifted by the gripper are drawn by the caller as
lifted `PlacedPiece`s at the same spot. The boxes hide squares like the arm does.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.render.board import SHIFT, Plane
from vision.render.geometry import GRID_H_MM, GRID_W_MM, Camera
from vision.render.pieces import Light
from vision.render.scene import Gantry

ALUMINIUM = (172.0, 170.0, 166.0)
BLACK = (44.0, 42.0, 40.0)
GRIPPER_BOTTOM_MM = 55.0
"""Height of the gripper tube's lower end (a lifted piece hangs just below it)."""


def _box(xs: tuple[float, float], ys: tuple[float, float], heights: tuple[float, float]) -> np.ndarray:
    """8 corners (mm; heights above the board, stored as negative z) of an axis-aligned box, lower face first."""
    return np.array([(x, y, -z) for z in heights for y in ys for x in xs], dtype=np.float64)


def gantry_boxes(gantry: Gantry) -> list[tuple[np.ndarray, tuple[float, float, float]]]:
    """The gantry's boxes with their colours, lowest first (later ones are nearer the camera)."""
    x, y = gantry.head_mm
    h = gantry.height_mm
    boxes = []
    if h > GRIPPER_BOTTOM_MM:
        boxes.append((_box((x - 9, x + 9), (y - 9, y + 9), (GRIPPER_BOTTOM_MM, h)), ALUMINIUM))
    boxes.append((_box((x - 32, x + 32), (y - 32, y + 32), (h, h + 70)), BLACK))
    if gantry.rails:
        for rx in (-95.0, GRID_W_MM + 95.0):
            boxes.append((_box((rx - 15, rx + 15), (-120, GRID_H_MM + 120), (h + 70, h + 100)), ALUMINIUM))
    boxes.append((_box((-110, GRID_W_MM + 110), (y - 22, y + 22), (h + 70, h + 100)), ALUMINIUM))
    return boxes


def _visible(corners: np.ndarray, camera: Camera) -> np.ndarray | None:
    """The corners kept below and in front of the camera (clamped), or None if the box is behind it."""
    pts = corners.copy()
    pts[:, 2] = np.maximum(pts[:, 2], 0.6 * camera.centre[2])
    depth = (pts - camera.centre) @ camera.rotation[2]
    return pts if depth.min() > 0.1 * abs(camera.centre[2]) else None


def draw_gantry(image: np.ndarray, camera: Camera, gantry: Gantry) -> np.ndarray:
    """Paint the gantry over the picture in place; returns its coverage mask (uint8, 255 = covered)."""
    mask = np.zeros(image.shape[:2], np.uint8)
    for corners, colour in gantry_boxes(gantry):
        pts = _visible(corners, camera)
        if pts is None:
            continue
        px = camera.project(pts)
        hull = cv2.convexHull(np.round(px * (1 << SHIFT)).clip(-(2**26), 2**26).astype(np.int32))
        top = np.round(px[[4, 5, 7, 6]] * (1 << SHIFT)).clip(-(2**26), 2**26).astype(np.int32)
        cv2.fillPoly(image, [hull], tuple(c * 0.7 for c in colour), cv2.LINE_AA, SHIFT)
        cv2.fillPoly(image, [top], colour, cv2.LINE_AA, SHIFT)
        cv2.fillPoly(mask, [hull], 255, cv2.LINE_AA, SHIFT)
    return mask


def draw_gantry_shadow(shadow: np.ndarray, plane: Plane, camera: Camera, gantry: Gantry, light: Light) -> None:
    """Add the gantry's shadow (each box cast along the light onto the board) to the plane's shadow layer."""
    fall = np.array([light.dx, light.dy]) * light.shadow_per_mm
    for corners, _ in gantry_boxes(gantry):
        pts = _visible(corners, camera)
        if pts is None:
            continue
        flat = pts[:, :2] + (-pts[:, 2])[:, None] * fall[None, :]
        hull = cv2.convexHull(np.round(plane.to_px(flat) * (1 << SHIFT)).clip(-(2**26), 2**26).astype(np.int32))
        cv2.fillPoly(shadow, [hull], 200, cv2.LINE_AA, SHIFT)
