"""More varied font-drawn piece faces for training (training only; nothing here ships as artwork).

`vision.train.fonts` draws flat ink on a wooden pentagon from 16 fonts. Real sets vary in more ways than the font,
so this module draws tiles (BGRA, pointing up, like `vision/assets/pieces`) that also vary in:
- the look of the writing (`LOOKS`): flat ink; ink with light on it (a glossy, paler highlight, as in the real
  photo); raised lacquer (a bright edge on one side, a shadow on the other); carved and inked; carved with no ink
  at all (only the relief's shading shows the character);
- ink colours: black, dark brown, blue-black, pale ink on dark wood; promoted faces red (`PROMOTED_RED` of them
  by default, or as asked), the others in the inks of the unpromoted faces;
- stroke weight (thinned or thickened strokes) and elastic strokes (a smooth random displacement of the glyphs,
  a hand-written look), glyph size and placement;
- the body: pale boxwood to dark wood and near-white, narrow or wide pentagons, a bevelled edge, grain.
Each font becomes two styles, `look_<font>_1` (one character) and `look_<font>_2` (two characters). The fonts in
`PROXY_FONTS` are never trained on: their styles are the development stand-in for "a set never seen".
Fonts come from Debian packages (training only): those of `vision.train.fonts` plus fonts-klee fonts-yusei-magic
fonts-train fonts-horai-umefont fonts-sawarabi-gothic fonts-morisawa-bizud-gothic fonts-ipamj-mincho
fonts-vlgothic fonts-noto-cjk fonts-takao-mincho (see `scripts/install-debs.sh --train`).
"""

from __future__ import annotations

import os
from functools import lru_cache, partial
from pathlib import Path

import cv2
import numpy as np
from PIL import Image as PilImage
from PIL import ImageDraw, ImageFont

from vision.board import Image
from vision.labels import CSA_CODES
from vision.train.fonts import FONT_ROOT, FONTS, PROMOTED_RED, styles_from_fonts

EXTRA_FONTS: dict[str, str] = {
    "kiloji_d": "truetype/kiloji/kiloji_d.ttf",
    "kiloji_p": "truetype/kiloji/kiloji_p.ttf",
    "mplus_thin": "opentype/mplus/Mplus1-Thin.otf",
    "mplus_bold": "opentype/mplus/Mplus2-Bold.otf",
    "bizud_gothic": "truetype/bizud-gothic/BIZUDGothic-Regular.ttf",
    "bizud_gothic_bold": "truetype/bizud-gothic/BIZUDGothic-Bold.ttf",
    "ume_gothic": "truetype/horai-umefont/ume-tgo4.ttf",
    "ume_gothic_c": "truetype/horai-umefont/ume-tgc5.ttf",
    "sawarabi_gothic": "truetype/sawarabi-gothic/sawarabi-gothic-medium.ttf",
    "ipamj": "truetype/ipamj/ipamjm.ttf",
    "vlgothic": "truetype/vlgothic/VL-Gothic-Regular.ttf",
    "train": "truetype/train/TrainOne-Regular.ttf",
    "noto_sans_bold": "opentype/noto/NotoSansCJK-Bold.ttc",
    "noto_serif_bold": "opentype/noto/NotoSerifCJK-Bold.ttc",
    "takao_mincho": "truetype/takao-mincho/TakaoPMincho.ttf",
    "klee": "truetype/klee/KleeOne-Regular.ttf",
    "klee_bold": "truetype/klee/KleeOne-SemiBold.ttf",
    "yusei": "truetype/yusei-magic/YuseiMagic-Regular.ttf",
    "ume_mincho": "truetype/horai-umefont/ume-tmo3.ttf",
}
"""Fonts beyond `vision.train.fonts.FONTS` (name -> path under FONT_ROOT)."""
PROXY_FONTS: tuple[str, ...] = ("klee", "klee_bold", "yusei", "ume_mincho")
"""Fonts never trained on: their styles stand in for unseen sets while developing."""
LOOKS: tuple[str, ...] = ("ink", "glossy", "raised", "carved_ink", "carved")
VARIANTS = 4
"""Tiles per kind and style."""
_W, _H = 200, 224
_INKS: tuple[tuple[float, float, float], ...] = ((18, 16, 14), (20, 38, 66), (50, 26, 20), (30, 30, 30))
"""Black, dark brown, blue-black, soft black (BGR)."""


def look_fonts(root: Path = FONT_ROOT) -> dict[str, Path]:
    """Every font of `FONTS` and `EXTRA_FONTS` present on this machine."""
    return {n: root / rel for n, rel in (FONTS | EXTRA_FONTS).items() if (root / rel).is_file()}


@lru_cache(maxsize=512)
def font_at(path: Path, size: int) -> ImageFont.FreeTypeFont:
    """A font at a size (loading a large font file each time would dominate the drawing time)."""
    return ImageFont.truetype(str(path), size)


