"""Development figures for the generic classifier on piece sets it never saw (training only; never the held-out
styles of `train_classifier.HELD_OUT`, which only `shogi-robot bench vision` scores).

Families of development styles, drawn as renderer sprite folders by `vision.train.looks` from fonts that no
training run uses:
- `proxy`: the four `looks.PROXY_FONTS`, one- and two-character looks (the figure earlier sessions quoted);
- `one`: one-character faces only: the proxy fonts' and those of `DEV_FONTS` (handwritten pen, cursive brush);
- `plain`: the same fonts' one-character faces drawn plainly (`vision.train.fonts.tile`: flat ink on a wooden
  body, as most real sets and the shipped artwork are), without the looks' carved, inkless or dark-on-dark faces
  that even a person can hardly read in a 48-pixel crop;
- `plain2`: the same fonts' two-character faces drawn plainly (飛車, 角行, 銀将, ...: most wooden sets are
  written so, and so is the shared real photo's set; both held-out styles are one-character);
- `artwork`: the shipped training styles themselves (not unseen: for effects such as `--ink-sheen`, the lamp's
  reflection on lacquered ink, `RenderOptions.ink_sheen`).
Frames of real game positions (960x720, random poses up to 45 degrees) are read by the full reader (grid found
from scratch, sente's side given, labels fitted to the set), and the script prints square and board accuracy,
which kinds are read as which (owner ignored), the error rate by camera tilt and by style, and the crop
accuracy of the classifier alone on crops cut at the true grid (`--crops`); `--mistakes DIR` writes every wrong
square (a list, and contact sheets of their crops, each turned so its true piece points up). The families'
promoted faces are red as often as training's font faces were by default (`fonts.PROMOTED_RED`); `--promoted-red
0` writes them in the unpromoted faces' inks, as sets written in one ink are (a classifier that takes red ink for
"promoted" fails there).

    .venv/bin/python -m vision.train.dev_eval --family one --n 60 [--model PATH] [--promoted-red 0]
"""

from __future__ import annotations

import argparse
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from vision.board_read import BoardRead
from vision.calibration import Calibration
from vision.classifier import PieceClassifier
from vision.labels import EMPTY
from vision.lookalikes import FIT_LIKENESS
from vision.render import Rendered
from vision.square_prior import SQUARE_PRIOR
from vision.train.datasets import train_styles
from vision.train.fonts import FONT_ROOT, PROMOTED_RED, font_tiles

DEV_FONTS: dict[str, str] = {
    "yoz": "truetype/yozvox-yozfont/YOzRN_.ttf",
    "sousyo": "truetype/kouzan-mouhitsu/KouzanBrushFontSousyo.ttf",
}
"""Fonts for development only (never in `fonts.FONTS` or `looks.EXTRA_FONTS`): a handwritten pen face and a
cursive brush face (fonts-yozvox-yozfont, fonts-kouzan-mouhitsu)."""
SEED = 4242
"""Seed of the development tiles (not `train_classifier.LOOK_SEED`: other bodies and inks than training's)."""
TILT_BINS: tuple[float, ...] = (15.0, 30.0, 45.1)


@lru_cache(maxsize=2)
def dev_dirs(family: str, red: float = PROMOTED_RED) -> dict[str, Path]:
    """Sprite folders of a development family (`proxy`, `one`, `plain` or `plain2`; promoted faces red with
    probability `red`), made once under the temporary directory."""
    from vision.train.looks import PROXY_FONTS, look_fonts, look_tiles, write_sprite_dirs

    root = Path(tempfile.gettempdir()) / f"shogi-dev-sprites-{SEED}-{family}"
    if red != PROMOTED_RED:
        root = root.with_name(f"{root.name}-red{round(red * 100)}")

    fonts = {n: p for n, p in look_fonts().items() if n in PROXY_FONTS}
    if family == "one":
        fonts |= {n: FONT_ROOT / rel for n, rel in DEV_FONTS.items() if (FONT_ROOT / rel).is_file()}
    if family in ("plain", "plain2"):
        fonts |= {n: FONT_ROOT / rel for n, rel in DEV_FONTS.items() if (FONT_ROOT / rel).is_file()}
        chars = "_2" if family == "plain2" else "_1"
        tiles = {s: t for s, t in font_tiles(SEED, fonts, red=red).items() if s.endswith(chars)}
        return write_sprite_dirs(tiles, root)
    tiles = look_tiles(SEED, fonts, red=red)
    if family == "one":
        tiles = {s: t for s, t in tiles.items() if s.endswith("_1")}
    return write_sprite_dirs(tiles, root)


