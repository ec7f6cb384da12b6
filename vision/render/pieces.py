"""Pieces on the board plane canvas: each sprite scaled to its kind's real size, turned, lifted by its thickness
(the face drawn where the camera sees it, the sides filled in between), and its shadow added to a shadow layer.

A face `h` mm above the board appears on the board plane scaled by `camera.parallax(h)` about the point below the
camera; that is exact for a flat face parallel to the board, so drawing on the plane then warping is correct.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import cv2
import numpy as np

from vision.render.assets import PIECE_HEIGHT_MM, PIECE_THICKNESS_MM, Sprite, base_kind
from vision.render.board import Plane
from vision.render.geometry import Camera


class PieceTone:
    """A set's wood tone: per-channel factors applied to the artwork (black ink stays black)."""

    TONES: tuple[tuple[float, float, float], ...] = (
        (1.0, 1.0, 1.0),  # as drawn (often pale yellow)
        (0.8, 0.88, 0.96),  # honey
        (0.55, 0.72, 0.9),  # orange-tan, like the reference photo
        (0.45, 0.58, 0.78),  # dark brown
    )

    @staticmethod
    def random(rng: np.random.Generator) -> tuple[float, float, float]:
        """One tone for a whole set, slightly varied."""
        base = np.array(PieceTone.TONES[int(rng.integers(len(PieceTone.TONES)))]) * rng.uniform(0.93, 1.0, 3)
        return (float(base[0]), float(base[1]), float(base[2]))


@dataclass(frozen=True)
class Light:
    """Direction of the main light: shadows fall `shadow_per_mm` mm along (dx, dy) per mm of height."""

    dx: float
    dy: float
    shadow_per_mm: float
    strength: float
    gloss_at: tuple[float, float] = (0.0, 0.0)
    """Board point (mm) where the lamp's mirror image lies: lacquered piece faces near it look washed out."""
    gloss_radius_mm: float = 100.0
    gloss_strength: float = 0.0
    sheen_strength: float = 0.0
    """How far the lamp's reflection turns the lacquered ink of faces near `gloss_at` silver (0 = never)."""

    def gloss(self, centre_mm: tuple[float, float]) -> float:
        """How much a piece face at `centre_mm` is washed towards white by the lamp's reflection (0..0.5)."""
        return self.gloss_strength * self._near(centre_mm) if self.gloss_strength > 0 else 0.0

    def sheen(self, centre_mm: tuple[float, float]) -> float:
        """How much the ink of a piece face at `centre_mm` shines silver in the lamp's reflection (0..1)."""
        return self.sheen_strength * self._near(centre_mm) if self.sheen_strength > 0 else 0.0

    def _near(self, centre_mm: tuple[float, float]) -> float:
        """1 at the lamp's mirror image, falling off over `gloss_radius_mm`."""
        d2 = (centre_mm[0] - self.gloss_at[0]) ** 2 + (centre_mm[1] - self.gloss_at[1]) ** 2
        return math.exp(-d2 / self.gloss_radius_mm**2)

    def with_sheen(self, rng: np.random.Generator, chance: float) -> Light:
        """This light, its reflection catching the ink with probability `chance` (strength 0.5-1, over a radius
        of at least 120 mm: a lamp's mirror image spread over a quarter of the board or more)."""
        if rng.uniform() >= chance:
            return self
        return replace(
            self,
            sheen_strength=float(rng.uniform(0.5, 1.0)),
            gloss_radius_mm=max(self.gloss_radius_mm, float(rng.uniform(120, 220))),
        )

    @staticmethod
    def random(rng: np.random.Generator, strength: float = 1.0) -> Light:
        """A lamp somewhere above: elevation 40-80 degrees, any azimuth."""
        azimuth = rng.uniform(0, 2 * math.pi)
        elevation = math.radians(rng.uniform(40, 80))
        glossy = rng.uniform() < 0.35 * min(1.0, strength)
        return Light(
            math.cos(azimuth),
            math.sin(azimuth),
            1.0 / math.tan(elevation),
            float(strength * rng.uniform(0.35, 0.6)),
            gloss_at=(float(rng.uniform(0, 300)), float(rng.uniform(0, 330))),
            gloss_radius_mm=float(rng.uniform(50, 200)),
            gloss_strength=float(rng.uniform(0.15, 0.5)) if glossy else 0.0,
        )


@dataclass(frozen=True)
class PieceDraw:
    """One piece ready to draw: sprite, where its base centre is (board mm), its height in mm, its turn on the
    board (degrees, counter-clockwise as seen from above), how high its base is (0 = resting)."""

    sprite: Sprite
    centre_mm: tuple[float, float]
    height_mm: float
    angle_deg: float
    elevation_mm: float
    thickness_mm: float
    tint: tuple[float, float, float] = (1.0, 1.0, 1.0)
    """Per-channel factor on the sprite's colours (the set's wood tone)."""
    gloss: float = 0.0
    """Fraction by which the face is washed towards a bluish white (a reflection on lacquer)."""
    sheen: float = 0.0
    """Fraction by which the face's ink turns silver (the lamp's reflection on lacquered ink, brighter than the
    matt wood round it)."""