def body(rng: np.random.Generator) -> tuple[Image, Image]:
    """A wooden (or pale, plastic-like) pentagon with grain and a bevelled edge: BGR float pixels and mask."""
    u = rng.random()
    if u < 0.1:
        colour = np.array([215.0, 228.0, 235.0])  # near white
    else:
        tone = rng.uniform(0, 1)
        pale, dark = np.array([140.0, 205.0, 240.0]), np.array([35.0, 70.0, 125.0])
        colour = pale + (dark - pale) * tone**1.6
    colour = (colour * rng.uniform(0.93, 1.07, 3)).astype(np.float32)
    ys, xs = np.mgrid[0:_H, 0:_W].astype(np.float32)
    phase = 3 * np.sin(ys * rng.uniform(0.004, 0.03) + rng.uniform(0, 6))
    grain = np.sin(xs * rng.uniform(0.04, 0.3) + phase) + 0.4 * np.sin(xs * rng.uniform(0.3, 0.8) + phase)
    shade = 1 + np.float32(rng.uniform(0.0, 0.07)) * grain - np.float32(rng.uniform(0, 0.1)) * ys / _H
    pixels = colour[None, None, :] * shade[:, :, None]
    inset, shoulder = rng.uniform(0.04, 0.14) * _W, rng.uniform(0.18, 0.32) * _H
    bottom_inset = rng.uniform(0, 0.05) * _W
    pts = np.array(
        [
            [_W / 2, 0],
            [_W - inset, shoulder],
            [_W - 1 - bottom_inset, _H - 1],
            [bottom_inset, _H - 1],
            [inset, shoulder],
        ]
    )
    mask = np.zeros((_H, _W), np.uint8)
    cv2.fillPoly(mask, [pts.astype(np.int32)], 255)
    k = int(rng.integers(5, 15)) | 1
    eroded = cv2.erode(mask, np.ones((k, k), np.uint8)).astype(np.float32) / 255
    edge = cv2.GaussianBlur(eroded, (0, 0), rng.uniform(0.5, 3))
    pixels *= (rng.uniform(0.7, 0.92) + (1 - rng.uniform(0.7, 0.92)) * edge)[:, :, None]
    return pixels, mask


def glyphs(rng: np.random.Generator, font_path: Path, text: str) -> Image:
    """The text written down the face (float mask 0..1, _H × _W), with random size, stroke weight and
    elastic distortion."""
    layer = PilImage.new("L", (_W, _H), 0)
    draw = ImageDraw.Draw(layer)
    top, bottom = rng.uniform(0.18, 0.3) * _H, rng.uniform(0.86, 0.98) * _H
    cell = (bottom - top) / len(text)
    width = _W * (rng.uniform(0.55, 0.68) if len(text) == 2 else rng.uniform(0.5, 0.8))
    size = int(min(cell * rng.uniform(0.85, 1.1), width))
    font = font_at(font_path, max(size, 8))
    for i, ch in enumerate(text):
        left, upper, right, lower = font.getbbox(ch)
        cx, cy = _W / 2 + rng.normal(0, 2.5), top + cell * (i + 0.5) + rng.normal(0, 2)
        draw.text((cx - (left + right) / 2, cy - (upper + lower) / 2), ch, font=font, fill=255)
    mask: Image = np.asarray(layer, dtype=np.float32) / 255
    weight = int(rng.integers(-2, 4))
    if weight:
        kernel = np.ones((3, 3), np.uint8)
        op = cv2.dilate if weight > 0 else cv2.erode
        changed = np.asarray(op(mask, kernel, iterations=abs(weight)), dtype=np.float32)
        mask = changed if changed.sum() > 0.55 * mask.sum() else mask
    if rng.random() < 0.6:
        mask = elastic(rng, mask, rng.uniform(1.0, 4.5))
    return np.asarray(mask, dtype=np.float32)


def elastic(rng: np.random.Generator, mask: Image, amplitude: float) -> Image:
    """Displace the mask by a smooth random field of about `amplitude` pixels."""
    h, w = mask.shape
    coarse = rng.normal(0, amplitude, (2, 6, 6)).astype(np.float32)
    dx = cv2.resize(coarse[0], (w, h), interpolation=cv2.INTER_CUBIC)
    dy = cv2.resize(coarse[1], (w, h), interpolation=cv2.INTER_CUBIC)
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    return np.asarray(cv2.remap(mask, xs + dx, ys + dy, cv2.INTER_LINEAR), dtype=np.float32)


