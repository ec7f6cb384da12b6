"""Single-square crops for classifier training and tests: one square of a random board (wood, grid lines at its
edges), the piece (or nothing) off centre and turned, seen with random parallax, light, blur and noise, resized
to `size` x `size` (the square's 33.3 x 36.4 mm squashed to a square, as a reader's rectified crop would be).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.labels import EMPTY, PIECE_LABELS, SQUARE_LABELS
from vision.render.assets import Sprite, load_style, sprite_code
from vision.render.board import BoardLook, Plane, draw_grid, draw_surface
from vision.render.effects import lens_blur, lighting, sensor_noise
from vision.render.errors import RenderError
from vision.render.geometry import SQUARE_H_MM, SQUARE_W_MM, Camera, CameraPose, square_centre_mm
from vision.render.pieces import (
    Light,
    PieceDraw,
    PieceTone,
    apply_shadow,
    draw_piece_face,
    draw_piece_shadow,
    piece_patch,
    piece_size_mm,
)


def render_piece_crop(
    label: str,
    style: str,
    rng: np.random.Generator,
    size: int = 64,
    *,
    margin: float = 0.1,
    neighbours: bool = True,
    effects: float = 1.0,
) -> np.ndarray:
    """A `size` x `size` BGR crop of one square holding `label` (or `"empty"`), with `margin` (fraction of the
    square) of the surroundings on each side; neighbouring squares may hold pieces when `neighbours`."""
    if label not in SQUARE_LABELS:
        raise RenderError(f"unknown square label {label!r}")
    if not 8 <= size <= 1024 or not 0.0 <= margin <= 1.0:
        raise RenderError(f"crop size {size} / margin {margin} out of range (8..1024, 0..1)")
    kit = _Set(load_style(style), float(rng.uniform(0.78, 1.0)), PieceTone.random(rng))
    square = int(rng.integers(10, 71)) if rng.uniform() < 0.8 else int(rng.integers(81))
    draws = _neighbour_draws(rng, kit, square) if neighbours else []
    if label != EMPTY:
        draws.append(_draw_for(label, kit, square, rng))
    canvas = _square_canvas(rng, square, margin, size, draws=draws, effects=effects)
    crop = cv2.resize(canvas, (size, size), interpolation=cv2.INTER_AREA)
    if effects > 0:
        crop = lighting(crop, rng, 0.5 * effects)
        crop = lens_blur(crop, rng, 0.6 * effects)
        crop = sensor_noise(crop, rng, effects)
    return crop


@dataclass(frozen=True)
class _Set:
    """The piece set of one crop: sprites, size factor and wood tone."""

    sprites: dict[str, Sprite]
    scale: float
    tint: tuple[float, float, float]


def _square_canvas(
    rng: np.random.Generator, square: int, margin: float, size: int, *, draws: list[PieceDraw], effects: float
) -> np.ndarray:
    """The square and its margin on the board plane, with the pieces, seen from a random camera's parallax."""
    cx, cy = square_centre_mm(square)
    half_w, half_h = SQUARE_W_MM * (0.5 + margin), SQUARE_H_MM * (0.5 + margin)
    scale = size / (2 * half_w) * 1.15
    plane = Plane(cx - half_w, cy - half_h, scale, round(2 * half_w * scale), round(2 * half_h * scale))
    look = BoardLook.random(rng)
    canvas, cover = draw_surface(rng, plane, look, stands=False)
    draw_grid(canvas, plane, look)
    camera = Camera.from_pose(CameraPose.random(rng), (640, 480))
    light = Light.random(rng, effects)
    shadow = np.zeros(canvas.shape[:2], np.uint8)
    patches = [piece_patch(plane, camera, d) for d in draws]
    for draw, patch in zip(draws, patches, strict=True):
        draw_piece_shadow(shadow, plane, draw, patch, light)
    apply_shadow(canvas, shadow, 1.2 * scale, light.strength)
    for draw, patch in zip(draws, patches, strict=True):
        draw_piece_face(canvas, cover, draw, patch)
    return canvas


def _draw_for(label: str, kit: _Set, square: int, rng: np.random.Generator) -> PieceDraw:
    """A piece on `square`, off centre and turned by random amounts."""
    height, thick = piece_size_mm(label, kit.scale)
    cx, cy = square_centre_mm(square)
    dx, dy = rng.normal(0.0, 0.05, 2).clip(-0.14, 0.14)
    angle = float(np.clip(rng.normal(0.0, 3.5), -10, 10))
    code = sprite_code(label, king_gyoku=bool(rng.integers(2)))
    centre = (cx + dx * SQUARE_W_MM, cy + dy * SQUARE_H_MM)
    return PieceDraw(kit.sprites[code], centre, height, angle, 0.0, thick, kit.tint)


def _neighbour_draws(rng: np.random.Generator, kit: _Set, square: int) -> list[PieceDraw]:
    """Random pieces on some of the 8 neighbouring squares (only their edges show in the crop)."""
    rank, col = divmod(square, 9)
    out = []
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            r, c = rank + dr, col + dc
            if (dr or dc) and 0 <= r < 9 and 0 <= c < 9 and rng.uniform() < 0.45:
                label = str(PIECE_LABELS[int(rng.integers(len(PIECE_LABELS)))])
                out.append(_draw_for(label, kit, r * 9 + c, rng))
    return out
