"""Procedural wood: grain along one axis, growth rings bent by smooth noise, fibres, knots of colour.

`WoodLook.random` picks a wood (pale beech/kaya/hiba to darker shin-kaya and walnut-like stains); `wood_texture`
paints an HxW BGR float32 image of it. Cheap: the slow-varying parts are drawn small and resized.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

WOODS_BGR: tuple[tuple[float, float, float], ...] = (
    (150.0, 160.0, 172.0),  # grey-beige beech, like the reference photo
    (178.0, 208.0, 226.0),  # pale beech
    (140.0, 190.0, 222.0),  # kaya / hiba, yellow
    (110.0, 170.0, 214.0),  # shin-kaya, warm yellow
    (92.0, 146.0, 196.0),  # honey
    (70.0, 112.0, 160.0),  # darker stained wood
)


@dataclass(frozen=True)
class WoodLook:
    """Colour and grain parameters of one piece of wood."""

    base_bgr: tuple[float, float, float]
    ring_period_mm: float
    ring_contrast: float
    fibre_contrast: float
    warp_mm: float
    phase: float

    @staticmethod
    def random(rng: np.random.Generator, dark: bool | None = None) -> WoodLook:
        """A random wood; `dark` chooses among the darker (True) or paler (False) woods."""
        choices = range(len(WOODS_BGR)) if dark is None else (range(4, 6) if dark else range(4))
        base = np.array(WOODS_BGR[int(rng.choice(list(choices)))]) * rng.uniform(0.92, 1.06, 3)
        return WoodLook(
            base_bgr=(float(base[0]), float(base[1]), float(min(base[2], 250.0))),
            ring_period_mm=float(rng.uniform(4.0, 14.0)),
            ring_contrast=float(rng.uniform(0.02, 0.07)),
            fibre_contrast=float(rng.uniform(0.015, 0.05)),
            warp_mm=float(rng.uniform(1.5, 10.0)),
            phase=float(rng.uniform(0.0, 100.0)),
        )


def smooth_noise(rng: np.random.Generator, shape: tuple[int, int], cells: tuple[int, int]) -> np.ndarray:
    """Smooth random field in about -1..1: a small random grid resized up (bilinear, then softened)."""
    grid = rng.uniform(-1.0, 1.0, (cells[0] + 3, cells[1] + 3)).astype(np.float32)
    mid = cv2.resize(grid, (max(4, shape[1] // 8), max(4, shape[0] // 8)), interpolation=cv2.INTER_CUBIC)
    big: np.ndarray = cv2.resize(mid, (shape[1], shape[0]), interpolation=cv2.INTER_LINEAR)
    return big


def wood_texture(
    rng: np.random.Generator, look: WoodLook, shape: tuple[int, int], px_per_mm: float, vertical: bool = True
) -> np.ndarray:
    """HxW BGR float32 wood (grain running along y when `vertical`, else along x)."""
    h, w = shape
    if not vertical:
        return np.ascontiguousarray(wood_texture(rng, look, (w, h), px_per_mm, True).transpose(1, 0, 2))
    across = np.arange(w, dtype=np.float32) / px_per_mm
    along_cells = max(2, int(h / px_per_mm / 120))
    warp = smooth_noise(rng, (h, w), (along_cells, max(2, int(w / px_per_mm / 90))))
    phase = (across[None, :] + warp * look.warp_mm) * np.float32(2 * np.pi / look.ring_period_mm) + look.phase
    rings = np.sin(phase)
    rings = np.copysign(np.sqrt(np.abs(rings)), rings)
    fibres_row = rng.normal(0.0, 1.0, (max(2, h // 40), w)).astype(np.float32)
    fibres = cv2.resize(fibres_row, (w, h), interpolation=cv2.INTER_LINEAR)
    blotch = smooth_noise(rng, (h, w), (3, 3))
    shade = 1.0 + look.ring_contrast * rings + look.fibre_contrast * fibres + 0.04 * blotch
    colour = np.array(look.base_bgr, dtype=np.float32).reshape(3, 1)
    out: np.ndarray = cv2.transform(shade.astype(np.float32)[..., None], colour)
    return out
