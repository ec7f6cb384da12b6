"""Extra piece faces drawn from Japanese fonts at training time (training only; nothing here ships as artwork).

The shipped artwork has few one-character, brush-written and handwritten styles; real sets have many. This module
draws piece tiles (BGRA, pointing up, like `vision/assets/pieces`) from every font in `FONTS` that is installed:
one- and two-character faces, several glyph choices per kind (`王`/`玉`, `竜`/`龍`, cursive promoted faces),
random wooden bodies (pale to dark), black, brown or pale ink, promoted faces red (a `PROMOTED_RED` share by
default, or as asked: the others in the ink of the unpromoted faces, as in sets written in one ink). Each font
becomes two training styles (`gen_<font>_1` one character, `gen_<font>_2` two characters) in a `PieceBank`, so
`vision.train.synth` can draw crops from them exactly as from the shipped styles.
Fonts come from Debian packages (training only): fonts-aoyagi-kouzan-t fonts-aoyagi-soseki fonts-kouzan-mouhitsu
fonts-kiloji fonts-seto fonts-hanazono fonts-motoya-l-cedar fonts-motoya-l-maruberi fonts-sawarabi-mincho
fonts-mplus fonts-morisawa-bizud-mincho fonts-dejima-mincho fonts-ipaexfont-gothic fonts-oradano-mincho-gsrr.

`BRUSH_FONTS` are more brush-written hands (Chinese and Korean regular-script fonts: fonts-arphic-ukai
fonts-cns11643-kai fonts-cwtex-kai fonts-cwtex-fs fonts-unfonts-core), kept apart as their own styles
(`brush_<font>_<1|2>`, `brush_tiles`) so that the styles and caches above stay as they were. Where such a font
lacks a Japanese form it writes the traditional one (`STAND_INS`: 將 for 将, 步 for 歩), as some sets do.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path

import cv2
import numpy as np
from PIL import Image as PilImage
from PIL import ImageDraw, ImageFont

from vision.board import Image
from vision.labels import KINDS

FONT_ROOT = Path("/usr/share/fonts")
FONTS: dict[str, str] = {
    "kouzan": "truetype/aoyagi-kouzan-t/AoyagiKouzanT.ttf",
    "soseki": "truetype/aoyagi-soseki/aoyagi-soseki.ttf",
    "mouhitsu": "truetype/kouzan-mouhitsu/kouzan-mouhitsu.ttf",
    "gyosho": "truetype/kouzan-mouhitsu/kouzan-mouhitsu-gyosho.ttf",
    "kiloji": "truetype/kiloji/kiloji_b.ttf",
    "seto": "truetype/seto/setofont.ttf",
    "hanazono": "truetype/hanazono/HanaMinA.ttf",
    "cedar": "truetype/motoya-l-cedar/MTLc3m.ttf",
    "maruberi": "truetype/motoya-l-maruberi/MTLmr3m.ttf",
    "sawarabi": "truetype/sawarabi-mincho/sawarabi-mincho-medium.ttf",
    "mplus_black": "opentype/mplus/Mplus1-Black.otf",
    "mplus_light": "opentype/mplus/Mplus2-Light.otf",
    "bizud": "truetype/bizud-mincho/BIZUDMincho-Regular.ttf",
    "dejima": "truetype/dejima-mincho/dejima-mincho-r227.ttf",
    "ipaex_gothic": "opentype/ipaexfont-gothic/ipaexg.ttf",
    "oradano": "truetype/oradano-mincho/OradanoGSRR.ttf",
}
"""Training font name -> path under FONT_ROOT."""
BRUSH_FONTS: dict[str, str] = {
    "ukai": "truetype/arphic/ukai.ttc",
    "twkai": "truetype/cns11643/TW-Kai-98_1.ttf",
    "cwkai": "truetype/cwtex/cwkai.ttf",
    "cwfs": "truetype/cwtex/cwfs.ttf",
    "gungseo": "truetype/unfonts-core/UnGungseo.ttf",
}
"""More brush-written hands (regular-script Chinese and Korean fonts), drawn as the `brush_` styles."""
BRUSH_SEED = 13
"""Seed of the `brush_` styles' tiles."""
STAND_INS: dict[str, str] = {"将": "將", "歩": "步"}
"""Traditional forms a font without the Japanese one writes instead (`styles_from_fonts(stand_ins=True)`)."""

