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
    exposure = 1.0 + strength * rng.uniform(-0.3, 0.15)
    cast = 1.0 + strength * rng.uniform(-0.08, 0.08, 3)
    small = (field[..., None] * exposure * cast[None, None, :]).astype(np.float32)
    big = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
    return _mul(image, big)


def _mul(image: np.ndarray, field: np.ndarray) -> np.ndarray:
    return cv2.multiply(image, field, dtype=cv2.CV_8U)


def lens_blur(image: np.ndarray, rng: np.random.Generator, strength: float) -> np.ndarray:
    """Gaussian defocus (sigma up to ~1.6 px at full strength), now and then a little motion blur."""
    sigma = strength * rng.uniform(0.2, 1.6)
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
    """Luminance noise (sigma up to ~6 levels) plus coarser colour noise; triangular-distributed from random
    bytes (close enough to Gaussian, and several times cheaper)."""
    h, w = image.shape[:2]
    sigma = strength * rng.uniform(1.0, 6.0)
    raw = np.frombuffer(rng.bytes(2 * h * w), np.uint8).reshape(2, h, w)
    luma = cv2.subtract(raw[0], raw[1], dtype=cv2.CV_16S)
    ch, cw = h // 2 + 1, w // 2 + 1
    craw = np.frombuffer(rng.bytes(6 * ch * cw), np.uint8).reshape(2, ch, cw, 3)
    chroma = cv2.resize(cv2.subtract(craw[0], craw[1], dtype=cv2.CV_16S), (w, h), interpolation=cv2.INTER_NEAREST)
    k = sigma / 104.0
    total = cv2.addWeighted(cv2.merge([luma, luma, luma]), k, chroma, 0.5 * k, 0.0, dtype=cv2.CV_16S)
    return cv2.add(image, total, dtype=cv2.CV_8U)


def jpeg(image: np.ndarray, rng: np.random.Generator, strength: float) -> np.ndarray:
    """Round trip through JPEG at quality 95 down to ~45 as strength goes 0 to 1."""
    quality = round(95 - strength * rng.uniform(0.0, 50.0))
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        return image
    decoded = cv2.imdecode(data, cv2.IMREAD_COLOR)
    return decoded if decoded is not None else image