def tinted(sprite: Sprite, tint: tuple[float, float, float], grain: np.ndarray | None = None) -> Sprite:
    """The sprite in another wood tone (per-channel factors on its colours and its side colour), optionally
    with a wood grain (`grain`: float32 factors around 1, at least the sprite's size) worked into its face."""
    pixels = cv2.transform(sprite.pixels, np.diag([*tint, 1.0]))
    if grain is not None:
        h, w = pixels.shape[:2]
        factor = cv2.merge([grain[:h, :w]] * 3 + [np.ones((h, w), np.float32)])
        pixels = cv2.multiply(pixels, factor, dtype=cv2.CV_8U)
    side = sprite.side_bgr
    return Sprite(pixels, (side[0] * tint[0], side[1] * tint[1], side[2] * tint[2]))


def piece_size_mm(label: str, set_scale: float) -> tuple[float, float]:
    """(height, thickness) in mm of a piece of this label in a set scaled by `set_scale`."""
    kind = base_kind(label)
    return PIECE_HEIGHT_MM[kind] * set_scale, PIECE_THICKNESS_MM[kind] * set_scale


@dataclass(frozen=True)
class FacePatch:
    """A piece's face warped for the canvas: premultiplied uint8 BGRA patch, its top-left pixel, and the canvas
    offset from where the piece's base appears to where its face appears (the sides fill that gap)."""

    pixels: np.ndarray
    origin: tuple[int, int]
    lift_px: tuple[float, float]
    base_mm: tuple[float, float]
    face_mm: tuple[float, float]


def piece_patch(plane: Plane, camera: Camera, piece: PieceDraw) -> FacePatch:
    """Warp the piece's sprite to where (and how big) the camera sees its face."""
    foot = np.array(camera.foot())
    centre = np.array(piece.centre_mm)
    k_face = camera.parallax(piece.elevation_mm + piece.thickness_mm)
    face_mm = foot + (centre - foot) * k_face
    base_mm = foot + (centre - foot) * camera.parallax(piece.elevation_mm)
    pixels, origin = _warp_sprite(piece.sprite, plane, face_mm, piece.height_mm * k_face, piece.angle_deg)
    if piece.tint != (1.0, 1.0, 1.0) or piece.gloss > 0.01:
        g = piece.gloss
        mix = np.diag([*(t * (1 - g) for t in piece.tint), 1.0])
        mix[:3, 3] = g * np.array([0.97, 0.93, 0.9])  # premultiplied: white scaled by alpha
        pixels = cv2.transform(pixels, mix)
    if piece.sheen > 0.01:
        pixels = silvered_ink(pixels, piece.sheen)
    lift = (face_mm - base_mm) * plane.scale
    return FacePatch(
        pixels,
        origin,
        (float(lift[0]), float(lift[1])),
        (float(base_mm[0]), float(base_mm[1])),
        (float(face_mm[0]), float(face_mm[1])),
    )


SILVER_BGR = (222.0, 212.0, 200.0)
"""Colour of lacquered ink in a lamp's reflection (bluish light grey, as in the shared real photo's glare)."""


def silvered_ink(pixels: np.ndarray, sheen: float) -> np.ndarray:
    """A premultiplied BGRA face with its ink (pixels darker than the face's wood: how much darker, against the
    wood's 90th-percentile brightness) blended towards `SILVER_BGR` by `sheen` times its inkiness."""
    alpha = pixels[..., 3:4].astype(np.float32) / 255.0
    colour = pixels[..., :3].astype(np.float32) / np.maximum(alpha, 1e-3)
    brightness = colour.mean(axis=2)
    solid = alpha[..., 0] > 0.5
    if not solid.any():
        return pixels
    wood = float(np.percentile(brightness[solid], 90))
    inkiness = np.clip((wood - brightness) / max(0.5 * wood, 1.0), 0.0, 1.0)[..., None]
    colour += sheen * inkiness * (np.array(SILVER_BGR, np.float32) - colour)
    out = pixels.copy()
    out[..., :3] = np.clip(colour * alpha, 0, 255).astype(np.uint8)
    return out


def draw_piece_shadow(shadow: np.ndarray, plane: Plane, piece: PieceDraw, patch: FacePatch, light: Light) -> None:
    """Add the piece's silhouette, cast along the light from about half its height, to the uint8 shadow layer,
    and (for a resting piece) a weaker one right under it: the soft contact shadow round its base."""
    fall = (piece.elevation_mm + piece.thickness_mm / 2) * light.shadow_per_mm + 0.6
    target = np.array(patch.base_mm) + np.array([light.dx, light.dy]) * fall
    shift = (target - np.array(patch.face_mm)) * plane.scale
    alpha = cv2.extractChannel(patch.pixels, 3)
    _stamp_max(shadow, alpha, patch.origin[0] + shift[0], patch.origin[1] + shift[1])
    if piece.elevation_mm == 0.0:
        under = (np.array(patch.base_mm) - np.array(patch.face_mm)) * plane.scale
        _stamp_max(
            shadow, cv2.convertScaleAbs(alpha, alpha=0.6), patch.origin[0] + under[0], patch.origin[1] + under[1]
        )


