"""The reader learns the piece set from a game's confirmed standard start, off the loop, and gives way to the
user's calibration; a failed learning leaves the game reading as before."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from runner_sim import TruthEyes, learning_reader_at_start

from controller import compose
from controller.config import VisionConfig, config_from_text
from controller.game.settings import Mode
from controller.rules.positions import HANDICAPS, STARTPOS_SFEN
from controller.runner.options import SessionOptions
from controller.runner.session import run_session
from controller.runner.set_learning import SetSource, StartLearningReader
from hardware.errors import ConfigError
from vision.classifier import MODEL_PATH
from vision.errors import CalibrationError

FRAME = np.zeros((6, 8, 3), np.uint8)
DROP_SFEN = "lnsgkg1nl/1r5s1/pppppp1pp/6p2/5B3/2P6/PP1PPPPPP/7R1/LNSGKGSNL w b 6"
"""After 7g7f 3c3d 8h2b+ 3a2b B*4e: sente's bishop dropped on 4e."""
NO_GANTRY = "[game]\ngantry = false\n"


class _Settings:
    sente_side = "bottom"


class _Reader:
    """Stands in for `BoardReader`: records reads and the calibration in use."""

    def __init__(self) -> None:
        self.calibration: Any = None
        self.reads = 0
        self.settings = _Settings()

    def read(self, image: Any) -> str:
        self.reads += 1
        return f"read with {self.calibration}"

    def use_calibration(self, calibration: Any) -> None:
        self.calibration = calibration


class _Learnt:
    """Stands in for a `Calibration`: prints as `learnt`, saves a line."""

    def __str__(self) -> str:
        return "learnt"

    def __eq__(self, other: object) -> bool:
        return str(other) == "learnt"

    __hash__ = None  # type: ignore[assignment]

    def save(self, path: Path) -> None:
        path.write_text("learnt\n", encoding="utf-8")


class _Learn:
    """Stands in for `vision_learn(...)`: returns `result` (or raises it), after `gate` opens when one is given."""

    def __init__(self, result: Any = None, gate: threading.Event | None = None) -> None:
        result = _Learnt() if result is None else result
        self.result, self.gate = result, gate
        self.calls: list[tuple[Any, Any]] = []

    def __call__(self, frame: Any, side: Any) -> Any:
        self.calls.append((frame, side))
        if self.gate is not None:
            self.gate.wait(5.0)
        if isinstance(self.result, Exception):
            raise self.result
        return self.result


def _learning(learn: _Learn, **kwargs: Any) -> tuple[StartLearningReader, _Reader, list[str]]:
    inner, said = _Reader(), list[str]()
    reader = StartLearningReader(inner, learn, say=said.append, **kwargs)
    return reader, inner, said


def test_a_confirmed_start_teaches_the_reader_from_the_confirming_frame() -> None:
    """The frame last read (the one that confirmed the start) is learnt from, with the reader's sente side; the
    result is used from the next read on, and said once."""
    learn = _Learn()
    reader, inner, said = _learning(learn)
    frame = np.full((6, 8, 3), 7, np.uint8)
    reader.read(frame)
    assert reader.start_confirmed(STARTPOS_SFEN)
    reader.wait(5.0)
    assert inner.calibration is None  # installed by the loop's own thread, at the next read
    assert reader.read(FRAME) == "read with learnt"
    assert reader.source is SetSource.LEARNT
    assert np.array_equal(learn.calls[0][0], frame) and learn.calls[0][1] == "bottom"
    assert len(said) == 1 and "learnt from the starting position" in said[0]


def test_each_change_of_calibration_is_told_on_the_next_read() -> None:
    """`on_change` (the reconciler forgetting its habits of the old reading) is called once per change of the
    reader's calibration, in the read that first uses it: the learnt set, then the user's calibration."""
    reader, _inner, _said = _learning(_Learn())
    changes: list[str] = []
    reader.on_change = lambda: changes.append(str(reader.inner.calibration))
    reader.read(FRAME)
    reader.start_confirmed(STARTPOS_SFEN)
    reader.settle(5.0)
    assert changes == []
    reader.read(FRAME)
    reader.read(FRAME)
    assert changes == ["learnt"]
    reader.use_calibration("user's")
    reader.read(FRAME)
    assert changes == ["learnt", "user's"]


def test_the_loop_does_not_wait_for_the_learning() -> None:
    """While the learning runs, reads go on with the generic classifier."""
    gate = threading.Event()
    reader, _inner, _said = _learning(_Learn(gate=gate))
    reader.read(FRAME)
    reader.start_confirmed(STARTPOS_SFEN)
    began = time.perf_counter()
    assert reader.read(FRAME) == "read with None"
    assert reader.learning and time.perf_counter() - began < 1.0
    gate.set()
    reader.settle(5.0)
    assert reader.read(FRAME) == "read with learnt"