@dataclass
class Tally:
    """Counts over the frames read."""

    squares: int = 0
    right: int = 0
    vouched_wrong: int = 0
    """Wrong squares the reader vouched for (not flagged unreliable)."""
    boards: int = 0
    boards_right: int = 0
    not_found: int = 0
    crops: int = 0
    crops_right: int = 0
    confusion: Counter[tuple[str, str]] = field(default_factory=Counter)
    by_tilt: Counter[tuple[int, bool]] = field(default_factory=Counter)
    by_style: Counter[tuple[str, bool]] = field(default_factory=Counter)
    keep_mistakes: bool = False
    """Keep each wrong square's crop and reading (`mistakes`; `--mistakes`)."""
    mistakes: list[Mistake] = field(default_factory=list)


@dataclass(frozen=True)
class Mistake:
    """A square read wrong: where, what it was and what it was read as, and its crop (turned so that the true
    piece points up)."""

    style: str
    frame: int
    """The frame's number among those the tally counted (0 first)."""
    square: str
    truth: str
    read: str
    p: float
    tilt: float
    crop: NDArray[np.uint8]


SHEET_COLUMNS = 12
"""Crops across a contact sheet of mistakes."""
SHEET_ROWS = 8
"""Rows of crops on one sheet (more mistakes: more sheets)."""
SHEET_ZOOM = 2
"""Each crop drawn this many times its size (pixels repeated)."""


def contact_sheets(mistakes: list[Mistake]) -> list[NDArray[np.uint8]]:
    """The mistakes' crops in reading order, `SHEET_COLUMNS` across, `SHEET_ROWS` down a sheet, each enlarged by
    `SHEET_ZOOM` (empty places black)."""
    per_sheet = SHEET_COLUMNS * SHEET_ROWS
    sheets = []
    for start in range(0, len(mistakes), per_sheet):
        tiles = [
            m.crop.repeat(SHEET_ZOOM, axis=0).repeat(SHEET_ZOOM, axis=1) for m in mistakes[start : start + per_sheet]
        ]
        blank = np.zeros_like(tiles[0])
        tiles += [blank] * (-len(tiles) % SHEET_COLUMNS)
        rows = [np.hstack(tiles[i : i + SHEET_COLUMNS]) for i in range(0, len(tiles), SHEET_COLUMNS)]
        sheets.append(np.vstack(rows))
    return sheets


def write_mistakes(mistakes: list[Mistake], folder: Path) -> None:
    """`mistakes.tsv` (one line a mistake, numbered as on the sheets) and `mistakes-N.png` (`contact_sheets`)."""
    import cv2

    folder.mkdir(parents=True, exist_ok=True)
    lines = ["n\tstyle\tframe\tsquare\ttruth\tread\tp\ttilt"]
    lines += [
        f"{n}\t{m.style}\t{m.frame}\t{m.square}\t{m.truth}\t{m.read}\t{m.p:.3f}\t{m.tilt:.0f}"
        for n, m in enumerate(mistakes)
    ]
    (folder / "mistakes.tsv").write_text("\n".join(lines) + "\n")
    for n, sheet in enumerate(contact_sheets(mistakes)):
        cv2.imwrite(str(folder / f"mistakes-{n}.png"), sheet)


def kind(label: str) -> str:
    """The label without its owner (`+r` -> `+R`)."""
    return label if label == EMPTY else label.upper()


