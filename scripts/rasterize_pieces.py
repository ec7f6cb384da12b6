"""Build the renderer's piece sprites: `vision/assets/pieces/<style>/<0|1><CSA>.png` (BGRA, cropped, 96 px).

Run at asset-build time only (needs the `train` extra: cairosvg and Pillow; cairosvg needs Debian's libcairo2;
the font styles need Debian's fonts-ipafont-mincho, fonts-ipafont-gothic, fonts-ipaexfont-mincho, fonts-noto-cjk):

    .venv/bin/python scripts/rasterize_pieces.py [--src ../shared/data/piece-sets] [--out vision/assets/pieces]

Two sources:
- the ten SVG styles from `--src` (lishogi's piece collection; see ATTRIBUTION.md, written beside the PNGs).
  `0XX` points up (sente), `1XX` down (gote). Each file is rasterised, cropped to its opaque box and scaled to
  96 px on the long side. A gote file that is just the sente one turned by 180 degrees is not written (the
  renderer turns the sente sprite). engraved_cz's 0KE and 0NK render broken with cairosvg (the body gradient
  comes out black and white), so those two are made from 1KE / 1NK turned by 180 degrees. simple_kanji has no
  piece outline (bare glyphs), so its glyphs are laid on a drawn wooden pentagon.
- font styles (`font_*`): kanji drawn from a Japanese font on a drawn wooden pentagon, promoted faces in red.

The runtime renderer loads only the PNGs with OpenCV; it needs neither fonts nor cairo.
"""

from __future__ import annotations

import argparse
import io
import shutil
from dataclasses import dataclass
from pathlib import Path

import cairosvg
import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont

CSA = ("OU", "GY", "HI", "KA", "KI", "GI", "KE", "KY", "FU", "RY", "UM", "NG", "NK", "NY", "TO")
PROMOTED = {"RY", "UM", "NG", "NK", "NY", "TO"}
LONG_SIDE = 96
BROKEN = {("engraved_cz", "0KE"), ("engraved_cz", "0NK")}
"""Files cairosvg renders wrongly; built from the other orientation turned by 180 degrees."""

ATTRIBUTION = """# Piece artwork: sources and licences

The PNGs in the SVG-derived folders are rasterisations (cropped, scaled to 96 px) of the lishogi project's piece
collection: repository WandererXII/lishogi, `ui/@build/pieces/assets/standard/`, commit
acb3b12286dd41bc88edfa81172e6a5e7f68c52b. Built by `scripts/rasterize_pieces.py`.

| folder | author | licence |
|---|---|---|
| kanji_light, kanji_brown, kanji_red_wood, simple_kanji | Ka-hu | CC BY 4.0 |
| 1kanji_3d | Little-Mage and CouchTomato87 | CC BY 4.0 |
| 2kanji_3d | Little-Mage and orangain | CC BY-SA 3.0 |
| orangain | orangain | CC BY-SA 3.0 |
| ryoko_1kanji | nexxogen | CC BY-SA 4.0 |
| shogi_cz | shogi.cz | CC BY-SA 4.0 |
| engraved_cz | ddeo604 | CC BY-SA 4.0 |

Changes: rasterised and cropped; engraved_cz `0KE`/`0NK` are `1KE`/`1NK` turned by 180 degrees (cairosvg draws
the originals' body gradient wrongly); simple_kanji's bare glyphs are laid on a drawn wooden pentagon; a gote
file (`1XX`) that would be the sente one turned by 180 degrees is left out (the renderer turns `0XX`).
The derived PNGs are shared under the same licences as their sources (CC BY / CC BY-SA as listed).

The `font_*` folders are drawn by the script from Debian fonts (glyph shapes only, on a drawn pentagon):
IPA Mincho / IPA Gothic / IPAex Mincho (IPA Font License Agreement v1.0), Noto Serif CJK / Noto Sans CJK
(SIL Open Font License 1.1). Rendered images of glyphs are not font software; attribution is given here.
"""


@dataclass(frozen=True)
class FontStyle:
    """A font-drawn style: font file (and face name for collections), one or two characters per piece."""

    name: str
    path: str
    face: str | None
    two_chars: bool
    body_bgr: tuple[int, int, int]


FONT_STYLES = (
    FontStyle("font_ipa_mincho", "/usr/share/fonts/opentype/ipafont-mincho/ipam.ttf", None, True, (120, 190, 228)),
    FontStyle("font_ipaex_mincho", "/usr/share/fonts/opentype/ipaexfont-mincho/ipaexm.ttf", None, False,
              (96, 165, 214)),
    FontStyle("font_ipa_gothic", "/usr/share/fonts/opentype/ipafont-gothic/ipag.ttf", None, False, (140, 200, 232)),
    FontStyle("font_noto_serif", "/usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc", "Noto Serif CJK JP",
              True, (88, 150, 200)),
    FontStyle("font_noto_sans", "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc", "Noto Sans CJK JP", False,
              (110, 178, 220)),
)  # fmt: skip