def test_a_failed_learning_leaves_the_game_reading_as_before() -> None:
    """A `CalibrationError` (board not found) is said and logged; reads go on generic."""
    reader, inner, said = _learning(_Learn(CalibrationError("start photo: board not found")))
    reader.read(FRAME)
    reader.start_confirmed(STARTPOS_SFEN)
    reader.settle(5.0)
    assert reader.read(FRAME) == "read with None" and inner.reads == 2
    assert reader.source is SetSource.GENERIC
    assert "failed (CalibrationError: start photo: board not found)" in said[0]
    assert reader.outcomes[0].calibration is None


def test_only_the_standard_start_is_learnt_from() -> None:
    """A handicap start (another board) teaches nothing: `calibrate` knows the standard start only; the standard
    board with gote to move does."""
    learn = _Learn()
    reader, _inner, _said = _learning(learn)
    reader.read(FRAME)
    assert not reader.start_confirmed(HANDICAPS["bishop"].sfen)
    assert reader.start_confirmed(STARTPOS_SFEN.replace(" b ", " w "))
    reader.settle(5.0)
    assert len(learn.calls) == 1


def test_nothing_is_learnt_before_a_frame_or_when_off() -> None:
    """No frame read yet, or `[vision] learn_set = false`: no learning."""
    learn = _Learn()
    reader, _inner, _said = _learning(learn)
    assert not reader.start_confirmed(STARTPOS_SFEN)
    off, _inner, _said = _learning(learn, enabled=False)
    off.read(FRAME)
    assert not off.start_confirmed(STARTPOS_SFEN) and learn.calls == []


def test_the_users_calibration_wins() -> None:
    """A calibration given at start-up means no learning; one the page makes while a learning runs is kept when
    that learning ends."""
    learn = _Learn()
    given, _inner, _said = _learning(learn, user_calibration=True)
    given.read(FRAME)
    assert not given.start_confirmed(STARTPOS_SFEN) and learn.calls == []
    gate = threading.Event()
    reader, _inner, said = _learning(_Learn(gate=gate))
    reader.read(FRAME)
    reader.start_confirmed(STARTPOS_SFEN)
    reader.use_calibration("the user's")
    gate.set()
    reader.settle(5.0)
    assert reader.read(FRAME) == "read with the user's" and reader.source is SetSource.USER
    assert "the user's calibration stays in use" in said[0]


def test_config_vision_section(tmp_path: Path) -> None:
    """[vision] learn_set defaults to true; a calibration file must exist; unknown keys are refused."""
    assert config_from_text(NO_GANTRY, tmp_path).vision == VisionConfig(learn_set=True, calibration=None)
    (tmp_path / "set.json").write_text("{}", encoding="utf-8")
    config = config_from_text(NO_GANTRY + '[vision]\nlearn_set = false\ncalibration = "set.json"\n', tmp_path)
    assert config.vision == VisionConfig(learn_set=False, calibration=tmp_path / "set.json")
    again = config_from_text(NO_GANTRY + "[vision]\nlearn_set_again = true\n", tmp_path).vision
    assert again == VisionConfig(learn_set=True, calibration=None, learn_set_again=True)
    with pytest.raises(ConfigError, match="does not exist"):
        config_from_text(NO_GANTRY + '[vision]\ncalibration = "missing.json"\n', tmp_path)
    with pytest.raises(ConfigError, match="learn_sets"):
        config_from_text(NO_GANTRY + "[vision]\nlearn_sets = true\n", tmp_path)


def test_a_malformed_calibration_file_is_reported(tmp_path: Path) -> None:
    """`compose.piece_set` reads the file the config names; a malformed one is a ValueError naming it."""
    path = tmp_path / "set.json"
    path.write_text("{}", encoding="utf-8")
    eyes = _EyesWithLearning(StartLearningReader(_Reader(), _Learn()))
    with pytest.raises(ValueError, match=r"set\.json"):
        compose.piece_set(eyes, VisionConfig(calibration=path), _quiet, lambda: tmp_path / "g", resumed=False)
    assert compose.piece_set(object(), VisionConfig(), _quiet, lambda: tmp_path / "g", resumed=False) is None


def test_a_resumed_game_with_an_unusable_saved_set_reads_on(tmp_path: Path) -> None:
    """On `--resume`, a saved learnt set that cannot be read is said, and the game reads without it."""
    (tmp_path / "g.piece-set.json").write_text("{}", encoding="utf-8")
    reader, lines = StartLearningReader(_Reader(), _Learn()), list[str]()
    hook = compose.piece_set(
        _EyesWithLearning(reader), VisionConfig(), lines.append, lambda: tmp_path / "g", resumed=True
    )
    assert hook is not None and reader.source is SetSource.GENERIC
    assert "cannot be used" in lines[0]