def read_frame(
    tally: Tally,
    classifier: PieceClassifier,
    frame: Rendered,
    style: str,
    crops: bool,
    *,
    calibration: Calibration | None = None,
    shifted_looks: bool = True,
    fit_likeness: float = FIT_LIKENESS,
    square_prior: float = SQUARE_PRIOR,
) -> None:
    """Read one rendered frame with a fresh reader (and a piece-set calibration; `shifted_looks`, `fit_likeness`,
    `square_prior`: the reader's settings) and add it to the tally."""
    from vision.board import BoardGeometry
    from vision.labels import SQUARE_LABELS
    from vision.orientation import sente_direction
    from vision.reader import BoardReader, ReaderSettings
    from vision.squares import crops_from_frame

    corners = np.asarray(frame.board_corners_px, dtype=np.float64)
    truth = list(frame.labels)
    if crops:
        cut = crops_from_frame(frame.image, BoardGeometry(corners, 1.0))
        got = classifier.predict(cut).probs.argmax(axis=1)
        tally.crops += 81
        tally.crops_right += sum(SQUARE_LABELS[g] == t for g, t in zip(got, truth, strict=True))
    settings = ReaderSettings(
        sente_side=sente_direction(corners),
        stands=None,
        shifted_looks=shifted_looks,
        fit_likeness=fit_likeness,
        square_prior=square_prior,
    )
    read = BoardReader(classifier, settings, calibration).read(frame.image)
    if not read.board_found:
        tally.not_found += 1
        return
    tilt = int(np.searchsorted(TILT_BINS, frame.pose.tilt_deg, side="right"))
    wrong = 0
    for t, square in zip(truth, read.squares, strict=True):
        g = square.label
        tally.by_tilt[(tilt, t == g)] += 1
        tally.by_style[(style.rsplit("_v", 1)[0], t == g)] += 1
        if t != g:
            wrong += 1
            tally.vouched_wrong += square.reliable
            tally.confusion[(kind(t), kind(g))] += 1
    if tally.keep_mistakes and wrong:
        _keep_mistakes(tally, frame, read, style)
    tally.squares += 81
    tally.right += 81 - wrong
    tally.boards += 1
    tally.boards_right += wrong == 0


def _keep_mistakes(tally: Tally, frame: Rendered, read: BoardRead, style: str) -> None:
    """Add the frame's wrong squares to `tally.mistakes` (crops cut where the reader found the grid)."""
    from vision.labels import is_sente, square_name
    from vision.squares import crops_from_frame

    if read.geometry is None:
        return
    crops = crops_from_frame(frame.image, read.geometry)
    for i, (t, square) in enumerate(zip(frame.labels, read.squares, strict=True)):
        if t != square.label:
            crop = crops[i, ::-1, ::-1] if t != EMPTY and not is_sente(t) else crops[i]
            mistake = Mistake(style, tally.boards, square_name(i), t, square.label, square.p, frame.pose.tilt_deg, crop)
            tally.mistakes.append(mistake)


def first_variants(family: str) -> dict[str, Path]:
    """The first variant's sprite folder (`_v0`) of each font of a development family, by style name."""
    return {style: folder for style, folder in dev_dirs(family).items() if style.endswith("_v0")}


def family_setup(
    family: str, model: Path | None, red: float = PROMOTED_RED
) -> tuple[dict[str, Path | None], list[list[str]], PieceClassifier]:
    """What reading a development family needs: its frames' makings (`family_frames`) and the classifier
    (`model`, or the shipped one)."""
    dirs, games = family_frames(family, red)
    return dirs, games, PieceClassifier() if model is None else PieceClassifier(model)


def family_frames(family: str, red: float = PROMOTED_RED) -> tuple[dict[str, Path | None], list[list[str]]]:
    """What rendering a development family's frames needs: its sprite folders by style (None: a shipped artwork
    style) and the real games whose positions are rendered."""
    from vision.train.rendered import GAMES

    dirs: dict[str, Path | None] = (
        {s: None for s in train_styles()} if family == "artwork" else {**dev_dirs(family, red)}
    )
    games = [line.split() for line in GAMES.read_text().splitlines() if line.strip()]
    return dirs, games


def evaluate(
    family: str,
    n: int,
    seed: int,
    model: Path | None,
    *,
    crops: bool,
    red: float = PROMOTED_RED,
    ink_sheen: float = 0.0,
    keep_mistakes: bool = False,
    fit_likeness: float = FIT_LIKENESS,
    square_prior: float = SQUARE_PRIOR,
) -> Tally:
    """Render and read n frames of a development family (promoted faces red with probability `red`; `artwork`:
    the shipped training styles), the lamp's sheen on the ink with chance `ink_sheen` (`keep_mistakes`: the
    wrong squares' crops too)."""
    import cv2

    from vision.render import RenderOptions, render_position
    from vision.train.rendered import random_sfen

    cv2.setNumThreads(1)
    dirs, games, classifier = family_setup(family, model, red)
    styles = sorted(dirs)
    rng = np.random.default_rng(seed)
    tally = Tally(keep_mistakes=keep_mistakes)
    for i in range(n):
        style = styles[int(rng.integers(len(styles)))]
        options = RenderOptions(
            style=style, seed=seed * 1000 + i, size=(960, 720), style_dir=dirs[style], ink_sheen=ink_sheen
        )
        frame = render_position(random_sfen(games, rng), options)
        read_frame(tally, classifier, frame, style, crops, fit_likeness=fit_likeness, square_prior=square_prior)
    return tally


