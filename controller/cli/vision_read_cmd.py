"""`shogi-robot vision read | classify | calibrate`: the camera reader on image files.

- `read IMAGE [--calibration FILE] [--sente-side SIDE] [--json] [--complete-set]`: find the board, read every
  square and the stands (`--complete-set`: the stands fitted to what the board leaves of a whole set); prints the
  position and the squares it cannot vouch for (JSON with probabilities under `--json`), and, where the read
  breaks a rule of a set-up (nifu, a piece that could never move, two kings of a side, more of a kind than a set
  holds), the read fitted to the rules (`controller.reconcile.setup_fit`; JSON `setup_fit`).
- `classify CROP.png ... [--json]`: one square's crop per file -> label, owner and probability.
- `calibrate START.png FLIPPED.png -o set.json`: learn the user's own set from a photo of the starting
  position and one with every piece turned over in place.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from controller.cli.errors import CommandError
from controller.reconcile.setup_fit import SetupFit, fit_setup

SIDES = ("bottom", "top", "left", "right")


def register_vision(subparsers: Any) -> None:
    """Add `read`, `classify` and `calibrate` under `vision`."""
    read = subparsers.add_parser("read", help="read a board position from an image")
    read.add_argument("image", type=Path)
    read.add_argument("--calibration", type=Path, help="calibration file from `vision calibrate`")
    read.add_argument("--sente-side", choices=SIDES, help="image side sente sits at (default: from the pieces)")
    read.add_argument("--json", action="store_true", help="print the full read as JSON")
    read.add_argument(
        "--complete-set",
        action="store_true",
        help="the whole set is in play (an even game): fit the stands' counts to the pieces the board leaves over",
    )
    read.add_argument(
        "--no-square-prior",
        dest="square_prior",
        action="store_false",
        help="no lean towards where pieces stand in games (for composed problems and other unusual positions)",
    )
    read.set_defaults(func=_read)

    classify = subparsers.add_parser("classify", help="classify square crops (one piece or empty per file)")
    classify.add_argument("crops", type=Path, nargs="+")
    classify.add_argument("--calibration", type=Path)
    classify.add_argument("--json", action="store_true")
    classify.set_defaults(func=_classify)

    calibrate = subparsers.add_parser("calibrate", help="learn your own piece set from two photos")
    calibrate.add_argument("start", type=Path, help="photo of the starting position")
    calibrate.add_argument("flipped", type=Path, help="photo with every piece turned over in place")
    calibrate.add_argument("-o", "--output", type=Path, required=True)
    calibrate.add_argument("--sente-side", choices=SIDES)
    calibrate.set_defaults(func=_calibrate)


def _load_image(path: Path) -> Any:
    import cv2

    if not path.is_file():
        raise CommandError(f"no such image: {path}")
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if image is None:
        raise CommandError(f"cannot decode image: {path}")
    return image


def _calibration(path: Path | None) -> Any:
    if path is None:
        return None
    from vision.calibration import Calibration

    if not path.is_file():
        raise CommandError(f"no such calibration file: {path}")
    return Calibration.load(path)


def _read(args: argparse.Namespace) -> int:
    from vision.reader import BoardReader, ReaderSettings
    from vision.square_prior import SQUARE_PRIOR

    image = _load_image(args.image)
    reader = BoardReader(
        settings=ReaderSettings(
            sente_side=args.sente_side,
            complete_set=args.complete_set,
            square_prior=SQUARE_PRIOR if args.square_prior else 0.0,
        ),
        calibration=_calibration(args.calibration),
    )
    result = reader.read(image)
    probs = result.probs if result.board_found else None
    fit = None if probs is None else fit_setup(probs, result.labels)
    if args.json:
        print(json.dumps({**result.to_json(), "setup_fit": None if fit is None else _fit_json(fit, result.hands)}))
        return 0
    if fit is None:
        print("board not found")
        return 0
    print(result.sfen())
    print(f"hands: {_hands_text(result.hands)}")
    if fit.changed:
        print(f"fitted to the rules: {_fit_sfen(fit, result.hands)}  ({'; '.join(fit.broken)})")
        print("  changed: " + ", ".join(f"{square} {read} -> {fitted}" for square, read, fitted in fit.changed))
    if result.unreliable:
        print(f"unreliable ({result.reason}): {' '.join(result.unreliable)}")
    else:
        print("reliable")
    print(f"{result.ms:.0f} ms")
    return 0


def _fit_sfen(fit: SetupFit, hands: dict[str, dict[str, int]] | None) -> str:
    """The fitted position as SFEN (the reader's hands; sente to move, as in the read's own SFEN)."""
    from vision.board_read import hands_field

    return f"{fit.board_field()} b {hands_field(hands)}"


def _fit_json(fit: SetupFit, hands: dict[str, dict[str, int]] | None) -> dict[str, Any]:
    """`setup_fit` of `vision read --json`: the read fitted to the rules of a set-up (`controller.reconcile.
    setup_fit`), the squares it changed and the rules the read broke."""
    return {
        "sfen": _fit_sfen(fit, hands),
        "changed": [{"square": square, "read": read, "fitted": fitted} for square, read, fitted in fit.changed],
        "broken": list(fit.broken),
    }


def _hands_text(hands: dict[str, dict[str, int]] | None) -> str:
    """Each stand's pieces, or why a stand's are unknown (out of view or covered; not the same as empty)."""
    if hands is None:
        return "unknown (neither stand in view)"
    parts = []
    for side, name in (("b", "sente"), ("w", "gote")):
        counts = hands.get(side)
        if counts is None:
            parts.append(f"{name} unknown (stand not in view)")
        else:
            parts.append(f"{name} " + (" ".join(f"{k}{n}" for k, n in counts.items()) or "empty"))
    return "; ".join(parts)


def _classify(args: argparse.Namespace) -> int:
    import cv2
    import numpy as np

    from vision.classifier import PieceClassifier
    from vision.squares import CROP

    classifier = PieceClassifier()
    calibration = _calibration(args.calibration)
    images = [_load_image(p) for p in args.crops]
    crops = np.stack([cv2.resize(im, (CROP, CROP), interpolation=cv2.INTER_AREA) for im in images])
    prediction = classifier.predict(crops)
    probs = calibration.adjust(prediction, crops) if calibration else prediction.probs
    from vision.labels import EMPTY, SQUARE_LABELS, is_sente

    out = []
    for path, row in zip(args.crops, probs, strict=True):
        label = SQUARE_LABELS[int(np.argmax(row))]
        owner = None if label == EMPTY else ("b" if is_sente(label) else "w")
        out.append({"file": str(path), "piece": label, "owner": owner, "p": round(float(row.max()), 4)})
    if args.json:
        print(json.dumps(out if len(out) > 1 else out[0]))
    else:
        for entry in out:
            print(f"{entry['file']}: {entry['piece']} owner={entry['owner'] or '-'} p={entry['p']:.3f}")
    return 0


def _calibrate(args: argparse.Namespace) -> int:
    from vision.calibration import calibrate, photo_grids, setup_doubts
    from vision.classifier import PieceClassifier

    start, flipped = _load_image(args.start), _load_image(args.flipped)
    classifier = PieceClassifier()
    grids = photo_grids(start, flipped, classifier, args.sente_side)
    calibration = calibrate(start, flipped, classifier, grids=grids)
    calibration.save(args.output)
    print(f"calibration written to {args.output}: examples per label {dict(sorted(calibration.examples.items()))}")
    doubts = setup_doubts(start, flipped, classifier, grids=grids)
    for doubt in doubts:
        print(f"check the set-up: {doubt.sentence()}")
    if doubts:
        print(
            f"{len(doubts)} square(s) may not show what the calibration learnt there: if the set-up was wrong,"
            " put it right and calibrate again"
        )
    return 0