ONE_CHAR: dict[str, tuple[str, ...]] = {
    "K": ("王", "玉"), "R": ("飛",), "B": ("角",), "G": ("金",), "S": ("銀",), "N": ("桂",), "L": ("香",),
    "P": ("歩",), "+R": ("竜", "龍"), "+B": ("馬",), "+S": ("全",), "+N": ("圭", "今"),
    "+L": ("杏", "仝"), "+P": ("と", "と", "个"),
}  # fmt: skip
TWO_CHARS: dict[str, tuple[str, ...]] = {
    "K": ("王将", "玉将"), "R": ("飛車",), "B": ("角行",), "G": ("金将",), "S": ("銀将",), "N": ("桂馬",),
    "L": ("香車",), "P": ("歩兵",), "+R": ("龍王", "竜王"), "+B": ("龍馬", "竜馬"), "+S": ("成銀", "全"),
    "+N": ("成桂", "圭"), "+L": ("成香", "杏"), "+P": ("と金", "と"),
}  # fmt: skip
VARIANTS = 3
"""Tiles per kind and style (different bodies, inks and glyph choices)."""
PROMOTED_RED = 0.8
"""Share of promoted faces drawn in red ink by default (the rest in the ink of the unpromoted faces); a lower
share (`train_classifier --promoted-red`) keeps a model from taking red ink for "promoted"."""
_W, _H = 200, 224


def installed_fonts(root: Path = FONT_ROOT, fonts: dict[str, str] = FONTS) -> dict[str, Path]:
    """The fonts of `fonts` (by default `FONTS`) present on this machine."""
    return {name: root / rel for name, rel in fonts.items() if (root / rel).is_file()}


def has_glyph(font: ImageFont.FreeTypeFont, ch: str) -> bool:
    """True when the font draws `ch` as something other than its missing-glyph box (or nothing)."""
    mask = np.asarray(font.getmask(ch))
    if mask.size == 0 or int(mask.max()) == 0:
        return False
    missing = np.asarray(font.getmask("\ue000"))
    return bool(mask.shape != missing.shape or np.any(mask != missing))


def body(rng: np.random.Generator) -> tuple[Image, Image, tuple[int, int, int]]:
    """A wooden pentagon: BGR float pixels, its mask, and an ink colour that reads on it."""
    tone = rng.uniform(0, 1)
    pale, dark = np.array([150.0, 215.0, 245.0]), np.array([40.0, 70.0, 120.0])
    colour = (pale + (dark - pale) * tone**1.8) * rng.uniform(0.96, 1.04, 3)
    ys, xs = np.mgrid[0:_H, 0:_W].astype(np.float32)
    grain = np.sin(xs * rng.uniform(0.05, 0.2) + 3 * np.sin(ys * rng.uniform(0.005, 0.03) + rng.uniform(0, 6)))
    pixels = colour[None, None, :] * (1 + rng.uniform(0.01, 0.06) * grain - 0.06 * ys / _H)[:, :, None]
    inset, shoulder = rng.uniform(0.06, 0.12) * _W, rng.uniform(0.2, 0.3) * _H
    pts = np.array([[_W / 2, 0], [_W - inset, shoulder], [_W - 1, _H - 1], [0, _H - 1], [inset, shoulder]])
    mask = np.zeros((_H, _W), np.uint8)
    cv2.fillPoly(mask, [pts.astype(np.int32)], 255)
    edge = cv2.erode(mask, np.ones((9, 9), np.uint8)).astype(np.float32) / 255
    pixels *= (rng.uniform(0.75, 0.9) + (1 - rng.uniform(0.75, 0.9)) * edge)[:, :, None]
    ink = (20, 16, 12) if tone < 0.6 or rng.random() < 0.2 else (200, 225, 235)
    return pixels, mask, ink