def shading(rng: np.random.Generator, mask: Image) -> Image:
    """Relief of the strokes lit from one side: positive where light falls, negative in shadow (about -1..1)."""
    soft = cv2.GaussianBlur(mask, (0, 0), rng.uniform(1.0, 2.5))
    angle = rng.uniform(0, 2 * np.pi)
    gx = cv2.Sobel(soft, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(soft, cv2.CV_32F, 0, 1, ksize=3)
    relief = np.cos(angle) * gx + np.sin(angle) * gy
    return np.asarray(relief / max(float(np.abs(relief).max()), 1e-6), dtype=np.float32)


def ink_colour(rng: np.random.Generator, promoted: bool, body_mean: float, red: float = PROMOTED_RED) -> Image:
    """An ink that reads on the body: red for a promoted face with probability `red`, else black/brown/blue-black
    (pale on dark) as for the unpromoted faces (the same random draws whatever `red` is)."""
    if promoted and rng.random() < red:
        return np.array([rng.uniform(10, 50), rng.uniform(10, 50), rng.uniform(140, 215)])
    if body_mean < 95 and rng.random() < 0.7:
        return np.array([200.0, 222.0, 232.0]) * rng.uniform(0.85, 1.05)
    return np.array(_INKS[int(rng.integers(len(_INKS)))]) * rng.uniform(0.8, 1.4)


def write(rng: np.random.Generator, pixels: Image, mask: Image, ink: Image, look: str) -> Image:
    """Put the strokes `mask` on the body `pixels` in the given look (see `LOOKS`)."""
    alpha = mask[:, :, None] * np.float32(rng.uniform(0.85, 1.0))
    ink = ink.astype(np.float32)
    if look == "carved":
        relief = shading(rng, mask)[:, :, None]
        carved: Image = pixels * (1 - rng.uniform(0.15, 0.35) * alpha) * (1 + rng.uniform(0.45, 0.8) * relief)
        return carved
    out = pixels * (1 - alpha) + ink[None, None, :] * alpha
    if look == "glossy":
        yy, xx = np.mgrid[0:_H, 0:_W].astype(np.float32)
        cx, cy, r = rng.uniform(0.2, 0.8) * _W, rng.uniform(0.2, 0.8) * _H, rng.uniform(0.2, 0.6) * _H
        glow = np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * r * r))[:, :, None]
        out += alpha * glow * rng.uniform(40, 110)
    elif look in ("raised", "carved_ink"):
        relief = shading(rng, mask)[:, :, None]
        sign = 1.0 if look == "raised" else -1.0
        out *= 1 + sign * rng.uniform(0.3, 0.8) * relief
    return out


def tile(rng: np.random.Generator, font_path: Path, text: str, promoted: bool, red: float = PROMOTED_RED) -> Image:
    """One piece tile (BGRA uint8, pointing up, long side 96 px); a promoted face red with probability `red`."""
    pixels, body_mask = body(rng)
    mask = glyphs(rng, font_path, text)
    look = LOOKS[int(rng.choice(len(LOOKS), p=[0.35, 0.2, 0.15, 0.15, 0.15]))]
    if promoted and look == "carved":
        look = "carved_ink"
    ink = ink_colour(rng, promoted, float(pixels.mean()), red)
    out = write(rng, pixels, mask, ink, look)
    bgra = np.dstack([np.clip(out, 0, 255).astype(np.uint8), body_mask])
    k = 96 / _H
    return np.asarray(cv2.resize(bgra, (round(_W * k), 96), interpolation=cv2.INTER_AREA), dtype=np.uint8)


def look_tiles(
    seed: int, fonts: dict[str, Path] | None = None, red: float = PROMOTED_RED
) -> dict[str, dict[str, list[Image]]]:
    """Tiles per look style and kind, deterministic from the seed (each font its own generator; promoted faces
    red with probability `red`); a font missing a kind's glyphs gives no style for that form (one or two
    characters)."""

    def rng_for(name: str) -> np.random.Generator:
        return np.random.default_rng([seed, sum(map(ord, name))])

    chosen = fonts if fonts is not None else look_fonts()
    return styles_from_fonts(chosen, rng_for, partial(tile, red=red), "look", VARIANTS)


def write_sprite_dirs(tiles: dict[str, dict[str, list[Image]]], root: Path) -> dict[str, Path]:
    """Write each style's tiles as renderer sprite folders (`vision.render` layout: `0OU.png`, `0GY.png`,
    `0HI.png`, ...), one folder per tile variant (`<style>_v<i>`); returns folder name -> path. Each file is written
    whole and then moved into place, so that runs sharing the folders (two evaluations at once) never read a
    half-written sprite."""
    dirs: dict[str, Path] = {}
    for style, per_kind in sorted(tiles.items()):
        for v in range(min(len(t) for t in per_kind.values())):
            folder = root / f"{style}_v{v}"
            folder.mkdir(parents=True, exist_ok=True)
            for kind, options in per_kind.items():
                _write_whole(folder / f"0{CSA_CODES[kind]}.png", options[v])
            kings = per_kind["K"]
            _write_whole(folder / "0GY.png", kings[(v + 1) % len(kings)])
            dirs[folder.name] = folder
    return dirs


def _write_whole(path: Path, picture: Image) -> None:
    """Write a PNG under a name of this process's, then move it to `path` in one step."""
    part = path.with_name(f".{os.getpid()}.{path.name}")
    cv2.imwrite(str(part), picture)
    os.replace(part, path)


def is_proxy(style: str) -> bool:
    """True for the look styles drawn from `PROXY_FONTS` (never trained on)."""
    return any(style in (f"look_{f}_1", f"look_{f}_2") for f in PROXY_FONTS)