def _quiet(_text: str) -> None:
    """Says nothing."""


class _EyesWithLearning:
    def __init__(self, reader: StartLearningReader) -> None:
        self.reader = reader


class _LearningTruthEyes:
    """The synthetic reader's observations (`TruthEyes`), with each frame also passed through a learning reader
    (as `CameraEyes` does with the real one)."""

    learn = _Learn()

    def __init__(self, camera: Any, sente_side: float | None = None) -> None:
        self.truth = TruthEyes(camera, sente_side)
        self.inner = _Reader()
        self.reader = StartLearningReader(self.inner, self.learn)

    def look(self, now: float) -> Any:
        self.reader.read(FRAME)
        return self.truth.look(now)


@pytest.mark.slow
def test_a_session_learns_once_the_setup_check_confirms_the_start(tmp_path: Path) -> None:
    """`record --sim`: once the start is confirmed, the session's reader learns the set (once) and reads with
    it; the game goes on and records every move."""
    record = tmp_path / "in.usi"
    moves = ["7g7f", "3c3d", "2g2f", "4c4d"]
    record.write_text("startpos moves " + " ".join(moves) + "\n", encoding="utf-8")
    options = SessionOptions(
        Mode.RECORD, sim=True, sim_human=str(record), out=tmp_path, name="r", board_every=0, stall_s=60
    )
    seen: list[_LearningTruthEyes] = []

    def eyes(camera: Any, side: Any) -> _LearningTruthEyes:
        seen.append(_LearningTruthEyes(camera, side))
        return seen[-1]

    lines: list[str] = []
    result = run_session(options, say=lines.append, eyes=eyes)
    assert result.report.state.usi_moves == tuple(moves)
    assert len(_LearningTruthEyes.learn.calls) == 1
    assert seen[0].inner.calibration == "learnt", lines
    assert any("learnt from the starting position" in line for line in lines)
    assert (tmp_path / "r.piece-set.json").read_text(encoding="utf-8") == "learnt\n"  # for --resume


@pytest.mark.slow
@pytest.mark.skipif(not MODEL_PATH.exists(), reason=f"no classifier model at {MODEL_PATH}")
def test_the_real_reader_reads_a_drop_better_once_it_learnt_the_start(tmp_path: Path) -> None:
    """A held-out set the generic classifier reads poorly: learnt from a picture of the start, the reader uses the
    calibration and gives the bishop dropped on 4e (a face the start showed) a much higher probability. The set
    is saved for the game's files, and a resumed game's reader reads with it."""
    from controller.runner.set_learning import learnt_set_path, vision_learn
    from controller.sim import VirtualBoard, VirtualCamera
    from vision.classifier import PieceClassifier
    from vision.labels import SQUARE_LABELS
    from vision.reader import BoardReader

    reader, start_frame, geometry, look = learning_reader_at_start()
    dropped = VirtualCamera(VirtualBoard(geometry, DROP_SFEN, seed=8), look).read()
    square, bishop = 4 * 9 + (9 - 4), SQUARE_LABELS.index("B")  # 4e in SFEN order
    generic = reader.read(dropped).probs[square, bishop]
    reader.read(start_frame)
    assert reader.start_confirmed(STARTPOS_SFEN, learnt_set_path(tmp_path / "g"))
    reader.settle(120.0)
    assert reader.source is SetSource.LEARNT, reader.outcomes
    learnt = reader.read(dropped).probs[square, bishop]
    assert generic < 0.5 < learnt, (generic, learnt)
    resumed = StartLearningReader(BoardReader(PieceClassifier(), reader.settings), vision_learn(PieceClassifier))
    compose.piece_set(_EyesWithLearning(resumed), VisionConfig(), _quiet, lambda: tmp_path / "g", resumed=True)
    assert resumed.source is SetSource.LEARNT
    assert resumed.read(dropped).probs[square, bishop] == pytest.approx(learnt)


@pytest.mark.slow
@pytest.mark.skipif(not MODEL_PATH.exists(), reason=f"no classifier model at {MODEL_PATH}")
def test_a_replay_learns_the_set_from_its_start_and_records_the_game() -> None:
    """`replay` (and `bench game`) learn the set from the start the setup check saw, as the product does: the
    report says so, and the opening is recorded move for move."""
    from controller.cli.replay_cmd import replay_one
    from controller.sim.replay import ReplaySettings
    from vision.classifier import PieceClassifier

    moves = ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e", "B*5e"]
    report = replay_one(
        moves, STARTPOS_SFEN, seed=8, style="ryoko_1kanji", size=(800, 600), classifier=PieceClassifier(),
        settings=ReplaySettings(),
    )  # fmt: skip
    assert any(event.startswith("piece set: learnt from the start position") for event in report.events), report
    assert report.false_moves == 0 and not report.error, report.events
    assert report.record.usi_moves == moves, report.events
