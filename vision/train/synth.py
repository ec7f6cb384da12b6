"""Synthetic square crops for training the piece classifier (training only; not used at run time).

A crop looks like what the reader cuts out of a rectified board (`vision.squares`): one square plus a margin of
`MARGIN` squares on each side, `CROP` pixels wide. It is drawn from the piece artwork PNGs
(`vision/assets/pieces/<style>/0XX.png`, pointing up): a wooden background with grain, the grid lines round the
square, sometimes neighbouring pieces reaching in from the sides, the piece off centre and turned, its shadow,
then perspective, lighting, blur, low resolution, noise and JPEG. Gote pieces are sente pieces turned by 180°.
Class indices: 0..27 `PIECE_LABELS`, 28 empty, 29 "sideways" (a piece turned by 90°: the grid's axes are swapped),
30 "unreadable" (a hand or arm over the square, heavy motion blur, a nearly black or blown-out crop).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.board import Image
from vision.labels import CSA_CODES, KINDS, PIECE_LABELS, SQUARE_LABELS
from vision.squares import CROP, MARGIN

ASSETS = Path(__file__).resolve().parent.parent / "assets" / "pieces"
SIDEWAYS = len(SQUARE_LABELS)  # class index 29
UNREADABLE = SIDEWAYS + 1  # class index 30
N_CLASSES = UNREADABLE + 1
_S = 2  # drawing scale (crops are drawn at twice the size, then shrunk)


@dataclass(frozen=True)
class PieceBank:
    """Piece tiles (RGBA, pointing up) per style and kind."""

    tiles: dict[str, dict[str, list[Image]]]

    @classmethod
    def load(cls, styles: list[str], root: Path = ASSETS) -> PieceBank:
        """Load every style's 0XX tiles (and 1XX turned upright, where present)."""
        tiles: dict[str, dict[str, list[Image]]] = {}
        for style in styles:
            per_kind: dict[str, list[Image]] = {}
            for kind in KINDS:
                codes = [CSA_CODES[kind]] + (["GY"] if kind == "K" else [])
                found: list[Image] = []
                for code in codes:
                    for prefix, turn in (("0", False), ("1", True)):
                        path = root / style / f"{prefix}{code}.png"
                        if path.exists():
                            tile: Image = np.asarray(cv2.imread(os.fspath(path), cv2.IMREAD_UNCHANGED))
                            found.append(cv2.rotate(tile, cv2.ROTATE_180) if turn else tile)
                if not found:
                    raise FileNotFoundError(f"no tile for {kind} in style {style}")
                per_kind[kind] = found
            tiles[style] = per_kind
        return cls(tiles)

    def pick(self, rng: np.random.Generator, style: str, kind: str) -> Image:
        """One tile of that kind in that style."""
        options = self.tiles[style][kind]
        return options[int(rng.integers(len(options)))]


def wood_background(rng: np.random.Generator, size: int, paleness: float = 1.0) -> Image:
    """A board-coloured patch with grain (float BGR 0..255); `paleness` > 1 allows paler boards than usual."""
    light = rng.uniform(0.0, paleness) ** 0.6
    dark, pale = np.array([70.0, 120.0, 175.0]), np.array([185.0, 220.0, 240.0])
    base = (dark + (pale - dark) * light) * rng.uniform(0.94, 1.06, 3)
    grain_axis = int(rng.integers(2))
    freq = rng.uniform(0.05, 0.4)
    coords = np.arange(size, dtype=np.float32)
    wave = np.sin(coords * freq + rng.uniform(0, 6.3)) + 0.5 * rng.standard_normal(size)
    wave = cv2.GaussianBlur(wave.reshape(1, -1).astype(np.float32), (0, 0), 1.2).ravel()
    grain = np.tile(wave, (size, 1)) if grain_axis == 0 else np.tile(wave[:, None], (1, size))
    img = base[None, None, :] * (1 + rng.uniform(0.0, 0.06) * grain[:, :, None])
    img += rng.normal(0, rng.uniform(0, 4), (size, size, 1))
    return np.asarray(np.clip(img, 0, 255), dtype=np.float32)


