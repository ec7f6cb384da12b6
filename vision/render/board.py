"""The board plane canvas: which part of the board plane is drawn at what resolution, and the wooden board,
its grid and star points, the stands and the table, drawn on it (before pieces, shadows and the camera warp).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.render.geometry import (
    BOARD_MARGIN_MM,
    GRID_H_MM,
    GRID_W_MM,
    SQUARE_H_MM,
    SQUARE_W_MM,
    STAND_REGIONS_MM,
    Camera,
    apply_homography,
)
from vision.render.wood import WoodLook, wood_texture

VISIBLE_LIMIT_MM = (-480.0, -380.0, GRID_W_MM + 480.0, GRID_H_MM + 380.0)
"""The most of the board plane ever drawn (x0, y0, x1, y1); beyond it the picture repeats the edge."""
MAX_CANVAS_PIXELS = 3_000_000
STAND_RIM_MM = 6.0
"""Wood around a stand's piece area."""
SHIFT = 4
"""Sub-pixel bits for OpenCV polygon drawing."""


@dataclass(frozen=True)
class Plane:
    """A raster of the board plane: pixel (u, v) is mm (x0 + u / scale, y0 + v / scale)."""

    x0: float
    y0: float
    scale: float
    width: int
    height: int

    def to_px(self, points_mm: np.ndarray) -> np.ndarray:
        """Canvas pixels of Nx2 board-mm points."""
        return (np.asarray(points_mm, dtype=np.float64) - (self.x0, self.y0)) * self.scale

    def mm_to_px(self) -> np.ndarray:
        """3x3 board mm to canvas pixels."""
        return np.array([[self.scale, 0, -self.x0 * self.scale], [0, self.scale, -self.y0 * self.scale], [0, 0, 1]])


@dataclass(frozen=True)
class BoardLook:
    """Per-render appearance of the board, stands and table."""

    board_wood: WoodLook
    stand_wood: WoodLook
    line_mm: float
    frame_mm: float
    star_mm: float
    ink_bgr: tuple[float, float, float]
    table_bgr: tuple[float, float, float]
    table_kind: str
    thickness_mm: float

    @staticmethod
    def random(rng: np.random.Generator) -> BoardLook:
        """A random board: wood, line weights (0.6-1.6 mm), ink, and what the board stands on."""
        board_wood = WoodLook.random(rng)
        line = float(rng.uniform(0.6, 1.5))
        table_kind = str(rng.choice(["cloth", "wood", "tatami", "dark"]))
        table = {"cloth": (200, 200, 205), "wood": (60, 90, 130), "tatami": (120, 175, 180), "dark": (45, 42, 40)}
        tbl = np.array(table[table_kind], dtype=np.float64) * rng.uniform(0.7, 1.15) * rng.uniform(0.95, 1.05, 3)
        return BoardLook(
            board_wood=board_wood,
            stand_wood=WoodLook.random(rng),
            line_mm=line,
            frame_mm=line * float(rng.uniform(1.0, 2.2)),
            star_mm=float(rng.uniform(2.0, 4.5)),
            ink_bgr=_ink(board_wood, float(rng.uniform(0.65, 1.0)), rng.uniform(5, 35) + rng.uniform(-3, 3, 3)),
            table_bgr=(float(tbl[0]), float(tbl[1]), float(tbl[2])),
            table_kind=table_kind,
            thickness_mm=float(rng.choice([10.0, 15.0, 20.0, 30.0, 45.0]) * rng.uniform(0.9, 1.1)),
        )


def board_box(stands: bool) -> tuple[float, float, float, float]:
    """(x0, y0, x1, y1) mm of the board's top, and of the stands' too when drawn."""
    x0, y0 = -BOARD_MARGIN_MM, -BOARD_MARGIN_MM
    x1, y1 = GRID_W_MM + BOARD_MARGIN_MM, GRID_H_MM + BOARD_MARGIN_MM
    if stands:
        every = np.concatenate([_grow(STAND_REGIONS_MM[s], STAND_RIM_MM) for s in ("b", "w")])
        x0, y0 = min(x0, every[:, 0].min()), min(y0, every[:, 1].min())
        x1, y1 = max(x1, every[:, 0].max()), max(y1, every[:, 1].max())
    return (float(x0) - 2, float(y0) - 2, float(x1) + 2, float(y1) + 2)


