"""Training data of the generic piece classifier, generated and cached (training only): synthetic crops of the
shipped, font-drawn and look styles (`vision.train.synth`), crops cut from whole rendered frames of shipped styles
(`vision.train.rendered`) and of font-drawn and look styles (as renderer sprite folders), stand windows
(`vision.train.stands`) and the development crops of unseen one-character fonts (`vision.train.dev_eval`).
Every set comes from its own seeds (the result does not depend on the number of workers) and can be kept in a
cache directory between runs. The font-drawn and look styles' promoted faces are red with probability `red`
(`vision.train.fonts.PROMOTED_RED` by default); any other share is part of the cache names (`-red<percent>`).
"""

from __future__ import annotations

import argparse
import tempfile
import zlib
from functools import lru_cache, partial
from multiprocessing import Pool
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from vision.train.fonts import BRUSH_SEED, PROMOTED_RED, brush_tiles, font_tiles
from vision.train.looks import is_proxy, look_tiles, write_sprite_dirs
from vision.train.synth import ASSETS, DEFAULT_VARIETY, WIDE_VARIETY, PieceBank, make_dataset

HELD_OUT: tuple[str, ...] = ("ryoko_1kanji", "1kanji_3d")
"""Styles never used in training or tuning (2kanji_3d and orangain share glyphs, so both are trained on)."""
CHUNK = 4000
FONT_SEED = 7
"""Seed of the font-drawn training styles (`vision.train.fonts`)."""
LOOK_SEED = 11
"""Seed of the varied font-drawn styles (`vision.train.looks`)."""


def train_styles() -> list[str]:
    """Every artwork style in the assets except the held-out ones."""
    return sorted(p.name for p in ASSETS.iterdir() if p.is_dir() and p.name not in HELD_OUT)


def font_styles() -> list[str]:
    """The font-drawn training styles available on this machine (`gen_*`)."""
    return sorted(font_tiles(FONT_SEED))


def look_styles(proxy: bool) -> list[str]:
    """The varied font-drawn styles (`look_*`) trained on, or (proxy=True) the ones kept out as unseen sets."""
    return sorted(s for s in _look_tiles() if is_proxy(s) == proxy)


@lru_cache(maxsize=2)
def _look_tiles(red: float = PROMOTED_RED) -> dict[str, dict[str, list[Any]]]:
    return look_tiles(LOOK_SEED, red=red)


def red_tag(red: float) -> str:
    """The cache-name part for a promoted faces' red share other than the default ("" for the default)."""
    return "" if red == PROMOTED_RED else f"-red{round(red * 100)}"


@lru_cache(maxsize=2)
def _bank(styles: tuple[str, ...], red: float = PROMOTED_RED) -> PieceBank:
    """Tiles of shipped and font-drawn styles (per worker process, made once)."""
    shipped = [s for s in styles if not s.startswith(("gen_", "look_"))]
    tiles = PieceBank.load(shipped).tiles
    if any(s.startswith("gen_") for s in styles):
        drawn = font_tiles(FONT_SEED, red=red)
        tiles |= {s: drawn[s] for s in styles if s.startswith("gen_")}
    if any(s.startswith("look_") for s in styles):
        tiles |= {s: _look_tiles(red)[s] for s in styles if s.startswith("look_")}
    return PieceBank(tiles)


def _chunk(job: tuple[int, int, list[str], bool, float]) -> tuple[NDArray[np.uint8], NDArray[np.int64]]:
    seed, n, styles, wide, red = job
    return make_dataset(seed, n, styles, _bank(tuple(styles), red), WIDE_VARIETY if wide else DEFAULT_VARIETY)


def dataset(
    seed: int, n: int, styles: list[str], workers: int, *, wide: bool = False, red: float = PROMOTED_RED
) -> tuple[NDArray[np.uint8], NDArray[np.int64]]:
    """n crops in chunks with their own seeds (the result does not depend on the number of workers); `wide`:
    with `WIDE_VARIETY` (smaller pieces, paler boards, harsher pictures); `red`: the drawn styles' share of red
    promoted faces."""
    chunks = range((n + CHUNK - 1) // CHUNK)
    jobs = [(seed * 10_000 + i, min(CHUNK, n - i * CHUNK), styles, wide, red) for i in chunks]
    with Pool(workers) as pool:
        parts = pool.map(_chunk, jobs)
    return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])