def draw_grid(rng: np.random.Generator, img: Image, margin: float, cell: float) -> None:
    """The four grid lines round the centre square (slightly misplaced, as after an imperfect homography)."""
    if rng.random() < 0.05:
        return
    darkness = rng.uniform(0.25, 0.75)
    thickness = int(rng.integers(1, 4))
    size = img.shape[0]
    for pos in (margin, margin + cell):
        for vertical in (False, True):
            p0 = pos + rng.normal(0, 1.5)
            p1 = p0 + rng.normal(0, 1.5)
            a, b = ((p0, 0), (p1, size)) if vertical else ((0, p0), (size, p1))
            mask = np.zeros(img.shape[:2], np.float32)
            pa = (round(a[0]), round(a[1]))
            pb = (round(b[0]), round(b[1]))
            cv2.line(mask, pa, pb, 1.0, thickness, cv2.LINE_AA)
            img *= 1 - (1 - darkness) * mask[:, :, None]


def paste_piece(
    rng: np.random.Generator,
    img: Image,
    tile: Image,
    *,
    centre: tuple[float, float],
    height: float,
    angle: float,
) -> None:
    """Composite a tile (RGBA) with its shadow at `centre`, `height` pixels tall, turned by `angle` degrees."""
    th, tw = tile.shape[:2]
    scale = height / th
    aspect = rng.uniform(0.88, 1.12)
    rotation = cv2.getRotationMatrix2D((0, 0), angle, 1.0)[:, :2]
    linear = rotation @ np.diag([scale * aspect, scale])
    offset = np.array(centre) - linear @ np.array([tw / 2, th / 2])
    matrix = np.hstack([linear, offset[:, None]])
    corners = np.array([[0, 0], [tw, 0], [tw, th], [0, th]], np.float64) @ linear.T + offset
    pad = 0.1 * height + 3
    x0, y0 = np.maximum(np.floor(corners.min(axis=0) - pad), 0).astype(int)
    x1, y1 = np.minimum(np.ceil(corners.max(axis=0) + pad), [img.shape[1], img.shape[0]]).astype(int)
    if x1 <= x0 or y1 <= y0:
        return
    matrix = np.hstack([linear, (offset - [x0, y0])[:, None]])
    roi = img[y0:y1, x0:x1]
    size = (int(x1 - x0), int(y1 - y0))
    warped = cv2.warpAffine(tile, matrix, size, flags=cv2.INTER_AREA, borderMode=cv2.BORDER_CONSTANT)
    alpha = warped[:, :, 3:4].astype(np.float32) / 255
    shift = rng.normal(0, 0.04 * height, 2)
    shadow_m = np.array([[1, 0, shift[0]], [0, 1, abs(shift[1]) + 0.02 * height]], dtype=np.float32)
    shadow = cv2.warpAffine(alpha, shadow_m, size)
    shadow = cv2.GaussianBlur(shadow, (0, 0), max(0.5, 0.04 * height)).reshape(size[1], size[0], 1)
    roi *= 1 - rng.uniform(0.15, 0.5) * shadow
    colour = warped[:, :, :3].astype(np.float32) * rng.uniform(0.95, 1.05, 3) * rng.uniform(0.8, 1.1)
    roi[:] = roi * (1 - alpha) + colour * alpha


@dataclass(frozen=True)
class Variety:
    """How widely crops vary beyond the defaults: piece heights as shares of the square, the palest board, and
    stronger degradation (contrast, colour cast, desaturation, stronger blur)."""

    heights: tuple[float, float] = (0.62, 0.92)
    pale_board: float = 1.0
    strong: bool = False


DEFAULT_VARIETY = Variety()
WIDE_VARIETY = Variety(heights=(0.5, 0.95), pale_board=1.25, strong=True)
"""Smaller pieces relative to the square, paler boards and harsher pictures (as in the real photo)."""