def _ink(wood: WoodLook, opacity: float, ink: np.ndarray) -> tuple[float, float, float]:
    """Colour of the grid ink: dark ink seen through at `opacity` over the board's wood (thin lines look grey)."""
    mix = np.array(wood.base_bgr) * (1 - opacity) + ink * opacity
    return (float(mix[0]), float(mix[1]), float(mix[2]))


def plan_plane(
    camera: Camera, size: tuple[int, int], limit: tuple[float, float, float, float], detail: float = 1.0
) -> Plane:
    """The part of the `limit` box (mm) visible in the picture, at about one canvas pixel per picture pixel
    (times `detail`) where the board is seen largest."""
    width, height = size
    inverse = np.linalg.inv(camera.homography())
    border = np.concatenate(
        [
            np.column_stack([np.linspace(0, width, 17), np.zeros(17)]),
            np.column_stack([np.linspace(0, width, 17), np.full(17, height)]),
            np.column_stack([np.zeros(13), np.linspace(0, height, 13)]),
            np.column_stack([np.full(13, width), np.linspace(0, height, 13)]),
        ]
    )
    homog = np.column_stack([border, np.ones(len(border))]) @ inverse.T
    x0, y0, x1, y1 = limit
    ahead = homog[:, 2] > 1e-9
    if ahead.all():
        pts = homog[:, :2] / homog[:, 2:3]
        x0, y0 = max(x0, pts[:, 0].min() - 5), max(y0, pts[:, 1].min() - 5)
        x1, y1 = min(x1, pts[:, 0].max() + 5), min(y1, pts[:, 1].max() + 5)
    scale = detail * _magnification(camera, (x0, y0, x1, y1))
    area = max(1.0, (x1 - x0) * (y1 - y0))
    scale = float(np.clip(scale, 0.1, math.sqrt(MAX_CANVAS_PIXELS / area)))
    x1, y1 = max(x1, x0 + 8 / scale), max(y1, y0 + 8 / scale)
    return Plane(x0, y0, scale, max(8, int((x1 - x0) * scale)), max(8, int((y1 - y0) * scale)))


def _magnification(camera: Camera, box: tuple[float, float, float, float]) -> float:
    """Largest picture pixels per mm over the board and the visible box (sampled)."""
    x0, y0, x1, y1 = box
    xs = np.linspace(max(x0, -BOARD_MARGIN_MM), min(x1, GRID_W_MM + BOARD_MARGIN_MM), 5)
    ys = np.linspace(max(y0, -BOARD_MARGIN_MM), min(y1, GRID_H_MM + BOARD_MARGIN_MM), 5)
    pts = np.array([(x, y) for x in xs for y in ys])
    h = camera.homography()
    a = apply_homography(h, pts)
    b = apply_homography(h, pts + np.array([1.0, 0.0]))
    c = apply_homography(h, pts + np.array([0.0, 1.0]))
    return float(max(np.linalg.norm(b - a, axis=1).max(), np.linalg.norm(c - a, axis=1).max()))


