"""Single-square crops for classifier training and tests: one square of a random board (wood, grid lines at its
edges), the piece (or nothing) off centre and turned, seen with random parallax, light, blur and noise, resized
to `size` x `size` (the square's 33.3 x 36.4 mm squashed to a square, as a reader's rectified crop would be).
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.labels import EMPTY, PIECE_LABELS, SQUARE_LABELS
from vision.render.assets import Sprite, load_style, sprite_code
from vision.render.board import BoardLook, Plane, draw_grid, draw_surface
from vision.render.effects import lens_blur, lighting, sensor_noise
from vision.render.errors import RenderError
from vision.render.geometry import SQUARE_H_MM, SQUARE_W_MM, Camera, CameraPose, square_centre_mm
from vision.render.pieces import Light, PieceDraw, draw_piece_face, draw_piece_shadow, piece_patch, piece_size_mm


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
    sprites = load_style(style)
    square = int(rng.integers(10, 71)) if rng.uniform() < 0.8 else int(rng.integers(81))
    cx, cy = square_centre_mm(square)
    half_w, half_h = SQUARE_W_MM * (0.5 + margin), SQUARE_H_MM * (0.5 + margin)
    scale = size / (2 * half_w) * 1.5
    plane = Plane(cx - half_w, cy - half_h, scale, round(2 * half_w * scale), round(2 * half_h * scale))
    look = BoardLook.random(rng)
    canvas, cover = draw_surface(rng, plane, look, stands=False)
    draw_grid(canvas, plane, look)
    pose = CameraPose.random(rng)
    camera = Camera.from_pose(pose, (640, 480))
    set_scale = float(rng.uniform(0.78, 1.0))
    draws = _neighbour_draws(rng, sprites, square, set_scale) if neighbours else []
    if label != EMPTY:
        draws.append(_draw_for(label, sprites, square, set_scale, rng))
    light = Light.random(rng, effects)
    shadow = np.zeros(canvas.shape[:2], np.float32)
    patches = [piece_patch(plane, camera, d) for d in draws]
    for draw, patch in zip(draws, patches, strict=True):
        draw_piece_shadow(shadow, plane, draw, patch, light)
    soft = cv2.GaussianBlur(shadow, (0, 0), max(0.5, 1.2 * scale))
    factor = np.clip(255 * (1 - light.strength * soft), 0, 255).astype(np.uint8)
    cv2.multiply(canvas, cv2.cvtColor(factor, cv2.COLOR_GRAY2BGR), canvas, scale=1 / 255)
    for draw, patch in zip(draws, patches, strict=True):
        draw_piece_face(canvas, cover, draw, patch)
    crop = cv2.resize(canvas, (size, size), interpolation=cv2.INTER_AREA)
    if effects > 0:
        crop = lighting(crop, rng, 0.5 * effects)
        crop = lens_blur(crop, rng, 0.6 * effects)
        crop = sensor_noise(crop, rng, effects)
    return crop


def _draw_for(
    label: str, sprites: dict[str, Sprite], square: int, set_scale: float, rng: np.random.Generator
) -> PieceDraw:
    """A piece on `square`, off centre and turned by random amounts."""
    height, thick = piece_size_mm(label, set_scale)
    cx, cy = square_centre_mm(square)
    dx, dy = rng.normal(0.0, 0.05, 2).clip(-0.14, 0.14)
    angle = float(np.clip(rng.normal(0.0, 3.5), -10, 10))
    code = sprite_code(label, king_gyoku=bool(rng.integers(2)))
    return PieceDraw(sprites[code], (cx + dx * SQUARE_W_MM, cy + dy * SQUARE_H_MM), height, angle, 0.0, thick)


def _neighbour_draws(
    rng: np.random.Generator, sprites: dict[str, Sprite], square: int, set_scale: float
) -> list[PieceDraw]:
    """Random pieces on some of the 8 neighbouring squares (only their edges show in the crop)."""
    rank, col = divmod(square, 9)
    out = []
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            r, c = rank + dr, col + dc
            if (dr or dc) and 0 <= r < 9 and 0 <= c < 9 and rng.uniform() < 0.45:
                label = str(PIECE_LABELS[int(rng.integers(len(PIECE_LABELS)))])
                out.append(_draw_for(label, sprites, r * 9 + c, set_scale, rng))
    return out
