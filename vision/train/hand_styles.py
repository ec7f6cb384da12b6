"""Brush faces in made-up hands (training only): more hands than there are brush fonts.

A wooden set's faces are written by one hand, and that hand has habits a font does not: characters squeezed or
widened, slanted, the upper one larger than the lower, heavier or lighter strokes. The fonts give the classifier a
dozen brush hands; the one real set it has been shown (the shared photo) is written in another, and its silver
(銀将) was read as a knight. Each `hand_<n>` style here is one made-up hand (`random_hand`): a main brush font and
a second one for some characters (`HAND_FONTS`: the brush faces of `vision.train.fonts`; never a development or
proxy font), and habits kept across the set; each piece then varies a little (size, place, turn, an elastic warp
of its strokes). Bodies and inks are drawn as `vision.train.fonts.tile` draws them (promoted faces red with
probability `red`). Deterministic from the seed.

Tried on 2026-11-29 (`--rendered-hands 2000`, docs/classifier-training.md, session 33): the fonts' two-character
faces read better (development +36 to +83 squares of 12960), the held-out one-character artwork no better, and the
real set's silver on 7i still a knight; not shipped. So each hand also writes its set in one character a piece
(`hand_tiles` with `chars` 1: `hand_<n>_1`, `--rendered-hands-one`), as both held-out styles are written.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from PIL import Image as PilImage
from PIL import ImageDraw

from vision.board import Image
from vision.labels import KINDS
from vision.train.fonts import (
    BRUSH_FONTS,
    FONT_ROOT,
    FONTS,
    ONE_CHAR,
    PROMOTED_RED,
    TWO_CHARS,
    VARIANTS,
    body,
    installed_fonts,
    written,
)
from vision.train.looks import elastic, font_at

HAND_FONTS: tuple[str, ...] = ("kouzan", "soseki", "mouhitsu", "gyosho", "kiloji", "seto", *BRUSH_FONTS)
"""The brush-written (and longhand) training fonts the hands write with."""
HANDS = 24
"""Made-up hands (styles) drawn by default."""
HAND_SEED = 17
"""Seed of the default hands."""
_W, _H = 200, 224


@dataclass(frozen=True)
class Hand:
    """One made-up hand's habits, kept across its set."""

    main: Path
    second: Path
    second_share: float
    """Chance that a character is written in the second font."""
    squeeze: float
    """Width of the characters against the font's (below 1: narrower)."""
    stretch: float
    """Height against the font's."""
    slant: float
    """Horizontal shear (x moves by slant × height above the character's centre)."""
    upper: float
    """Size of the upper character against the lower one's."""
    weight: int
    """Stroke weight: dilations (positive) or erosions (negative) of 3×3."""
    warp: float
    """Amplitude of each piece's elastic warp, in pixels of the 200 × 224 drawing."""


def random_hand(rng: np.random.Generator, fonts: list[Path]) -> Hand:
    """A hand with random habits writing in two of `fonts` (possibly the same one twice)."""
    main, second = (fonts[int(i)] for i in rng.integers(len(fonts), size=2))
    return Hand(
        main=main,
        second=second,
        second_share=float(rng.uniform(0, 0.5)),
        squeeze=float(rng.uniform(0.68, 1.05)),
        stretch=float(rng.uniform(0.85, 1.12)),
        slant=float(rng.uniform(-0.18, 0.18)),
        upper=float(rng.uniform(0.92, 1.25)),
        weight=int(rng.integers(-1, 3)),
        warp=float(rng.uniform(0.5, 4.0)),
    )


def writable(text: str, path: Path) -> str | None:
    """`text` as the font at `path` writes it (`STAND_INS` for characters it lacks), or None: `fonts.written`."""
    return written(text, font_at(path, 64), stand_ins=True)


def character(
    rng: np.random.Generator, hand: Hand, path: Path, ch: str, *, size: int, centre: tuple[float, float]
) -> Image:
    """One character's mask (float 0..1, _H × _W) written at `centre` with the hand's habits and a piece's jitter."""
    layer = PilImage.new("L", (_W, _H), 0)
    font = font_at(path, max(size, 8))
    left, upper, right, lower = font.getbbox(ch)
    cx, cy = centre
    ImageDraw.Draw(layer).text((cx - (left + right) / 2, cy - (upper + lower) / 2), ch, font=font, fill=255)
    sx = hand.squeeze * rng.uniform(0.95, 1.05)
    sy = hand.stretch * rng.uniform(0.95, 1.05)
    turn = np.deg2rad(rng.normal(0, 3))
    c, s = np.cos(turn), np.sin(turn)
    linear = np.array([[c, -s], [s, c]]) @ np.array([[1.0, -hand.slant], [0.0, 1.0]]) @ np.diag([sx, sy])
    offset = np.array([cx, cy]) - linear @ np.array([cx, cy])
    matrix = np.hstack([linear, offset[:, None]]).astype(np.float32)
    mask = cv2.warpAffine(np.asarray(layer, dtype=np.float32) / 255, matrix, (_W, _H), flags=cv2.INTER_LINEAR)
    return np.asarray(mask, dtype=np.float32)