def draw_surface(
    rng: np.random.Generator, plane: Plane, look: BoardLook, stands: bool
) -> tuple[np.ndarray, np.ndarray]:
    """The board's and (optionally) the stands' wooden tops: a uint8 BGR canvas and its coverage mask."""
    shape = (plane.height, plane.width)
    canvas = np.zeros((*shape, 3), np.uint8)
    mask = np.zeros(shape, np.uint8)
    regions = [(board_corners_mm(), look.board_wood, True)]
    if stands:
        regions += [(_grow(STAND_REGIONS_MM[s], STAND_RIM_MM), look.stand_wood, False) for s in ("b", "w")]
    for corners, wood, vertical in regions:  # axis-aligned rectangles on the plane
        px = plane.to_px(corners)
        u0, v0 = np.round(px.min(axis=0)).astype(int).clip(0, (plane.width, plane.height))
        u1, v1 = np.round(px.max(axis=0)).astype(int).clip(0, (plane.width, plane.height))
        if u1 - u0 < 2 or v1 - v0 < 2:
            continue
        texture = _texture_patch(rng, wood, (v1 - v0, u1 - u0), plane.scale, vertical)
        local = [np.round((px - (u0, v0)) * (1 << SHIFT)).astype(np.int32)]
        bevel = tuple(float(c) * 0.8 for c in wood.base_bgr)
        cv2.polylines(texture, local, True, bevel, max(1, round(1.5 * plane.scale)), cv2.LINE_AA, SHIFT)
        canvas[v0:v1, u0:u1] = texture
        mask[v0:v1, u0:u1] = 255
    return canvas, mask


def board_corners_mm() -> np.ndarray:
    """Corners of the board's top surface (4x2 mm)."""
    m = BOARD_MARGIN_MM
    return np.array([[-m, -m], [GRID_W_MM + m, -m], [GRID_W_MM + m, GRID_H_MM + m], [-m, GRID_H_MM + m]])


def stand_corners_mm(side: str) -> np.ndarray:
    """Corners of a stand's top surface, rim included (4x2 mm)."""
    return _grow(STAND_REGIONS_MM[side], STAND_RIM_MM)


def _grow(corners: np.ndarray, mm: float) -> np.ndarray:
    grown: np.ndarray = corners + np.array([[-mm, -mm], [mm, -mm], [mm, mm], [-mm, mm]])
    return grown


def _texture_patch(
    rng: np.random.Generator, wood: WoodLook, shape: tuple[int, int], scale: float, vertical: bool
) -> np.ndarray:
    """Wood for one region, drawn at up to 1.2 px/mm and resized (grain is soft at camera resolution)."""
    draw_scale = min(scale, 1.2)
    small = (max(2, int(shape[0] * draw_scale / scale)), max(2, int(shape[1] * draw_scale / scale)))
    texture: np.ndarray = np.clip(wood_texture(rng, wood, small, draw_scale, vertical), 0, 255).astype(np.uint8)
    if small != shape:
        texture = cv2.resize(texture, (shape[1], shape[0]), interpolation=cv2.INTER_LINEAR)
    return texture


def draw_grid(canvas: np.ndarray, plane: Plane, look: BoardLook) -> None:
    """Ink the 10 + 10 grid lines (outer ones as the heavier frame) and the 4 star points, in place."""
    polys = []
    for i in range(10):
        t = (look.frame_mm if i in (0, 9) else look.line_mm) / 2
        x, y = i * SQUARE_W_MM, i * SQUARE_H_MM
        polys.append([(x - t, -look.frame_mm / 2), (x + t, -look.frame_mm / 2),
                      (x + t, GRID_H_MM + look.frame_mm / 2), (x - t, GRID_H_MM + look.frame_mm / 2)])  # fmt: skip
        polys.append([(-look.frame_mm / 2, y - t), (GRID_W_MM + look.frame_mm / 2, y - t),
                      (GRID_W_MM + look.frame_mm / 2, y + t), (-look.frame_mm / 2, y + t)])  # fmt: skip
    fixed = [np.round(plane.to_px(np.array(p)) * (1 << SHIFT)).astype(np.int32) for p in polys]
    ink = tuple(float(v) for v in look.ink_bgr)
    cv2.fillPoly(canvas, fixed, ink, cv2.LINE_AA, SHIFT)
    for fx, fy in ((3, 3), (6, 3), (3, 6), (6, 6)):
        centre = plane.to_px(np.array([[fx * SQUARE_W_MM, fy * SQUARE_H_MM]]))[0]
        radius = round(look.star_mm / 2 * plane.scale * (1 << SHIFT))
        cx, cy = (int(v) for v in np.round(centre * (1 << SHIFT)))
        cv2.ellipse(canvas, (cx, cy), (radius, radius), 0, 0, 360, ink, -1, cv2.LINE_AA, SHIFT)
