"""What is around the board: the table (cloth, wood, tatami or a dark surface) a board-thickness below the board's
top, the soft shadow the board and stands throw on it, and the board's and stands' sides where the camera sees
them. Drawn straight into the picture (the table at low resolution, it is out of interest), before the board top.
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from vision.render.board import VISIBLE_LIMIT_MM, BoardLook, board_corners_mm, plan_plane, stand_corners_mm
from vision.render.geometry import Camera
from vision.render.wood import WoodLook, smooth_noise, wood_texture

TABLE_DETAIL = 0.15
"""Table canvas resolution relative to the picture."""


def table_homography(camera: Camera, depth_mm: float) -> np.ndarray:
    """Table-plane mm (`depth_mm` below the board's top) to picture pixels."""
    r = camera.rotation
    t = -r @ camera.centre + depth_mm * r[:, 2]
    h: np.ndarray = camera.intrinsics @ np.column_stack([r[:, 0], r[:, 1], t])
    out: np.ndarray = h / h[2, 2]
    return out


def draw_background(
    rng: np.random.Generator,
    camera: Camera,
    size: tuple[int, int],
    *,
    look: BoardLook,
    stands: bool,
    light: tuple[float, float],
) -> np.ndarray:
    """The picture of the table with the board's and stands' shadows and sides (uint8 BGR)."""
    depth = look.thickness_mm
    lowered = Camera(camera.rotation, camera.centre + np.array([0.0, 0.0, -depth]), camera.intrinsics)
    plane = plan_plane(lowered, size, VISIBLE_LIMIT_MM, detail=TABLE_DETAIL)
    texture = _table_texture(rng, look, plane.height, plane.width, plane.scale)
    tops = [board_corners_mm()] + ([stand_corners_mm("b"), stand_corners_mm("w")] if stands else [])
    shade = np.zeros((plane.height, plane.width), np.float32)
    offset = np.array(light) * depth
    for corners in tops:
        cv2.fillPoly(shade, [np.round(plane.to_px(corners + offset) * 16).astype(np.int32)], 1.0, cv2.LINE_AA, 4)
    soft = cv2.GaussianBlur(shade, (0, 0), max(1.0, 0.25 * depth * plane.scale + 2 * plane.scale))
    texture = texture * (1.0 - 0.45 * soft)[..., None]
    h = table_homography(camera, depth) @ np.linalg.inv(plane.mm_to_px())
    bgra = cv2.cvtColor(np.clip(texture, 0, 255).astype(np.uint8), cv2.COLOR_BGR2BGRA)  # 4 channels warp faster
    seen = cv2.warpPerspective(bgra, h, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    image: np.ndarray = cv2.cvtColor(seen, cv2.COLOR_BGRA2BGR)
    side = np.array(look.board_wood.base_bgr) * 0.7
    for i, corners in enumerate(tops):
        colour = side if i == 0 else np.array(look.stand_wood.base_bgr) * 0.7
        _draw_sides(image, camera, corners, depth, colour)
    return image


def _draw_sides(image: np.ndarray, camera: Camera, corners: np.ndarray, depth: float, colour: np.ndarray) -> None:
    """Fill the vertical faces of a block whose top is `corners` (z = 0) and bottom `depth` below."""
    top = np.column_stack([corners, np.zeros(4)])
    bottom = np.column_stack([corners, np.full(4, depth)])
    for i in range(4):
        j = (i + 1) % 4
        quad = np.array([top[i], top[j], bottom[j], bottom[i]])
        if ((quad - camera.centre) @ camera.rotation[2] <= 1.0).any():
            continue
        px = camera.project(quad)
        shade = 0.75 + 0.25 * (i % 2)
        pts = np.round(px * 16).clip(-(2**26), 2**26).astype(np.int32)
        cv2.fillPoly(image, [pts], tuple(float(c) * shade for c in colour), cv2.LINE_AA, 4)


def _table_texture(rng: np.random.Generator, look: BoardLook, h: int, w: int, scale: float) -> np.ndarray:
    """HxW BGR float32 table surface."""
    if look.table_kind == "wood":
        wood = replace(WoodLook.random(rng, dark=True), ring_contrast=float(rng.uniform(0.01, 0.03)), warp_mm=4.0)
        return wood_texture(rng, wood, (h, w), scale, vertical=bool(rng.integers(2)))
    shade = 1.0 + 0.05 * smooth_noise(rng, (h, w), (4, 4)) + rng.normal(0, 0.015, (h, w)).astype(np.float32)
    if look.table_kind == "tatami":
        rows = np.arange(h, dtype=np.float32) / scale
        shade = shade + 0.05 * np.sin(rows * (2 * np.pi / 3.5))[:, None]
    return shade[..., None] * np.array(look.table_bgr, dtype=np.float32)
