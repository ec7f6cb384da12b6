"""`shogi-robot replay RECORD [--seed N] [--style NAME] [--out OUT.kifu] [--frames-dir DIR] [--calibrate]`: a
recorded game played by the simulated person in front of the virtual camera, recorded by the real pipeline.

Every frame goes through the real motion gate, stable frames through the real board reader, every observation
through the real reconciler, in record mode; the moves it commits (with times from the simulated clock) are the
recorded game, written to OUT. Prints moves recorded correctly / total, false moves, prompts raised (ambiguities,
mismatches, takeback offers) and the time from the first stable frame to the committed move (median, p95).
Also the composition used by `shogi-robot bench game` (`replay_one`).
"""

from __future__ import annotations

import argparse
import dataclasses
from pathlib import Path
from typing import TYPE_CHECKING, Any

from controller.cli.errors import CommandError

if TYPE_CHECKING:
    from controller.sim.replay import GameReport, ReplaySettings
    from vision.classifier import PieceClassifier
    from vision.render import CameraPose


def register(subparsers: Any) -> None:
    """Add `replay`."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "replay",
        help="a recorded game played in front of the virtual camera and recorded by the real pipeline",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("record", metavar="RECORD", help="record to replay (.kif .kifu .ki2 .csa .jkf .usi)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the board's look, camera pose and person")
    parser.add_argument("--style", help="piece style (default: one the classifier never saw, from the seed)")
    parser.add_argument("--out", type=Path, help="recorded game to write (default RECORD's name + -replay.kifu)")
    parser.add_argument("--frames-dir", type=Path, help="also save every camera frame here (JPEG)")
    parser.add_argument("--plies", type=int, default=0, help="replay only the first N plies (0: all)")
    parser.add_argument("--size", default="800x600", help="camera picture size WxH (default 800x600)")
    parser.add_argument("--max-tilt", type=float, default=30.0, help="largest camera tilt in degrees (default 30)")
    parser.add_argument(
        "--auto-orient", action="store_true", help="the reader finds sente's side from the pieces (no mount setting)"
    )
    parser.add_argument(
        "--calibrate", action="store_true", help="calibrate the reader to the piece set first (as a user does once)"
    )
    parser.add_argument(
        "--no-learn-set",
        dest="learn_set",
        action="store_false",
        help="do not learn the piece set from the confirmed start position ([vision] learn_set = false)",
    )
    parser.add_argument(
        "--learn-set-again",
        action="store_true",
        help="also learn the set from positions confirmed later ([vision] learn_set_again = true)",
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="print each prompt and error as it happens")
    parser.set_defaults(func=run)


def parse_size(text: str) -> tuple[int, int]:
    """`800x600` -> (800, 600)."""
    try:
        width, height = (int(part) for part in text.lower().split("x"))
    except ValueError as exc:
        raise CommandError(f"--size must be WIDTHxHEIGHT, got {text!r}") from exc
    return width, height


def held_out_styles() -> tuple[str, ...]:
    """Piece styles the classifier never saw in training: the shipped model's metadata (`pieces.json`,
    `held_out`), else the training script's HELD_OUT."""
    import json

    from vision.classifier import MODEL_PATH

    meta = MODEL_PATH.with_suffix(".json")
    if meta.is_file():
        held = json.loads(meta.read_text(encoding="utf-8")).get("held_out")
        if isinstance(held, list) and held and all(isinstance(style, str) for style in held):
            return tuple(held)
    from vision.train.train_classifier import HELD_OUT

    return HELD_OUT


def load_classifier() -> PieceClassifier:
    """The reader's classifier, with OpenCV and BLAS held to the product's default threads (`[vision] threads`,
    `controller.compose.vision_threads`: a replay reads as a game does); CommandError when its model is missing."""
    from controller.compose import vision_threads
    from controller.config import VisionConfig
    from vision.classifier import PieceClassifier
    from vision.errors import VisionError

    vision_threads(VisionConfig().threads)

    try:
        return PieceClassifier()
    except VisionError as exc:
        raise CommandError(f"the board reader cannot run: {exc}") from exc


