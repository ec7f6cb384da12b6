"""The calibrated figures of `shogi-robot bench vision`: a held-out style calibrated on a start and a flipped photo of
one set, then read with and without the calibration on three families of frames (the calibration photos' rig,
other poses, other sets of the same artwork), and their report lines.
"""

from __future__ import annotations

import argparse
import statistics
import time
from dataclasses import dataclass
from typing import Any

from controller.bench.vision_tally import Tally, random_position, score_board, score_vouched, scored_settings
from vision.errors import CalibrationError


@dataclass(frozen=True)
class CalibratedFamily:
    """Square accuracy of one family of frames read without and with the calibration."""

    generic: float
    calibrated: float
    frames: int
    generic_vouched_wrong: int = 0
    """Squares read wrong but vouched for (reliable), without and with the calibration."""
    vouched_wrong: int = 0


@dataclass(frozen=True)
class CalibratedFigures:
    """Square accuracy on one style before and after calibrating on it, by family of frames: `rig` (the
    calibration photos' camera pose, board and light: the real use), `other` (the same set under other poses,
    boards and light), `other set` (the same frames' positions and cameras, each its own set of the style's
    artwork: other piece size, wood tone and grain, which the calibration never saw)."""

    families: dict[str, CalibratedFamily]
    power: float
    read_ms: float
    """Median milliseconds of a calibrated read (grid checked), one core."""
    read_cpu_ms: float
    """Median CPU milliseconds of the same reads."""


CALIBRATED_FAMILIES = ("rig", "other", "other set")


def calibrated_accuracy(
    args: argparse.Namespace, games: list[list[str]], classifier: Any, style: str, *, size: tuple[int, int], rng: Any
) -> CalibratedFigures | CalibrationError | None:
    """Calibrate on a start and a flipped photo of one set of one style (`RenderOptions.set_seed`), then score
    generic and calibrated reads on frames of other positions: `--calibrated-n` frames of each family of
    `CalibratedFigures` (the `other set` frame of each `other` frame shows the same position under the same
    camera seed). A calibration that fails (the photos' board not found) is returned as its error."""
    import numpy as np

    from vision.calibration import FLIPPED_BOARD, START_BOARD, calibrate
    from vision.orientation import sente_direction
    from vision.render import RenderOptions, render_position, render_scene, scene_from_sfen

    if args.calibrated_n <= 0:
        return None
    own_set = args.seed + 77
    opts = RenderOptions(style=style, seed=args.seed + 77, size=size, set_seed=own_set)
    start = render_position(START_BOARD + " b -", opts)
    turned = render_position(FLIPPED_BOARD + " b -", RenderOptions(**{**opts.__dict__, "pose": start.pose}))
    sente = sente_direction(start.board_corners_px)
    try:
        calibration = calibrate(start.image, turned.image, classifier, sente_side=sente)
    except CalibrationError as exc:
        return exc
    tallies = {name: (Tally(), Tally()) for name in CALIBRATED_FAMILIES}
    read_ms: list[tuple[float, float]] = []
    rig = RenderOptions(**{**opts.__dict__, "pose": start.pose})
    readers = (classifier, calibration)
    for i in range(args.calibrated_n):
        sfen = random_position(games, rng)
        for family, set_seed in (("other", own_set), ("other set", None)):
            frame_options = RenderOptions(style=style, seed=args.seed * 5000 + i, size=size, set_seed=set_seed)
            _score_calibrated(args, readers, render_position(sfen, frame_options), tallies[family], read_ms)
        # the rig's board, light and camera; the pieces sit as they fall (their own jitter)
        scene = scene_from_sfen(random_position(games, rng), np.random.default_rng([args.seed, 6000 + i]))
        _score_calibrated(args, readers, render_scene(scene, rig), tallies["rig"], read_ms)
    if not all(tuned.squares for _, tuned in tallies.values()):
        return None
    families = {
        name: CalibratedFamily(
            plain.squares_right / max(plain.squares, 1),
            tuned.squares_right / tuned.squares,
            tuned.boards,
            plain.vouched_wrong,
            tuned.vouched_wrong,
        )
        for name, (plain, tuned) in tallies.items()
    }
    return CalibratedFigures(
        families,
        calibration.generic_power,
        statistics.median(ms for ms, _ in read_ms) if read_ms else float("nan"),
        statistics.median(cpu for _, cpu in read_ms) if read_ms else float("nan"),
    )


def _score_calibrated(
    args: argparse.Namespace,
    readers: tuple[Any, Any],
    frame: Any,
    tallies: tuple[Tally, Tally],
    ms: list[tuple[float, float]],
) -> None:
    """Read a frame without and with the calibration (fresh readers, sente's side given) and score both; the
    calibrated reader reads twice, the second time (grid checked) timed. `readers`: classifier, calibration."""
    from vision.reader import BoardReader

    settings = scored_settings(args, frame)
    classifier, calibration = readers
    for tally, cal in zip(tallies, (None, calibration), strict=True):
        reader = BoardReader(classifier, settings, cal)
        result = reader.read(frame.image)
        if cal is not None and result.board_found:
            begin, cpu = time.perf_counter(), time.thread_time()
            result = reader.read(frame.image)
            ms.append(((time.perf_counter() - begin) * 1000, (time.thread_time() - cpu) * 1000))
        if result.board_found:
            truth = list(frame.labels)
            score_board(tally, truth, result.labels)
            score_vouched(tally, truth, result.squares)


_FAMILY_WORDS = {
    "other": "the calibrated set under other poses, boards and light",
    "rig": "the calibration photos' pose, board and light",
    "other set": "the same positions and cameras as 'other', each frame its own set of the artwork (other piece"
    " size, wood tone and grain): not the set calibrated on",
}


def report_calibrated(style: str, c: CalibratedFigures) -> None:
    """Print the calibrated figures, a line per family of frames."""
    names = {"other": f"calibrated ({style}):", "rig": "calibrated, same rig:", "other set": "calibrated, other sets:"}
    for family in ("other", "rig", "other set"):
        f = c.families[family]
        print(
            f"{names[family]:<23} square accuracy {100 * f.calibrated:.3f} % vs generic {100 * f.generic:.3f} %"
            f", wrong but vouched for {f.vouched_wrong} vs {f.generic_vouched_wrong}"
            f" ({f.frames} frames: {_FAMILY_WORDS[family]})"
        )
    print(
        f"calibrated reads:       ms median {c.read_ms:.1f}, CPU median {c.read_cpu_ms:.1f}; generic classifier's"
        f" power on this set {c.power:.2f}"
    )