def cached_dataset(
    args: argparse.Namespace,
    styles: list[str],
    seed: int,
    n: int,
    *,
    wide: bool = False,
    red: float = PROMOTED_RED,
) -> tuple[NDArray[np.uint8], NDArray[np.int64]]:
    """n synthetic crops, from `--cache DIR` when generated before with the same seed, size, styles, variety and
    red share."""
    if args.cache is None:
        return dataset(seed, n, styles, args.workers, wide=wide, red=red)
    tag = "wide-" if wide else ""
    crc = zlib.crc32(",".join(styles).encode())
    path = args.cache / f"crops-{tag}{seed}-{n}-{crc:08x}{red_tag(red)}.npz"
    if path.exists():
        data = np.load(path)
        return data["crops"], data["targets"]
    crops, targets = dataset(seed, n, styles, args.workers, wide=wide, red=red)
    args.cache.mkdir(parents=True, exist_ok=True)
    np.savez(path, crops=crops, targets=targets)
    return crops, targets


def _rendered_chunk(job: tuple[int, int, list[str]]) -> tuple[NDArray[np.uint8], NDArray[np.int64]]:
    from vision.train.rendered import rendered_dataset

    start, n, styles = job
    return rendered_dataset(range(start, start + n), styles)


def _framed(
    prefix: str,
    chunk: Any,
    *,
    first_seed: int,
    step: int,
    frames: int,
    styles: list[str],
    workers: int,
    cache: Path | None,
) -> tuple[Any, Any]:
    """Crops from `frames` rendered frames, `step` frames a job (frame seeds from `first_seed` on), cached in
    `cache` under `prefix`-frames-styles."""
    name = f"{prefix}-{frames}-{zlib.crc32(','.join(styles).encode()):08x}.npz"
    if cache is not None and (cache / name).exists():
        data = np.load(cache / name)
        return data["crops"], data["targets"]
    jobs = [(first_seed + i, min(step, frames - i), styles) for i in range(0, frames, step)]
    with Pool(workers) as pool:
        parts = pool.map(chunk, jobs)
    crops, targets = np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])
    if cache is not None:
        cache.mkdir(parents=True, exist_ok=True)
        np.savez(cache / name, crops=crops, targets=targets)
    return crops, targets


def rendered(seed: int, frames: int, styles: list[str], workers: int, cache: Path | None) -> tuple[Any, Any]:
    """Crops cut from `frames` rendered frames (see `vision.train.rendered`), cached like the synthetic ones."""
    return _framed(
        f"rendered-{seed}", _rendered_chunk, first_seed=seed * 100_000, step=25, frames=frames, styles=styles,
        workers=workers, cache=cache,
    )  # fmt: skip


def _sheen_chunk(job: tuple[int, int, list[str]]) -> tuple[NDArray[np.uint8], NDArray[np.int64]]:
    from vision.train.rendered import GAMES, rendered_dataset

    start, n, styles = job
    return rendered_dataset(range(start, start + n), styles, GAMES, ink_sheen=1.0)


def rendered_sheen(seed: int, frames: int, styles: list[str], workers: int, cache: Path | None) -> tuple[Any, Any]:
    """Crops cut from `frames` rendered frames with the lamp's reflection on the ink in every one
    (`RenderOptions.ink_sheen` 1: the faces near the reflection silver-inked), cached like the others."""
    return _framed(
        f"rendered-sheen-{seed}", _sheen_chunk, first_seed=seed * 100_000 + 60_000, step=25, frames=frames,
        styles=styles, workers=workers, cache=cache,
    )  # fmt: skip


@lru_cache(maxsize=2)
def look_sprite_dirs(red: float = PROMOTED_RED) -> dict[str, Path]:
    """The trained look styles and font-drawn styles (promoted faces red with probability `red`) written as
    renderer sprite folders (under the temporary directory; made once)."""
    tmp, tag = Path(tempfile.gettempdir()), red_tag(red)
    tiles = _look_tiles(red)
    dirs = write_sprite_dirs(
        {s: tiles[s] for s in look_styles(proxy=False)}, tmp / f"shogi-look-sprites-{LOOK_SEED}{tag}"
    )
    drawn = font_tiles(FONT_SEED, red=red)
    return dirs | write_sprite_dirs(drawn, tmp / f"shogi-font-sprites-{FONT_SEED}{tag}")


@lru_cache(maxsize=2)
def brush_sprite_dirs(red: float = PROMOTED_RED) -> dict[str, Path]:
    """The brush styles (`vision.train.fonts.brush_tiles`) written as renderer sprite folders (made once, and only
    for a run that renders them)."""
    folder = Path(tempfile.gettempdir()) / f"shogi-brush-sprites-{BRUSH_SEED}{red_tag(red)}"
    return write_sprite_dirs(brush_tiles(BRUSH_SEED, red), folder)