def face(rng: np.random.Generator, hand: Hand, texts: tuple[str, str]) -> Image:
    """The two characters' mask down the face (each text as its own font writes it: main, second)."""
    top, bottom = rng.uniform(0.2, 0.28) * _H, rng.uniform(0.9, 0.98) * _H
    use_second = rng.random() < hand.second_share
    text = texts[1] if use_second else texts[0]
    path = hand.second if use_second else hand.main
    lower_size = (bottom - top) / (1 + hand.upper)
    sizes = (lower_size * hand.upper, lower_size) if len(text) == 2 else (bottom - top,)
    mask = np.zeros((_H, _W), np.float32)
    y = top
    for i, ch in enumerate(text):
        size = int(min(sizes[i] * rng.uniform(0.9, 1.02), _W * (0.66 if len(text) == 2 else 0.75)))
        centre = (_W / 2 + rng.normal(0, 2.5), y + sizes[i] / 2 + rng.normal(0, 2))
        mask = np.maximum(mask, character(rng, hand, path, ch, size=size, centre=centre))
        y += sizes[i]
    if hand.weight:
        op = cv2.dilate if hand.weight > 0 else cv2.erode
        changed = np.asarray(op(mask, np.ones((3, 3), np.uint8), iterations=abs(hand.weight)), dtype=np.float32)
        mask = changed if changed.sum() > 0.55 * mask.sum() else mask
    return elastic(rng, mask, hand.warp * rng.uniform(0.6, 1.2))


def tile(
    rng: np.random.Generator, hand: Hand, texts: tuple[str, str], promoted: bool, red: float = PROMOTED_RED
) -> Image:
    """One piece tile (BGRA uint8, pointing up, long side 96 px) in the hand."""
    pixels, mask, ink = body(rng)
    if promoted and rng.random() < red:
        ink = (int(rng.uniform(10, 40)), int(rng.uniform(10, 40)), int(rng.uniform(150, 215)))
    alpha = face(rng, hand, texts)[:, :, None] * rng.uniform(0.85, 1.0)
    pixels = pixels * (1 - alpha) + np.array(ink, np.float32) * alpha
    bgra = np.dstack([np.clip(pixels, 0, 255).astype(np.uint8), mask])
    k = 96 / _H
    return np.asarray(cv2.resize(bgra, (round(_W * k), 96), interpolation=cv2.INTER_AREA), dtype=np.uint8)


def hand_fonts() -> list[Path]:
    """The installed fonts of `HAND_FONTS`."""
    every = installed_fonts(FONT_ROOT, FONTS) | installed_fonts(FONT_ROOT, BRUSH_FONTS)
    return [every[name] for name in HAND_FONTS if name in every]


def hand_tiles(
    seed: int = HAND_SEED, hands: int = HANDS, red: float = PROMOTED_RED, chars: int = 2
) -> dict[str, dict[str, list[Image]]]:
    """`VARIANTS` tiles per kind for each of `hands` made-up hands (`hand_<n>_<chars>`), written with `chars`
    characters (2: `TWO_CHARS`, 1: `ONE_CHAR`), each hand its own generator from `seed` (the same hand, habits and
    fonts, in both forms); a hand whose fonts cannot write a kind is left out."""
    if chars not in (1, 2):
        raise ValueError(f"chars must be 1 or 2, not {chars}")
    table = TWO_CHARS if chars == 2 else ONE_CHAR
    fonts = hand_fonts()
    styles: dict[str, dict[str, list[Image]]] = {}
    for n in range(hands):
        rng = np.random.default_rng([seed, n])
        hand = random_hand(rng, fonts)
        if chars == 1:  # the hand's own generator drew its habits; its one-character tiles get another stream
            rng = np.random.default_rng([seed, n, 1])
        per_kind: dict[str, list[Image]] = {}
        for kind in KINDS:
            choices = [t for t in table[kind] if writable(t, hand.main) and writable(t, hand.second)]
            if not choices:
                break
            tiles = []
            for _ in range(VARIANTS):
                text = choices[int(rng.integers(len(choices)))]
                texts = (writable(text, hand.main) or text, writable(text, hand.second) or text)
                tiles.append(tile(rng, hand, texts, kind.startswith("+"), red))
            per_kind[kind] = tiles
        if len(per_kind) == len(KINDS):
            styles[f"hand_{n}_{chars}"] = per_kind
    return styles