def apply_shadow(canvas: np.ndarray, shadow: np.ndarray, blur_px: float, strength: float) -> None:
    """Darken the canvas under the softened uint8 shadow layer (blurred at quarter resolution for speed)."""
    h, w = shadow.shape
    small = cv2.resize(shadow, (max(1, w // 4), max(1, h // 4)), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (0, 0), max(0.5, blur_px / 4))
    small = cv2.bitwise_not(cv2.convertScaleAbs(small, alpha=min(1.0, strength)))
    factor = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
    cv2.multiply(canvas, cv2.cvtColor(factor, cv2.COLOR_GRAY2BGR), canvas, scale=1.0 / 255.0)


def draw_piece_face(canvas: np.ndarray, mask: np.ndarray, piece: PieceDraw, patch: FacePatch) -> None:
    """Draw the piece's sides (its silhouette swept from base to face, darker) under its face, in one blend;
    mark it on the canvas coverage mask."""
    pixels = patch.pixels
    lx, ly = patch.lift_px
    reach = math.ceil(max(abs(lx), abs(ly)))
    ox, oy = patch.origin
    if reach > 0:
        kernel = np.zeros((2 * reach + 1, 2 * reach + 1), np.uint8)
        cv2.line(kernel, (reach, reach), (reach - round(lx), reach - round(ly)), 1, 1)
        face = cv2.copyMakeBorder(pixels, reach, reach, reach, reach, cv2.BORDER_CONSTANT, value=0)
        alpha = cv2.extractChannel(face, 3)
        sides = cv2.subtract(cv2.dilate(alpha, kernel), alpha)
        colour = [c * t * 0.6 / 255.0 for c, t in zip(piece.sprite.side_bgr, piece.tint, strict=True)]
        side = cv2.transform(sides[..., None], np.array([[*colour, 1.0]]).T)  # 1 channel -> premultiplied BGRA
        pixels = cv2.add(face, side)
        ox, oy = ox - reach, oy - reach
    _blend(canvas, mask, pixels, ox, oy)


def _warp_sprite(
    sprite: Sprite, plane: Plane, centre_mm: np.ndarray, height_mm: float, angle_deg: float
) -> tuple[np.ndarray, tuple[int, int]]:
    """The sprite scaled to `height_mm` and turned, as a patch and its integer top-left on the canvas."""
    src = sprite.pixels
    sh, sw = src.shape[:2]
    k = height_mm * plane.scale / sh
    centre = plane.to_px(centre_mm[None, :])[0]
    half = 0.5 * k * math.hypot(sh, sw) + 2
    ox, oy = math.floor(centre[0] - half), math.floor(centre[1] - half)
    size = math.ceil(2 * half) + 1
    m = cv2.getRotationMatrix2D((sw / 2, sh / 2), angle_deg, k)
    m[0, 2] += centre[0] - ox - sw / 2
    m[1, 2] += centre[1] - oy - sh / 2
    patch = cv2.warpAffine(src, m, (size, size), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
    return patch, (ox, oy)


def _clip(shape: tuple[int, ...], ph: int, pw: int, x: int, y: int) -> tuple[slice, slice, slice, slice] | None:
    """Canvas and patch slices where a ph x pw patch at (x, y) overlaps the canvas."""
    x0, y0 = max(x, 0), max(y, 0)
    x1, y1 = min(x + pw, shape[1]), min(y + ph, shape[0])
    if x1 <= x0 or y1 <= y0:
        return None
    return slice(y0, y1), slice(x0, x1), slice(y0 - y, y1 - y), slice(x0 - x, x1 - x)


def _blend(canvas: np.ndarray, mask: np.ndarray, patch: np.ndarray, x: int, y: int) -> None:
    """Composite a premultiplied uint8 BGRA patch onto the uint8 canvas: out = under * (1 - alpha) + patch."""
    cut = _clip(canvas.shape, patch.shape[0], patch.shape[1], x, y)
    if cut is None:
        return
    cy, cx, py, px = cut
    p = np.ascontiguousarray(patch[py, px])
    alpha = cv2.extractChannel(p, 3)
    keep = cv2.cvtColor(cv2.bitwise_not(alpha), cv2.COLOR_GRAY2BGR)
    under = cv2.multiply(canvas[cy, cx], keep, scale=1.0 / 255.0)
    canvas[cy, cx] = cv2.add(under, cv2.cvtColor(p, cv2.COLOR_BGRA2BGR))
    mask[cy, cx] |= cv2.threshold(alpha, 127, 255, cv2.THRESH_BINARY)[1]


def _stamp_max(layer: np.ndarray, alpha: np.ndarray, x: float, y: float) -> None:
    cut = _clip(layer.shape, alpha.shape[0], alpha.shape[1], round(x), round(y))
    if cut is None:
        return
    cy, cx, py, px = cut
    layer[cy, cx] = cv2.max(layer[cy, cx], alpha[py, px])