@lru_cache(maxsize=2)
def hand_sprite_dirs(red: float = PROMOTED_RED) -> dict[str, Path]:
    """The made-up hands (`vision.train.hand_styles.hand_tiles`), two- and one-character forms, written as renderer
    sprite folders (made once, and only for a run that renders them)."""
    from vision.train.hand_styles import HAND_SEED, HANDS, hand_tiles

    folder = Path(tempfile.gettempdir()) / f"shogi-hand-sprites-{HAND_SEED}-{HANDS}-12{red_tag(red)}"
    return write_sprite_dirs(hand_tiles(HAND_SEED, HANDS, red) | hand_tiles(HAND_SEED, HANDS, red, chars=1), folder)


def sprite_dirs(prefix: str, red: float = PROMOTED_RED) -> dict[str, Path]:
    """The sprite folders of the styles whose names start with `prefix` (`brush_`: `brush_sprite_dirs`; `hand_`:
    `hand_sprite_dirs`; `look_`, `gen_`: `look_sprite_dirs`)."""
    if prefix == "hand_":
        return hand_sprite_dirs(red)
    return brush_sprite_dirs(red) if prefix == "brush_" else look_sprite_dirs(red)


def char_forms(folders: list[str], chars: int) -> list[str]:
    """The sprite folders (`<style>_v<i>`) of styles written with `chars` characters (`<prefix>_<font>_<chars>`)."""
    return [n for n in folders if n.rsplit("_v", 1)[0].endswith(f"_{chars}")]


def one_char(folders: list[str]) -> list[str]:
    """The sprite folders of one-character styles (`char_forms` with 1)."""
    return char_forms(folders, 1)


def _looks_rendered_chunk(
    job: tuple[int, int, list[str]], prefix: str, red: float = PROMOTED_RED
) -> tuple[NDArray[np.uint8], NDArray[np.int64]]:
    from vision.train.rendered import GAMES, rendered_dataset

    start, n, styles = job
    return rendered_dataset(range(start, start + n), styles, GAMES, sprite_dirs(prefix, red))


def rendered_drawn(
    args: argparse.Namespace, prefix: str, frames: int, first_seed: int, *, two: bool = False, one: bool = False
) -> tuple[Any, Any]:
    """Crops cut from `frames` rendered frames drawn with the trained styles whose names start with `prefix`
    (`look_`: `vision.train.looks`; `gen_`, `brush_`: `vision.train.fonts`; `hand_`: `vision.train.hand_styles`;
    one sprite folder per tile variant; only the one-character forms with `one` or `--one-char`, only the
    two-character forms with `two`; promoted faces red with probability `--promoted-red`), cached like the
    others."""
    red = args.promoted_red
    dirs = sprite_dirs(prefix, red)  # made before the workers start, so they inherit it
    styles = sorted(n for n in dirs if n.startswith(prefix))
    if two:
        styles = char_forms(styles, 2)
    elif one or args.one_char:
        styles = one_char(styles)
    return _framed(
        f"rendered-{prefix}{args.seed}{red_tag(red)}", partial(_looks_rendered_chunk, prefix=prefix, red=red),
        first_seed=first_seed, step=25, frames=frames, styles=styles, workers=args.workers, cache=args.cache,
    )  # fmt: skip


def _dev_chunk(job: tuple[int, int, list[str]]) -> tuple[NDArray[np.uint8], NDArray[np.int64]]:
    from vision.train.dev_eval import dev_dirs
    from vision.train.rendered import GAMES, rendered_dataset

    start, n, styles = job
    return rendered_dataset(range(start, start + n), styles, GAMES, dev_dirs("plain"))


def dev_crops(args: argparse.Namespace) -> tuple[Any, Any]:
    """Crops of `--dev-frames` rendered frames of the `plain` development family (`vision.train.dev_eval`:
    one-character faces of fonts never trained on), scored each epoch beside the validation frames."""
    from vision.train.dev_eval import dev_dirs

    return _framed(
        f"dev-plain-{args.seed}", _dev_chunk, first_seed=args.seed * 100_000 + 90_000, step=25,
        frames=args.dev_frames, styles=sorted(dev_dirs("plain")), workers=args.workers, cache=args.cache,
    )  # fmt: skip


def _stand_chunk(job: tuple[int, int, list[str]]) -> tuple[NDArray[np.uint8], NDArray[np.int64]]:
    from vision.train.stands import stand_dataset

    start, n, styles = job
    return stand_dataset(range(start, start + n), styles)


def stand_windows(seed: int, frames: int, styles: list[str], workers: int, cache: Path | None) -> tuple[Any, Any]:
    """Stand windows from `frames` rendered frames (see `vision.train.stands`), cached like the others."""
    return _framed(
        f"stands-{seed}", _stand_chunk, first_seed=seed * 100_000 + 70_000, step=50, frames=frames, styles=styles,
        workers=workers, cache=cache,
    )  # fmt: skip