def _pct(a: int, b: int) -> str:
    return f"{100 * a / b:.3f} % ({a}/{b})" if b else "n/a"


def report(tally: Tally, top: int = 15) -> str:
    """The figures as text."""
    lines = [
        f"squares {_pct(tally.right, tally.squares)}; boards {_pct(tally.boards_right, tally.boards)}; "
        f"not found {tally.not_found}; wrong but vouched for {tally.vouched_wrong}",
    ]
    if tally.crops:
        lines.append(f"crops at the true grid (classifier alone): {_pct(tally.crops_right, tally.crops)}")
    lines.append("errors by tilt: " + ", ".join(_bucket(tally.by_tilt, i) for i in range(len(TILT_BINS))))
    styles = sorted({s for s, _ in tally.by_style})
    lines.append("errors by style: " + ", ".join(f"{s} {_rate(tally.by_style, s)}" for s in styles))
    pairs = ", ".join(f"{t}->{g} {c}" for (t, g), c in tally.confusion.most_common(top))
    lines.append(f"read as (truth->read, owner ignored): {pairs}")
    return "\n".join(lines)


def _rate(counter: Counter[tuple[str, bool]], key: str) -> str:
    wrong, right = counter[(key, False)], counter[(key, True)]
    return f"{100 * wrong / max(wrong + right, 1):.2f} %"


def _bucket(counter: Counter[tuple[int, bool]], i: int) -> str:
    lo = 0.0 if i == 0 else TILT_BINS[i - 1]
    wrong, right = counter[(i, False)], counter[(i, True)]
    return f"{lo:.0f}-{min(TILT_BINS[i], 45):.0f} deg {100 * wrong / max(wrong + right, 1):.2f} % of {wrong + right}"


def main(argv: list[str] | None = None) -> int:
    """Command line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--family", choices=("proxy", "one", "plain", "plain2", "artwork"), default="one")
    parser.add_argument("--n", type=int, default=60, help="frames to render and read")
    parser.add_argument("--seed", type=int, default=77)
    parser.add_argument("--model", type=Path, help="classifier ONNX (default: the shipped model)")
    parser.add_argument("--crops", action="store_true", help="also score the classifier on true-grid crops")
    parser.add_argument(
        "--promoted-red", type=float, default=PROMOTED_RED, help="share of promoted faces in red ink (0: one ink)"
    )
    parser.add_argument(
        "--ink-sheen", type=float, default=0.0, help="chance of the lamp's sheen on the ink (RenderOptions.ink_sheen)"
    )
    parser.add_argument(
        "--mistakes", type=Path, help="write the wrong squares here (mistakes.tsv, contact sheets mistakes-N.png)"
    )
    parser.add_argument(
        "--fit-likeness",
        type=float,
        default=FIT_LIKENESS,
        help=f"weight of the faces' likeness in the set fit (ReaderSettings.fit_likeness; default {FIT_LIKENESS})",
    )
    parser.add_argument(
        "--square-prior",
        type=float,
        default=SQUARE_PRIOR,
        help=f"power of the square prior (ReaderSettings.square_prior; default {SQUARE_PRIOR})",
    )
    args = parser.parse_args(argv)
    tally = evaluate(
        args.family,
        args.n,
        args.seed,
        args.model,
        crops=args.crops,
        red=args.promoted_red,
        ink_sheen=args.ink_sheen,
        keep_mistakes=args.mistakes is not None,
        fit_likeness=args.fit_likeness,
        square_prior=args.square_prior,
    )
    print(report(tally), flush=True)
    if args.mistakes is not None:
        write_mistakes(tally.mistakes, args.mistakes)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