def crop_for(
    rng: np.random.Generator,
    bank: PieceBank,
    style: str,
    target: int,
    styles: list[str] | None = None,
    *,
    variety: Variety = DEFAULT_VARIETY,
) -> Image:
    """A CROP×CROP BGR crop of class `target` (see module docstring) in `style`."""
    size = CROP * _S
    cell = size / (1 + 2 * MARGIN)
    margin = cell * MARGIN
    img = wood_background(rng, size, variety.pale_board)
    draw_grid(rng, img, margin, cell)
    neighbour_styles = styles or [style]
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            if (dx or dy) and rng.random() < 0.4:
                kind = KINDS[int(rng.integers(len(KINDS)))]
                n_style = style if rng.random() < 0.8 else neighbour_styles[int(rng.integers(len(neighbour_styles)))]
                centre = (
                    margin + cell * (dx + 0.5 + rng.normal(0, 0.08)),
                    margin + cell * (dy + 0.5 + rng.normal(0, 0.08)),
                )
                turn = 180.0 * int(rng.integers(2)) + rng.normal(0, 6)
                paste_piece(
                    rng,
                    img,
                    bank.pick(rng, n_style, kind),
                    centre=centre,
                    height=cell * rng.uniform(*variety.heights),
                    angle=turn,
                )
    if target == UNREADABLE:
        return unreadable(rng, bank, style, styles, variety)
    if target != len(SQUARE_LABELS) - 1:
        label = PIECE_LABELS[target] if target < len(PIECE_LABELS) else PIECE_LABELS[int(rng.integers(28))]
        kind = label.upper()
        angle = rng.uniform(-14, 14) + (0.0 if label.lstrip("+").isupper() else 180.0)
        if target == SIDEWAYS:
            angle += 90.0 if rng.random() < 0.5 else -90.0
        off = rng.uniform(-0.13, 0.13, 2) * cell
        centre = (margin + cell / 2 + off[0], margin + cell / 2 + off[1])
        paste_piece(
            rng,
            img,
            bank.pick(rng, style, kind),
            centre=centre,
            height=cell * rng.uniform(*variety.heights),
            angle=angle,
        )
    return harsh(rng, degrade(rng, img)) if variety.strong and rng.random() < 0.5 else degrade(rng, img)