def tile(rng: np.random.Generator, font_path: Path, text: str, promoted: bool, red: float = PROMOTED_RED) -> Image:
    """One piece tile (BGRA uint8, pointing up, long side 96 px) with `text` written down its face; a promoted
    face in red ink with probability `red` (the same random draws whatever `red` is)."""
    pixels, mask, ink = body(rng)
    if promoted and rng.random() < red:
        ink = (int(rng.uniform(10, 40)), int(rng.uniform(10, 40)), int(rng.uniform(150, 215)))
    layer = PilImage.new("L", (_W, _H), 0)
    draw = ImageDraw.Draw(layer)
    top, bottom = rng.uniform(0.2, 0.28) * _H, rng.uniform(0.9, 0.98) * _H
    cell = (bottom - top) / len(text)
    size = int(min(cell * rng.uniform(0.92, 1.08), _W * (0.62 if len(text) == 2 else rng.uniform(0.6, 0.78))))
    font = ImageFont.truetype(str(font_path), max(size, 8))
    stroke = int(rng.integers(0, 3)) if len(text) == 2 else int(rng.integers(0, 4))
    for i, ch in enumerate(text):
        left, upper, right, lower = font.getbbox(ch)
        cx, cy = _W / 2 + rng.normal(0, 2), top + cell * (i + 0.5)
        draw.text((cx - (left + right) / 2, cy - (upper + lower) / 2), ch, font=font, fill=255, stroke_width=stroke)
    alpha = np.asarray(layer, dtype=np.float32)[:, :, None] / 255 * rng.uniform(0.85, 1.0)
    pixels = pixels * (1 - alpha) + np.array(ink, np.float32) * alpha
    bgra = np.dstack([np.clip(pixels, 0, 255).astype(np.uint8), mask])
    k = 96 / _H
    return np.asarray(cv2.resize(bgra, (round(_W * k), 96), interpolation=cv2.INTER_AREA), dtype=np.uint8)


TileMaker = Callable[[np.random.Generator, Path, str, bool], Image]
"""Draws one tile: (rng, font path, the characters, promoted) -> BGRA tile."""


def font_tiles(
    seed: int, fonts: dict[str, Path] | None = None, red: float = PROMOTED_RED
) -> dict[str, dict[str, list[Image]]]:
    """Tiles per generated style and kind, deterministic from the seed (promoted faces red with probability
    `red`); a font missing a kind's glyphs is left out of that style."""
    rng = np.random.default_rng(seed)
    chosen = fonts if fonts is not None else installed_fonts()
    return styles_from_fonts(chosen, lambda _name: rng, partial(tile, red=red), "gen", VARIANTS)


def brush_tiles(seed: int = BRUSH_SEED, red: float = PROMOTED_RED) -> dict[str, dict[str, list[Image]]]:
    """Tiles per `brush_` style and kind from the installed `BRUSH_FONTS` (each font its own generator from
    `seed`, so one font missing changes no other's tiles), traditional forms standing in (`STAND_INS`)."""

    def rng_for(name: str) -> np.random.Generator:
        return np.random.default_rng([seed, *name.encode()])

    fonts = installed_fonts(fonts=BRUSH_FONTS)
    return styles_from_fonts(fonts, rng_for, partial(tile, red=red), "brush", VARIANTS, stand_ins=True)


def written(text: str, font: ImageFont.FreeTypeFont, stand_ins: bool) -> str | None:
    """`text` as the font can write it: as it is, or (with `stand_ins`) with `STAND_INS` for the characters it
    lacks; None when it cannot."""
    if stand_ins:
        text = "".join(STAND_INS[ch] if ch in STAND_INS and not has_glyph(font, ch) else ch for ch in text)
    return text if all(has_glyph(font, ch) for ch in text) else None


def styles_from_fonts(
    fonts: dict[str, Path],
    rng_for: Callable[[str], np.random.Generator],
    make_tile: TileMaker,
    prefix: str,
    variants: int,
    *,
    stand_ins: bool = False,
) -> dict[str, dict[str, list[Image]]]:
    """`variants` tiles per kind for each font's one- and two-character forms (`<prefix>_<font>_<1|2>`), drawn
    by `make_tile` with the generator `rng_for(font name)`; a form is left out when the font lacks a kind's
    glyphs (with `stand_ins`, after trying `STAND_INS` for them)."""
    styles: dict[str, dict[str, list[Image]]] = {}
    for name, path in sorted(fonts.items()):
        rng = rng_for(name)
        probe = ImageFont.truetype(str(path), 64)
        for chars, table in (("1", ONE_CHAR), ("2", TWO_CHARS)):
            per_kind: dict[str, list[Image]] = {}
            for kind in KINDS:
                options = [w for w in (written(t, probe, stand_ins) for t in table[kind]) if w is not None]
                if options:
                    texts = [options[int(rng.integers(len(options)))] for _ in range(variants)]
                    per_kind[kind] = [make_tile(rng, path, t, kind.startswith("+")) for t in texts]
            if len(per_kind) == len(KINDS):
                styles[f"{prefix}_{name}_{chars}"] = per_kind
    return styles