TWO_CHARS = {
    "OU": "王将", "GY": "玉将", "HI": "飛車", "KA": "角行", "KI": "金将", "GI": "銀将", "KE": "桂馬",
    "KY": "香車", "FU": "歩兵", "RY": "龍王", "UM": "龍馬", "NG": "成銀", "NK": "成桂", "NY": "成香",
    "TO": "と金",
}  # fmt: skip
ONE_CHAR = {
    "OU": "王", "GY": "玉", "HI": "飛", "KA": "角", "KI": "金", "GI": "銀", "KE": "桂", "KY": "香",
    "FU": "歩", "RY": "竜", "UM": "馬", "NG": "全", "NK": "圭", "NY": "杏", "TO": "と",
}  # fmt: skip


def crop_and_scale(bgra: np.ndarray) -> np.ndarray:
    """Crop to the opaque box and scale so the long side is LONG_SIDE pixels."""
    ys, xs = np.nonzero(bgra[..., 3] > 8)
    if len(xs) == 0:
        raise ValueError("sprite is fully transparent")
    bgra = bgra[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
    h, w = bgra.shape[:2]
    k = LONG_SIDE / max(h, w)
    size = (max(1, round(w * k)), max(1, round(h * k)))
    return cv2.resize(premultiply(bgra), size, interpolation=cv2.INTER_AREA).astype(np.uint8)


def premultiply(bgra: np.ndarray) -> np.ndarray:
    """Zero the colour of transparent pixels so downscaling does not bleed stray colours into the edges."""
    out = bgra.astype(np.float32)
    alpha = out[..., 3:4] / 255.0
    out[..., :3] = np.where(alpha > 0.02, out[..., :3], 0)
    return out


def svg_to_bgra(path: Path) -> np.ndarray:
    """Rasterise an SVG at twice the final resolution, as BGRA."""
    png = cairosvg.svg2png(url=str(path), output_height=LONG_SIDE * 3)
    rgba = np.array(Image.open(io.BytesIO(png)).convert("RGBA"))
    return cv2.cvtColor(rgba, cv2.COLOR_RGBA2BGRA)


def pentagon(width: int, height: int) -> list[tuple[float, float]]:
    """The outline of a shogi piece pointing up, inside a width x height box."""
    inset = 0.09 * width
    shoulder = 0.27 * height
    return [(width / 2, 0), (width - inset, shoulder), (width - 1, height - 1), (0, height - 1), (inset, shoulder)]


def wooden_body(width: int, height: int, body_bgr: tuple[int, int, int], seed: int) -> Image.Image:
    """A plain wooden pentagon (RGBA) with faint grain and a darker bevel at the edge."""
    rng = np.random.default_rng(seed)
    ys = np.arange(height, dtype=np.float32)[:, None]
    xs = np.arange(width, dtype=np.float32)[None, :]
    grain = np.sin(xs * rng.uniform(0.08, 0.16) + 4 * np.sin(ys * 0.015 + rng.uniform(0, 6)))
    shade = 1.0 + 0.025 * grain - 0.05 * ys / height
    b, g, r = body_bgr
    rgb = np.stack([np.full_like(shade, r) * shade, g * shade, b * shade], axis=-1)
    mask = Image.new("L", (width, height), 0)
    ImageDraw.Draw(mask).polygon(pentagon(width, height), fill=255)
    edge = np.asarray(mask.filter(ImageFilter.MinFilter(9)), dtype=np.float32) / 255.0
    rgb *= (0.8 + 0.2 * edge)[..., None]
    body = Image.fromarray(np.clip(rgb, 0, 255).astype(np.uint8), "RGB").convert("RGBA")
    body.putalpha(mask)
    return body


def load_font(style: FontStyle, size: int) -> ImageFont.FreeTypeFont:
    """The style's font at a pixel size (finds the named face inside a collection)."""
    if style.face is None:
        return ImageFont.truetype(style.path, size)
    for index in range(20):
        font = ImageFont.truetype(style.path, size, index=index)
        if font.getname()[0] == style.face:
            return font
    raise ValueError(f"no face {style.face!r} in {style.path}")


def draw_glyphs(body: Image.Image, text: str, font_for: FontStyle | None, ink: tuple[int, int, int]) -> None:
    """Write one or two characters (stacked) centred on the body, below the apex."""
    width, height = body.size
    draw = ImageDraw.Draw(body)
    n = len(text)
    top, bottom = 0.22 * height, 0.97 * height
    cell = (bottom - top) / n
    size = int(min(cell * 1.02, width * (0.66 if n == 2 else 0.72)))
    stroke = max(1, size // 28) if n == 2 else 0
    font = load_font(font_for, size) if font_for else ImageFont.load_default(size)
    for i, ch in enumerate(text):
        left, upper, right, lower = font.getbbox(ch)
        cx, cy = width / 2, top + cell * (i + 0.5)
        draw.text(
            (cx - (left + right) / 2, cy - (upper + lower) / 2),
            ch,
            font=font,
            fill=(*ink, 255),
            stroke_width=stroke,
            stroke_fill=(*ink, 255),
        )


def font_piece(style: FontStyle, code: str, seed: int) -> np.ndarray:
    """One font-drawn piece pointing up, BGRA."""
    width, height = 3 * 100, 3 * 112
    body = wooden_body(width, height, style.body_bgr, seed)
    text = TWO_CHARS[code] if style.two_chars else ONE_CHAR[code]
    ink = (190, 30, 25) if code in PROMOTED else (20, 16, 12)
    draw_glyphs(body, text, style, ink)
    return cv2.cvtColor(np.array(body), cv2.COLOR_RGBA2BGRA)


def glyph_on_body(glyph: np.ndarray, seed: int) -> np.ndarray:
    """Lay a bare glyph sprite (BGRA, pointing up) on a wooden pentagon (for simple_kanji)."""
    gh, gw = glyph.shape[:2]
    width = int(max(gw / 0.7, gh / 0.66 * 100 / 112))
    height = int(width * 1.12)
    body = cv2.cvtColor(np.array(wooden_body(width, height, (105, 175, 222), seed)), cv2.COLOR_RGBA2BGRA)
    y0 = int(0.27 * height + (0.67 * height - gh) / 2)
    x0 = (width - gw) // 2
    roi = body[y0 : y0 + gh, x0 : x0 + gw].astype(np.float32)
    alpha = glyph[..., 3:4].astype(np.float32) / 255.0
    roi[..., :3] = roi[..., :3] * (1 - alpha) + glyph[..., :3] * alpha
    body[y0 : y0 + gh, x0 : x0 + gw] = roi.astype(np.uint8)
    return body


def svg_style(src: Path, style: str) -> dict[str, np.ndarray]:
    """All 30 sprites (two orientations of 15 codes) of one SVG style."""
    sprites: dict[str, np.ndarray] = {}
    for side in "01":
        for code in CSA:
            name = side + code
            if (style, name) in BROKEN:
                other = ("1" if side == "0" else "0") + code
                sprite = cv2.rotate(svg_to_bgra(src / style / f"{other}.svg"), cv2.ROTATE_180)
            else:
                sprite = svg_to_bgra(src / style / f"{name}.svg")
            if style == "simple_kanji":
                upright = sprite if side == "0" else cv2.rotate(sprite, cv2.ROTATE_180)
                upright = glyph_on_body(crop_and_scale(upright), seed=CSA.index(code))
                sprite = upright if side == "0" else cv2.rotate(upright, cv2.ROTATE_180)
            sprites[name] = crop_and_scale(sprite)
    return sprites


def font_style(style: FontStyle) -> dict[str, np.ndarray]:
    """All 30 sprites of one font-drawn style (gote's are sente's turned by 180 degrees)."""
    sprites: dict[str, np.ndarray] = {}
    for i, code in enumerate(CSA):
        up = crop_and_scale(font_piece(style, code, seed=i))
        sprites["0" + code] = up
        sprites["1" + code] = cv2.rotate(up, cv2.ROTATE_180)
    return sprites


def is_turned_copy(gote: np.ndarray, sente: np.ndarray) -> bool:
    """True when the gote sprite is (nearly) the sente sprite turned by 180 degrees."""
    turned = cv2.rotate(sente, cv2.ROTATE_180)
    if turned.shape != gote.shape:
        return False
    return float(np.abs(turned.astype(np.int16) - gote).mean()) < 3.0


def write_style(out: Path, style: str, sprites: dict[str, np.ndarray]) -> int:
    """Write one style's PNGs (maximum compression); returns the bytes written."""
    folder = out / style
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    total = 0
    for name, sprite in sorted(sprites.items()):
        if name.startswith("1") and is_turned_copy(sprite, sprites["0" + name[1:]]):
            continue
        path = folder / f"{name}.png"
        cv2.imwrite(str(path), sprite, [cv2.IMWRITE_PNG_COMPRESSION, 9])
        total += path.stat().st_size
    return total


def main() -> None:
    """Rasterise every style and write the attribution file."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--src", type=Path, default=Path("../shared/data/piece-sets"))
    parser.add_argument("--out", type=Path, default=Path("vision/assets/pieces"))
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    total = 0
    for style in sorted(p.name for p in args.src.iterdir() if p.is_dir()):
        total += write_style(args.out, style, svg_style(args.src, style))
        print(f"{style}: done")
    for font in FONT_STYLES:
        total += write_style(args.out, font.name, font_style(font))
        print(f"{font.name}: done")
    (args.out / "ATTRIBUTION.md").write_text(ATTRIBUTION, encoding="utf-8")
    print(f"total {total / 1e6:.2f} MB")


if __name__ == "__main__":
    main()
