"""Piece sprites shipped in `vision/assets/pieces/<style>/`: listing styles and loading them with OpenCV.

Files are `0<CSA>.png` (pointing up, sente) and, where the artwork differs from a half turn, `1<CSA>.png`
(pointing down, gote); a missing gote file is the sente one turned by 180 degrees. Kings come as `OU` (王) and
`GY` (玉). Sprites are cropped to the piece and stored BGRA; loaded ones are premultiplied uint8 (read only).
Real pieces differ in size by kind: `PIECE_HEIGHT_MM` gives typical heights, `PIECE_THICKNESS_MM` thicknesses.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from vision.labels import CSA_CODES, kind_of
from vision.render.errors import StyleError

ASSET_DIR = Path(__file__).resolve().parent.parent / "assets" / "pieces"
PIECE_HEIGHT_MM = {"K": 32.0, "R": 31.0, "B": 31.0, "G": 30.0, "S": 30.0, "N": 29.0, "L": 28.5, "P": 27.5}
"""Height (base to apex) of a typical set's pieces by unpromoted kind."""
PIECE_THICKNESS_MM = {"K": 9.0, "R": 8.5, "B": 8.5, "G": 8.0, "S": 8.0, "N": 7.5, "L": 7.0, "P": 6.5}


@dataclass(frozen=True)
class Sprite:
    """A premultiplied BGRA uint8 sprite (HxWx4, colour already multiplied by alpha / 255) and the median
    colour of its opaque part (used for the piece's sides)."""

    pixels: np.ndarray
    side_bgr: tuple[float, float, float]


def list_styles() -> list[str]:
    """Names of the shipped piece styles, sorted."""
    if not ASSET_DIR.is_dir():
        return []
    return sorted(p.name for p in ASSET_DIR.iterdir() if p.is_dir() and (p / "0FU.png").is_file())


def base_kind(label: str) -> str:
    """The unpromoted kind of a label (`+p` -> `P`)."""
    return kind_of(label).lstrip("+")


def sprite_code(label: str, king_gyoku: bool) -> str:
    """Asset file stem for a label: `0FU`, `1RY`; the king is `OU` or, with `king_gyoku`, `GY`."""
    code = CSA_CODES[kind_of(label)]
    if code == "OU" and king_gyoku:
        code = "GY"
    side = "0" if label.lstrip("+").isupper() else "1"
    return side + code


@lru_cache(maxsize=32)
def load_style(style: str) -> dict[str, Sprite]:
    """Every sprite of a style, keyed by file stem (`0FU`, `1FU`, ... both orientations filled in)."""
    folder = ASSET_DIR / style
    if not folder.is_dir():
        known = ", ".join(list_styles())
        raise StyleError(f"unknown piece style {style!r} (known: {known})")
    return load_style_dir(folder)


@lru_cache(maxsize=32)
def load_style_dir(folder: Path) -> dict[str, Sprite]:
    """Every sprite of a style stored in `folder` (the shipped layout: `0OU.png`, `0GY.png`, ... and optional
    `1XX.png`); used for the shipped styles and for training styles drawn elsewhere (e.g. from fonts)."""
    sprites: dict[str, Sprite] = {}
    for code in ("OU", "GY", "HI", "KA", "KI", "GI", "KE", "KY", "FU", "RY", "UM", "NG", "NK", "NY", "TO"):
        up = _read(folder / f"0{code}.png")
        down_path = folder / f"1{code}.png"
        down = _read(down_path) if down_path.is_file() else cv2.rotate(up, cv2.ROTATE_180)
        sprites["0" + code] = _sprite(up)
        sprites["1" + code] = _sprite(down)
    return sprites


def _read(path: Path) -> np.ndarray:
    image = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
    if image is None or image.ndim != 3 or image.shape[2] != 4:
        raise StyleError(f"missing or malformed piece sprite {path} (need a BGRA PNG)")
    return image


def _sprite(bgra: np.ndarray) -> Sprite:
    alpha = bgra[..., 3:4].astype(np.float32) / 255.0
    pixels = bgra.copy()
    pixels[..., :3] = np.round(bgra[..., :3] * alpha).astype(np.uint8)
    opaque = bgra[..., 3] > 200
    colour = bgra[..., :3][opaque].astype(np.float32)
    side = np.median(colour, axis=0) if len(colour) else np.array([90.0, 140.0, 190.0])
    pixels.setflags(write=False)
    return Sprite(pixels, (float(side[0]), float(side[1]), float(side[2])))
