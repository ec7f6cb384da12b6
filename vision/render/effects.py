"""Picture-space camera effects: uneven lighting and white balance, lens blur, sensor noise, JPEG artefacts.

Each takes and returns a uint8 BGR picture and draws its randomness from the generator it is given; strengths
scale the random amounts (0 switches an effect off).
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.render.wood import smooth_noise


def lighting(image: np.ndarray, rng: np.random.Generator, strength: float) -> np.ndarray:
    """Multiply by a smooth light field (gradient, vignette, soft hot spot) and a white-balance cast."""
    h, w = image.shape[:2]
    sh, sw = 24, 32
    ys, xs = np.mgrid[0:sh, 0:sw].astype(np.float32)
    xs, ys = xs / (sw - 1) - 0.5, ys / (sh - 1) - 0.5
    angle = rng.uniform(0, 2 * math.pi)
    field: np.ndarray = 1.0 + strength * rng.uniform(0.0, 0.45) * (math.cos(angle) * xs + math.sin(angle) * ys)
    field -= strength * rng.uniform(0.0, 0.5) * (xs**2 + ys**2)
    spot = rng.uniform(-0.4, 0.4, 2)
    field += strength * rng.uniform(0.0, 0.2) * np.exp(-((xs - spot[0]) ** 2 + (ys - spot[1]) ** 2) / 0.05)
    field += strength * 0.04 * smooth_noise(rng, (sh, sw), (3, 3))
    glare = _glare(rng, xs, ys, strength)
    exposure = 1.0 + strength * rng.uniform(-0.3, 0.15)
    cast = 1.0 + strength * rng.uniform(-0.08, 0.08, 3)
    small = np.clip(field[..., None] * exposure * cast[None, None, :] * 128.0, 0, 255).astype(np.uint8)
    big = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
    out: np.ndarray = cv2.multiply(image, big, scale=1.0 / 128.0)  # 8-bit field: 128 means 1.0
    if glare is not None:
        out = cv2.add(out, cv2.resize(glare, (w, h), interpolation=cv2.INTER_LINEAR))
    return out


def _glare(rng: np.random.Generator, xs: np.ndarray, ys: np.ndarray, strength: float) -> np.ndarray | None:
    """Now and then a soft white reflection of a lamp or window (added light, washes colours out)."""
    if rng.uniform() > 0.3 * min(1.0, strength):
        return None
    at = rng.uniform(-0.4, 0.4, 2)
    width = rng.uniform(0.02, 0.1)
    blob = np.exp(-((xs - at[0]) ** 2 + ((ys - at[1]) * rng.uniform(0.5, 2.0)) ** 2) / width)
    level = strength * rng.uniform(30.0, 110.0)
    grey = np.clip(blob * level, 0, 255).astype(np.uint8)
    out: np.ndarray = cv2.cvtColor(grey, cv2.COLOR_GRAY2BGR)
    return out


def lens_blur(image: np.ndarray, rng: np.random.Generator, strength: float) -> np.ndarray:
    """Gaussian defocus (sigma up to ~1.6 px at 1280 px wide, proportionally less on smaller pictures), now and
    then a little motion blur."""
    sigma = strength * rng.uniform(0.2, 1.6) * min(1.5, max(image.shape[:2]) / 1280)
    out = cv2.GaussianBlur(image, (0, 0), sigma) if sigma > 0.25 else image
    if strength > 0 and rng.uniform() < 0.15:
        length = int(rng.integers(3, 6))
        line = np.zeros((length, length), np.float32)
        line[length // 2, :] = 1.0 / length
        rot = cv2.getRotationMatrix2D((length / 2 - 0.5, length / 2 - 0.5), rng.uniform(0, 180), 1.0)
        kernel = cv2.warpAffine(line, rot, (length, length))
        out = cv2.filter2D(out, -1, kernel / max(kernel.sum(), 1e-6))
    return out


def sensor_noise(image: np.ndarray, rng: np.random.Generator, strength: float) -> np.ndarray:
    """Gaussian noise per pixel and channel (sigma up to ~6 levels), drawn as one random byte per value mapped
    through the Gaussian's inverse distribution (cheap and exact to 1/256 in probability)."""
    sigma = strength * rng.uniform(1.0, 6.0)
    raw = np.frombuffer(rng.bytes(image.size), np.uint8).reshape(image.shape)
    noise = cv2.LUT(raw, (_GAUSS_QUANTILES * sigma).round().astype(np.int16))
    out: np.ndarray = cv2.add(image, noise, dtype=cv2.CV_8U)
    return out


def _normal_quantiles() -> np.ndarray:
    """Standard normal quantiles at (i + 0.5) / 256, i = 0..255 (Acklam-free: bisection on erf)."""
    p = (np.arange(256) + 0.5) / 256
    lo, hi = np.full(256, -6.0), np.full(256, 6.0)
    for _ in range(60):
        mid = (lo + hi) / 2
        below = 0.5 * (1 + np.vectorize(math.erf)(mid / math.sqrt(2))) < p
        lo, hi = np.where(below, mid, lo), np.where(below, hi, mid)
    out: np.ndarray = (lo + hi) / 2
    return out


_GAUSS_QUANTILES = _normal_quantiles()


def jpeg(image: np.ndarray, rng: np.random.Generator, strength: float) -> np.ndarray:
    """Round trip through JPEG at quality 95 down to ~45 as strength goes 0 to 1."""
    quality = round(95 - strength * rng.uniform(0.0, 50.0))
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        return image
    decoded = cv2.imdecode(data, cv2.IMREAD_COLOR)
    return decoded if decoded is not None else image