def unreadable(
    rng: np.random.Generator,
    bank: PieceBank,
    style: str,
    styles: list[str] | None,
    variety: Variety = DEFAULT_VARIETY,
) -> Image:
    """A crop nobody could read: covered by a hand or sleeve, smeared by motion, or nearly black or white."""
    label = int(rng.integers(len(SQUARE_LABELS)))
    base: Image = crop_for(rng, bank, style, label, styles, variety=variety).astype(np.float32)
    mode = rng.random()
    if mode < 0.6:  # skin or sleeve covering most of the square
        tone = rng.uniform(0.3, 1.0) * (np.array([110, 150, 205]) if rng.random() < 0.6 else rng.uniform(20, 240, 3))
        mask: Image = np.zeros((CROP, CROP), np.float32)
        centre = (CROP / 2 + rng.normal(0, CROP / 6, 2)).astype(int)
        axes = (int(rng.uniform(0.4, 1.0) * CROP), int(rng.uniform(0.35, 0.8) * CROP))
        cv2.ellipse(mask, (int(centre[0]), int(centre[1])), axes, rng.uniform(0, 180), 0, 360, 1.0, -1)
        mask = cv2.GaussianBlur(mask, (0, 0), rng.uniform(0.8, 3.0))[:, :, None]
        yy = np.linspace(rng.uniform(0.6, 1.0), rng.uniform(0.8, 1.3), CROP, dtype=np.float32)[:, None, None]
        skin = tone * yy + rng.normal(0, 4, (CROP, CROP, 1))
        base = base * (1 - mask) + skin * mask
    elif mode < 0.85:  # motion blur
        length = int(rng.integers(9, 25))
        kernel: Image = np.zeros((length, length), np.float32)
        kernel[length // 2, :] = 1.0 / length
        rot = cv2.getRotationMatrix2D((length / 2 - 0.5, length / 2 - 0.5), rng.uniform(0, 180), 1.0)
        kernel = cv2.warpAffine(kernel, rot, (length, length))
        base = cv2.filter2D(base, -1, kernel / max(kernel.sum(), 1e-6), borderType=cv2.BORDER_REFLECT)
    else:  # nearly black or blown out
        base = base * rng.uniform(0.02, 0.1) if rng.random() < 0.5 else 255 - (255 - base) * rng.uniform(0.02, 0.1)
        base += rng.normal(0, 2.5, base.shape)
    return np.clip(base, 0, 255).astype(np.uint8)


def degrade(rng: np.random.Generator, img: Image) -> Image:
    """Perspective, lighting, resolution loss, blur, noise and JPEG, ending at CROP×CROP uint8."""
    size = img.shape[0]
    src = np.array([[0, 0], [size, 0], [size, size], [0, size]], dtype=np.float32)
    dst = src + rng.normal(0, 0.025 * size, (4, 2)).astype(np.float32)
    matrix = cv2.getPerspectiveTransform(src, dst)
    img = cv2.warpPerspective(img, matrix, (size, size), borderMode=cv2.BORDER_REFLECT)
    yy, xx = np.mgrid[0:size, 0:size].astype(np.float32) / size - 0.5
    gx, gy = rng.normal(0, 0.25, 2)
    light = rng.uniform(0.45, 1.25) * (1 + gx * xx + gy * yy)
    img = img * light[:, :, None]
    img = np.clip(img, 0, 255).astype(np.uint8)
    low = int(rng.integers(18, CROP + 1))
    img = cv2.resize(img, (low, low), interpolation=cv2.INTER_AREA)
    img = cv2.resize(img, (CROP, CROP), interpolation=cv2.INTER_LINEAR)
    if rng.random() < 0.5:
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.3, 1.1))
    noisy = img.astype(np.float32) + rng.normal(0, rng.uniform(0, 7), img.shape)
    img = np.clip(noisy, 0, 255).astype(np.uint8)
    if rng.random() < 0.5:
        quality = int(rng.integers(35, 95))
        ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, quality])
        if ok:
            img = np.asarray(cv2.imdecode(buf, cv2.IMREAD_COLOR))
    return np.asarray(img, dtype=np.uint8)


def harsh(rng: np.random.Generator, img: Image) -> Image:
    """Harsher picture: contrast change, colour cast, partial desaturation, extra blur (on a CROP×CROP crop)."""
    out = img.astype(np.float32)
    mean = out.mean()
    out = (out - mean) * rng.uniform(0.55, 1.4) + mean * rng.uniform(0.85, 1.15)
    out *= rng.uniform(0.9, 1.1, 3).astype(np.float32)
    grey = out.mean(axis=2, keepdims=True)
    mix = rng.uniform(0, 0.7)
    out = out * (1 - mix) + grey * mix
    if rng.random() < 0.4:
        out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.8, 1.6))
    return np.asarray(np.clip(out, 0, 255), dtype=np.uint8)


def sample_target(rng: np.random.Generator) -> int:
    """A class index: 12 % empty, 5 % sideways, 6 % unreadable, the rest spread evenly over the 28 piece labels."""
    u = rng.random()
    if u < 0.12:
        return len(SQUARE_LABELS) - 1
    if u < 0.17:
        return SIDEWAYS
    if u < 0.23:
        return UNREADABLE
    return int(rng.integers(len(PIECE_LABELS)))


def make_dataset(
    seed: int, n: int, styles: list[str], bank: PieceBank, variety: Variety = DEFAULT_VARIETY
) -> tuple[Image, NDArray[np.int64]]:
    """n crops (n×CROP×CROP×3) and their class indices, deterministic from the seed."""
    rng = np.random.default_rng(seed)
    crops = np.zeros((n, CROP, CROP, 3), np.uint8)
    targets = np.zeros(n, np.int64)
    for i in range(n):
        target = sample_target(rng)
        style = styles[int(rng.integers(len(styles)))]
        crops[i] = crop_for(rng, bank, style, target, styles, variety=variety)
        targets[i] = target
    return crops, targets