def replay_one(
    moves: list[str],
    start_sfen: str,
    *,
    seed: int,
    style: str,
    size: tuple[int, int],
    classifier: PieceClassifier,
    settings: ReplaySettings | None = None,
    pose: CameraPose | None = None,
    max_tilt_deg: float = 30.0,
    auto_orient: bool = False,
    frames_dir: Path | None = None,
    calibrate: bool = False,
    learn_set: bool = True,
    learn_set_again: bool = False,
    style_dir: Path | None = None,
) -> GameReport:
    """Replay one game with fresh world, gate, reader and reconciler (the classifier is shared); `style_dir`: the
    piece sprites of `style` come from that folder (`CameraSettings.style_dir`).

    Like an installed robot, whose camera mount says once which side of the picture sente sits at, the reader
    is told that direction (from the camera's pose, before the game); with `auto_orient` it decides from the
    pieces instead, as for a camera nobody set up. With `calibrate` the reader is first calibrated to the piece
    set as a user does it (`vision.calibration`): a picture of the starting position, then one with every piece
    turned over in place, both taken by the game's own camera before the game; the game then starts. Without it,
    and with `learn_set`, the reader learns the set from the start position the setup check confirms, as the
    product does (`controller.runner.set_learning`, off the loop); the outcome is among the report's events."""
    from controller.reconcile import Reconciler
    from controller.runner.set_learning import StartLearningReader, vision_learn
    from controller.sim import CameraSettings, SimulatedHuman, VirtualBoard, VirtualCamera
    from controller.sim.replay import ReplaySettings, replay_game, save_frame
    from hardware.settings import load_settings
    from vision.classifier import PieceClassifier
    from vision.motion import MotionGate
    from vision.orientation import sente_direction
    from vision.reader import BoardReader, ReaderSettings

    geometry = load_settings(None).geometry
    board = VirtualBoard(geometry, start_sfen, seed=seed)
    human = SimulatedHuman(board, seed=seed)
    look = CameraSettings(style=style, seed=seed, size=size, pose=pose, max_tilt_deg=max_tilt_deg, style_dir=style_dir)
    camera = VirtualCamera(board, look)
    camera.read()
    assert camera.last is not None
    side = None if auto_orient else sente_direction(camera.last.board_corners_px)
    reader_settings = ReaderSettings(sente_side=side)
    calibration = _calibration(board, camera, classifier, side) if calibrate else None
    reader = StartLearningReader(
        BoardReader(classifier, reader_settings, calibration),
        vision_learn(PieceClassifier),
        enabled=learn_set,
        again=learn_set_again,
        user_calibration=calibration is not None,
    )
    reconciler = Reconciler(sfen=start_sfen)
    reader.on_change = reconciler.reader_changed
    settings = dataclasses.replace(settings or ReplaySettings(), reader_min_confidence=reader_settings.min_confidence)
    on_frame = None
    if frames_dir is not None:
        directory = frames_dir

        def on_frame(index: int, frame: Any, _result: Any) -> None:
            save_frame(directory, index, frame)

    report = replay_game(
        moves,
        start_sfen=start_sfen,
        human=human,
        camera=camera,
        gate=MotionGate(),
        reader=reader,
        reconciler=reconciler,
        settings=settings,
        on_frame=on_frame,
        on_setup=lambda: reader.start_confirmed(start_sfen),
        on_confirmed=reader.position_confirmed,
    )
    reader.wait()  # a learning still running (a very short game) would compete with the next game
    used = len(reader.outcomes)
    reader.settle()
    report.events += [
        outcome.describe() + ("" if i < used else " (after the game: not used)")
        for i, outcome in enumerate(reader.outcomes)
    ]
    return report


def _calibration(board: Any, camera: Any, classifier: PieceClassifier, side: float | None) -> Any:
    """The piece-set calibration from two pictures of the virtual board: as set up, then every piece turned over
    (turned back afterwards). CommandError when the pictures cannot calibrate (the start position is checked)."""
    from controller.rules.positions import STARTPOS_SFEN
    from vision.calibration import calibrate
    from vision.errors import CalibrationError

    if board_sfen(board) != STARTPOS_SFEN.split()[0]:
        raise CommandError("--calibrate needs a game from the starting position (the calibration pictures it)")
    start = camera.read()
    board.turn_over_all()
    turned = camera.read()
    board.turn_over_all()
    try:
        return calibrate(start, turned, classifier, sente_side=side)
    except CalibrationError as exc:
        raise CommandError(f"the piece-set calibration failed: {exc}") from exc


def board_sfen(board: Any) -> str:
    """The board field (first SFEN part) of what rests on the virtual board's squares."""
    from vision.labels import board_field_from_labels

    labels, _ = board.ground_truth()
    return board_field_from_labels(list(labels))


def run(args: argparse.Namespace) -> int:
    """Replay RECORD, write the recorded game, print the figures."""
    from controller.records.errors import RecordError
    from controller.records.io import format_of, read_record, write_record
    from controller.sim.errors import SimError
    from controller.sim.replay import ReplaySettings, summarise
    from vision.render import list_styles

    out = args.out or Path(args.record).with_name(Path(args.record).stem + "-replay.kifu")
    format_of(out)
    try:
        source = read_record(args.record)
    except RecordError as exc:
        raise CommandError(f"cannot read {args.record}: {exc}") from exc
    held = held_out_styles()
    style = args.style or held[args.seed % len(held)]
    if style not in list_styles():
        raise CommandError(f"unknown style {style!r} (known: {', '.join(list_styles())})")
    if args.plies < 0:
        raise CommandError("--plies must be 0 (all) or positive")
    classifier = load_classifier()
    print(f"replaying {args.record}: {len(source.moves)} plies, style {style}, seed {args.seed}", flush=True)
    try:
        report = replay_one(
            source.usi_moves,
            source.start_sfen,
            seed=args.seed,
            style=style,
            size=parse_size(args.size),
            classifier=classifier,
            settings=ReplaySettings(max_plies=args.plies),
            max_tilt_deg=args.max_tilt,
            auto_orient=args.auto_orient,
            frames_dir=args.frames_dir,
            calibrate=args.calibrate,
            learn_set=args.learn_set,
            learn_set_again=args.learn_set_again,
        )
    except SimError as exc:
        raise CommandError(f"the simulated person could not play the record: {exc}") from exc
    write_record(report.record, out)
    if args.verbose or report.error:
        for event in report.events:
            print(f"  {event}")
    for line in summarise([report]).lines():
        print(line)
    if report.error:
        print(f"error: {report.error}")
    print(
        f"frames {report.frames} (read {report.reads}, rendered {report.renders}), {report.sim_seconds:.0f} s simulated"
    )
    print(f"recorded game written to {out}")
    return 0 if report.ok else 1
