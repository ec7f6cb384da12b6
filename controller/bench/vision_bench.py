"""`shogi-robot bench vision`: the board reader on rendered frames of real game positions, unseen piece styles.

Positions are random prefixes of the games in `../shared/data/games/lishogi-500.usi` (so they have pieces in hand
and promotions); frames come from the virtual camera under random poses and lighting, drawn only with piece
styles the classifier never saw in training (`vision.train.train_classifier.HELD_OUT`, or `--style`). Each frame
is read by a fresh reader (so the grid is found from scratch), with sente's side given as a rig setting; the
reader's own orientation guess is scored separately. Then the same scene with an arm over the board is read
by that reader: a read that claims to be reliable but is wrong is a false read. Finally the reader is calibrated
on a start-position photo and a flipped photo of one held-out style and re-scored on that style: on frames under
other poses and light, and on frames of the calibration photos' own rig (camera pose, board, light; the real use).
Full reads classify all 81 squares (`reread_delta` None), and are timed on the scene's picture taken once more
(fresh sensor noise: a camera's next frame); a game's reader classifies only the squares whose picture changed
since it last read them, timed last on the position after a game's move (`move_read`). Timings run on one core
(`controller.compose.vision_threads(1)`: OpenCV, and numpy's BLAS: until 2026-11-29 BLAS could run the faces' likeness
on a second core, whose CPU the reading thread's clock does not see): wall-clock milliseconds, and the reading
thread's own CPU milliseconds (`time.thread_time`), which a machine shared with other jobs inflates far less; the
load average is printed before and after.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from controller.bench.machine import machine_line
from controller.bench.vision_calibrated import CalibratedFigures, calibrated_accuracy, report_calibrated
from controller.bench.vision_tally import (
    Tally,
    frame_interval,
    random_position,
    score_board,
    score_fit,
    score_flagged,
    score_hands,
    scored_settings,
)
from vision.errors import CalibrationError

DEFAULT_GAMES = Path("../shared/data/games/lishogi-500.usi")


def register_bench(subparsers: Any) -> None:
    """Add `bench vision`."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "vision", help="board reader accuracy, false reads, speed and memory", description=__doc__
    )
    parser.add_argument("--n", type=int, default=60, help="frames to render and read (default 60)")
    parser.add_argument("--style", help="piece style (default: the held-out styles in turn)")
    parser.add_argument("--games", type=Path, default=DEFAULT_GAMES, help="USI games, one per line")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--size", default="960x720", help="frame size WxH (default 960x720)")
    parser.add_argument("--calibrated-n", type=int, default=20, help="frames for the calibrated figure")
    parser.add_argument("--hands-n", type=int, default=10, help="wide frames (stands in view) for hand counts")
    parser.add_argument("--model", type=Path, help="classifier ONNX to score (default: the shipped model)")
    parser.add_argument(
        "--baseline",
        type=Path,
        help="another classifier ONNX to read the same main frames with: squares right by one model and not the"
        " other, and the exact McNemar test (controller.bench.paired)",
    )
    parser.add_argument(
        "--no-shifted-looks",
        dest="shifted_looks",
        action="store_false",
        help="full reads cut each square once (vision.shifted_looks off; an ablation)",
    )
    parser.add_argument(
        "--owner-cue", action="store_true", help="read with the pieces' outline cue (vision.owner_cue; off by default)"
    )
    parser.add_argument(
        "--occupancy-first", action="store_true", help="label squares occupancy first, then owner, then kind"
    )
    parser.add_argument(
        "--ink-sheen",
        type=float,
        default=0.0,
        help="chance of the lamp's sheen on the pieces' ink in the main frames (RenderOptions.ink_sheen; default 0)",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Render, read, score, print."""
    import numpy as np

    from controller.bench.classifier_clock import ClockedClassifier
    from controller.bench.move_read import time_reads_after_moves
    from controller.bench.paired import PairedTally, report_paired
    from controller.compose import vision_threads
    from vision.classifier import PieceClassifier
    from vision.render import RenderOptions, render_position
    from vision.train.train_classifier import HELD_OUT

    vision_threads(1)  # OpenCV and numpy's BLAS (the faces' likeness): a helper thread's CPU is not the reader's
    load_before = os.getloadavg()
    width, height = (int(v) for v in args.size.lower().split("x"))
    if not args.games.is_file():
        raise FileNotFoundError(f"games file not found: {args.games} (run from the project root, or pass --games)")
    games = [line.split() for line in args.games.read_text().splitlines() if line.strip()]
    styles = [args.style] if args.style else list(HELD_OUT)
    rng = np.random.default_rng(args.seed)
    classifier = ClockedClassifier(PieceClassifier() if args.model is None else PieceClassifier(args.model))
    tally = Tally()
    paired = (PairedTally(), PieceClassifier(args.baseline)) if args.baseline is not None else None
    for i in range(args.n):
        sfen = random_position(games, rng)
        options = RenderOptions(
            style=styles[i % len(styles)], seed=args.seed * 1000 + i, size=(width, height), ink_sheen=args.ink_sheen
        )
        clean = render_position(sfen, options)
        reader, labels = read_clean(tally, classifier, clean, args, np.random.default_rng([args.seed, 9000 + i]))
        occluded = render_position(sfen, RenderOptions(**{**options.__dict__, "hand": True, "pose": clean.pose}))
        read_occluded(tally, reader, occluded)
        if paired is not None and labels is not None:
            read_paired(args, paired, labels, clean)
    wide = hands_in_view(args, games, classifier, styles, size=(width, height), rng=rng)
    gate_ms = time_motion_gate(clean.image)
    calibrated = calibrated_accuracy(args, games, classifier, styles[0], size=(width, height), rng=rng)
    report(args, styles, tally, gate_ms, calibrated)
    if paired is not None:
        report_paired(paired[0], str(args.baseline))
    after = time_reads_after_moves(classifier, games, styles, (width, height), rng=rng)
    print(
        f"ms per read after move: median {after.wall_ms:.1f}, CPU median {after.cpu_ms:.1f}  (squares classified:"
        f" median {after.reread:.0f} of 81, the others' pixels unchanged, the position read on still frames before;"
        f" {after.right}/{after.samples} boards right)"
    )
    print(
        f"ms per still read:      CPU median {after.still_cpu_ms:.1f}  (the position read twice before; stands"
        f" counted again: {after.still_stands_counted} of {2 * after.samples})"
    )
    print(
        f"hands, stands in view:  {_pct(wide.hand_right, wide.hand_entries)} of counts right"
        f" (stands unknown: {wide.stands_unknown} of {2 * args.hands_n}; wide overhead shots); with the whole set in"
        f" play {_pct(wide.set_hand_right, wide.set_hand_entries)}; their board squares"
        f" {_pct(wide.squares_right, wide.squares)}, with the whole set {_pct(wide.set_squares_right, wide.squares)}"
    )
    print(f"load average (1, 5, 15 min): {_load(load_before)} at the start, {_load(os.getloadavg())} at the end")
    print(machine_line())
    return 0


def read_clean(
    tally: Tally, classifier: Any, frame: Any, args: argparse.Namespace, noise: Any
) -> tuple[Any, list[str] | None]:
    """Read a clean frame with a fresh reader (given sente's side, `scored_settings`); returns the reader for the
    occluded frame and the labels scored (None when no board was found). The full read is timed on a new picture
    of the same scene (`timed_full_read`; `noise`: its random generator)."""
    import numpy as np

    from vision.reader import BoardReader, ReaderSettings

    auto = BoardReader(
        classifier, ReaderSettings(sente_side=None, owner_cue=args.owner_cue, occupancy_first=args.occupancy_first)
    )
    result_auto = auto.read(frame.image)
    if result_auto.board_found and result_auto.geometry is not None:
        tally.orient += 1
        found, tolerance = result_auto.geometry.corners, 0.05 * max(frame.image.shape[:2])
        err = np.abs(found - frame.board_corners_px).max()
        tally.orient_right += bool(err < tolerance)
        turned = np.abs(np.roll(found, 2, axis=0) - frame.board_corners_px).max()  # the same grid turned by 180°
        tally.axis_right += bool(min(err, turned) < tolerance)
    reader = BoardReader(classifier, scored_settings(args, frame))
    start = time.perf_counter()
    result = reader.read(frame.image)
    tally.find_ms.append((time.perf_counter() - start) * 1000)
    if not result.board_found:
        tally.not_found += 1
        return reader, None
    result = reader.read(frame.image)  # steady state: grid only checked
    timed_full_read(tally, reader, frame.image, noise, classifier)
    truth = list(frame.labels)
    score_board(tally, truth, result.labels)
    score_fit(tally, truth, result)
    tally.flagged_clean += not result.reliable
    score_flagged(tally, truth, result.squares)
    score_hands(tally, frame.hands, result.hands)
    whole_set = BoardReader(classifier, replace(scored_settings(args, frame), complete_set=True)).read(frame.image)
    score_hands(tally, frame.hands, whole_set.hands if whole_set.board_found else None, complete_set=True)
    return reader, list(result.labels)


def timed_full_read(tally: Tally, reader: Any, image: Any, noise: Any, classifier: Any) -> None:
    """Time a full read (grid checked, every square classified) of the picture as the camera takes it once more
    (`controller.sim.camera.vary`: fresh sensor noise, made before the clocks start). Until 2026-11-29 the full
    read was timed on the very picture read just before: its readings came out the same to the last bit, so the
    reader gave back its last results of the steps that depend on them alone (`vision.lookalikes`, the set fit's
    likeness), which a camera's next frame never allows; the figure left out that work. With the reader's
    `classifier` clocked (`ClockedClassifier`), the read's CPU time inside it is kept too."""
    from controller.bench.classifier_clock import ClockedClassifier
    from controller.bench.move_read import timed_read
    from controller.sim.camera import vary

    picture = vary(image, noise)
    spent = classifier.cpu_seconds if isinstance(classifier, ClockedClassifier) else None
    _, wall, cpu = timed_read(reader, picture)
    tally.read_ms.append(wall)
    tally.read_cpu_ms.append(cpu)
    if spent is not None:
        tally.read_classifier_ms.append((classifier.cpu_seconds - spent) * 1000)


def read_paired(args: argparse.Namespace, paired: tuple[Any, Any], model_labels: list[str], frame: Any) -> None:
    """Read a clean frame with the baseline (`paired`: tally, baseline classifier), with the settings of
    `read_clean`'s scored read, and tally it against the scored model's labels there; a frame the baseline finds no
    board on is left out."""
    from controller.bench.paired import paired_labels

    tally, baseline = paired
    baseline_labels = paired_labels(baseline, frame, scored_settings(args, frame))
    if baseline_labels is not None:
        tally.add(list(frame.labels), model_labels, baseline_labels)


def read_occluded(tally: Tally, reader: Any, frame: Any) -> None:
    """Read the same scene with an arm over it: a reliable-looking wrong read is a false read."""
    if not frame.occluded_squares:
        return
    tally.occluded += 1
    result = reader.read(frame.image)
    if result.reliable:
        tally.occluded_claimed += 1
        tally.false_reads += result.labels != list(frame.labels)


def hands_in_view(
    args: argparse.Namespace,
    games: list[list[str]],
    classifier: Any,
    styles: list[str],
    *,
    size: tuple[int, int],
    rng: Any,
) -> Tally:
    """Hand counts on wide shots (both stands in the picture), sente's side given."""
    from vision.orientation import sente_direction
    from vision.reader import BoardReader, ReaderSettings
    from vision.render import CameraPose, RenderOptions, render_position

    tally = Tally()
    for i in range(args.hands_n):
        pose = CameraPose(tilt_deg=float(rng.uniform(0, 20)), roll_deg=float(rng.uniform(-20, 20)), fill=0.45)
        opts = RenderOptions(style=styles[i % len(styles)], seed=args.seed * 7000 + i, size=size, pose=pose)
        frame = render_position(random_position(games, rng), opts)
        for whole_set in (False, True):
            settings = ReaderSettings(sente_side=sente_direction(frame.board_corners_px), complete_set=whole_set)
            result = BoardReader(classifier, settings).read(frame.image)
            score_hands(tally, frame.hands, result.hands if result.board_found else None, complete_set=whole_set)
            if result.board_found and whole_set:
                tally.set_squares_right += sum(a == b for a, b in zip(result.labels, frame.labels, strict=True))
            elif result.board_found:
                score_board(tally, list(frame.labels), result.labels)
    return tally


def time_motion_gate(image: Any) -> tuple[float, float]:
    """Wall and CPU milliseconds per MotionGate.update on a frame of the bench size."""
    from vision.motion import MotionGate

    gate = MotionGate()
    gate.update(image)
    start, cpu = time.perf_counter(), time.thread_time()
    for _ in range(50):
        gate.update(image)
    return (time.perf_counter() - start) * 1000 / 50, (time.thread_time() - cpu) * 1000 / 50


def _classifier_share(t: Tally) -> str:
    """The full reads' CPU median inside the piece classifier, and its median share of a read ('' unclocked)."""
    if not t.read_classifier_ms:
        return ""
    share = statistics.median(c / r for c, r in zip(t.read_classifier_ms, t.read_cpu_ms, strict=True) if r > 0)
    return f", of which the piece classifier {statistics.median(t.read_classifier_ms):.1f} ({100 * share:.0f} %)"


def _load(averages: tuple[float, float, float]) -> str:
    return " ".join(f"{value:.2f}" for value in averages)


def _interval(values: Sequence[float], per_frame: int) -> str:
    """The 95 % interval over frames of a figure whose per-frame values are out of `per_frame`, as text."""
    low, high = frame_interval(values)
    return f"95 % interval over frames {100 * low / per_frame:.3f}-{100 * high / per_frame:.3f} %"


def _pct(a: int, b: int) -> str:
    return f"{100.0 * a / b:.3f} % ({a}/{b})" if b else "n/a"


def report(
    args: argparse.Namespace,
    styles: list[str],
    t: Tally,
    gate_ms: tuple[float, float],
    calibrated: CalibratedFigures | CalibrationError | None,
) -> None:
    """Print the figures."""
    sheen = f", the lamp's sheen on the ink with chance {args.ink_sheen:g}" if args.ink_sheen else ""
    print(f"vision bench: {args.n} frames, styles {', '.join(styles)} (never trained on), size {args.size}{sheen}")
    print(f"board found:            {_pct(args.n - t.not_found, args.n)}")
    print(f"square accuracy:        {_pct(t.squares_right, t.squares)}  ({_interval(t.frames_right, 81)})")
    boards = [float(right == 81) for right in t.frames_right]
    print(f"board accuracy:         {_pct(t.boards_right, t.boards)}  (all 81 right; {_interval(boards, 1)})")
    print(
        f"fitted to the rules:    squares {_pct(t.fit_squares_right, t.squares)}, boards"
        f" {_pct(t.fit_boards_right, t.boards)}; {t.fit_mended} squares mended, {t.fit_spoilt} spoilt (the read of"
        " one photo fitted to a set-up's rules by the controller: no nifu, no piece that can never move, one king a"
        " side; what `vision read` adds, not the reader's figure)"
    )
    cue = ("on" if args.owner_cue else "off") + (", occupancy first" if args.occupancy_first else ", likeliest label")
    print(
        f"owner accuracy:         {_pct(t.owner_right, t.owner)}  (occupied squares; {t.owner_empty} read as empty;"
        f" outline cue {cue})"
    )
    print(f"promoted accuracy:      {_pct(t.promoted_right, t.promoted)}  (occupied squares)")
    print(
        f"hand count accuracy:    {_pct(t.hand_right, t.hand_entries)}  (hands unknown in {t.hands_unknown} frames, "
        f"{t.stands_unknown} stands unknown; each stand counted on its own); "
        f"{_pct(t.set_hand_right, t.set_hand_entries)} with the whole set in play (complete_set: stands and board"
        " fitted to the set's 40 pieces)"
    )
    print(
        f"auto orientation:       axis {_pct(t.axis_right, t.orient)} from the pieces; sente's end"
        f" {_pct(t.orient_right, t.orient)} (no setting: one picture cannot tell a board from the same board turned"
        " by 180 degrees with every owner swapped; the rig's sente_side or the game decides it)"
    )
    print(f"clean frames flagged:   {_pct(t.flagged_clean, t.boards)}  (unreliable although nothing covers them)")
    print(
        f"clean squares flagged:  {_pct(t.squares_flagged, t.squares)}  ({t.flagged_right} of them read right all"
        f" the same); wrong but vouched for: {t.vouched_wrong} of {t.squares - t.squares_right} wrong"
    )
    print(f"occluded frames:        {t.occluded}, claimed reliable {t.occluded_claimed}")
    print(f"false-read rate:        {_pct(t.false_reads, t.occluded)}  (claimed reliable but wrong)")
    if t.read_ms:
        print(
            f"ms per full read:       median {statistics.median(t.read_ms):.1f},"
            f" max {max(t.read_ms):.1f}  (grid checked); CPU median {statistics.median(t.read_cpu_ms):.1f}"
            + _classifier_share(t)
        )
    if t.find_ms:
        print(f"ms per first read:      median {statistics.median(t.find_ms):.1f}  (grid found from scratch)")
    print(f"ms per motion gate:     {gate_ms[0]:.2f}; CPU {gate_ms[1]:.2f}")
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory (maxrss):   {peak_mb:.0f} MB  (whole process, renderer included)")
    if isinstance(calibrated, CalibrationError):
        print(f"calibrated ({styles[0]}):  not calibrated: {calibrated}")
    elif calibrated is not None:
        report_calibrated(styles[0], calibrated)
