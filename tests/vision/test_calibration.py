"""Calibration to one's own set: file round trip, refusal of foreign or broken files, and reading after
calibrating on rendered start and flipped photos (and on the real photo)."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.calibration import START_BOARD, Calibration, calibrate, fit_generic_power, fit_set_model, model_digest
from vision.classifier import PieceClassifier, Prediction
from vision.errors import CalibrationError
from vision.labels import EMPTY, SQUARE_LABELS, board_field_from_labels, labels_from_board_field
from vision.orientation import sente_direction
from vision.reader import BoardReader, ReaderSettings
from vision.render import RenderOptions, render_position

PHOTO = Path("../shared/data/photos/startpos-wooden-overhead.jpg")
MIDGAME = "ln1g3nl/1ks2rg2/1ppp1s1p1/p3ppp1p/9/P1PP1PP1P/1PS1PS3/1KG2G1R1/LN5NL b BPbp"


def _random_calibration(seed: int = 0) -> Calibration:
    rng = np.random.default_rng(seed)
    targets = rng.integers(0, len(SQUARE_LABELS) - 3, 200)  # the last labels get no examples
    features = (rng.normal(size=(200, 8)) + targets[:, None] * 0.1).astype(np.float32)
    return Calibration(fit_set_model(features, targets), {"P": 200}, model_digest())


def test_file_round_trip(tmp_path: Path) -> None:
    """A saved calibration loads back with the same model and gives the same output."""
    original = _random_calibration()
    path = tmp_path / "set.json"
    original.save(path)
    loaded = Calibration.load(path)
    np.testing.assert_array_equal(loaded.model.weights, original.model.weights)
    np.testing.assert_array_equal(loaded.model.trained, original.model.trained)
    assert loaded.examples == original.examples
    rng = np.random.default_rng(1)
    probs = rng.dirichlet(np.ones(len(SQUARE_LABELS)), 4)
    prediction = Prediction(probs, np.zeros(4), np.zeros(4), rng.normal(size=(4, 8)).astype(np.float32))
    np.testing.assert_allclose(loaded.adjust(prediction), original.adjust(prediction), atol=1e-2)


def test_file_for_another_model_refused(tmp_path: Path) -> None:
    """A calibration made with a different classifier model is refused with a clear message."""
    path = tmp_path / "set.json"
    data = _random_calibration().to_json()
    data["model_sha256"] = "0" * 64
    path.write_text(json.dumps(data))
    with pytest.raises(CalibrationError, match="different classifier model"):
        Calibration.load(path)


def test_malformed_file_refused(tmp_path: Path) -> None:
    """Garbage in a calibration file gives a CalibrationError, not a crash."""
    path = tmp_path / "set.json"
    path.write_text('{"version": 2, "set_model": {"mean": {"shape": [2, 2]}}}')
    with pytest.raises(CalibrationError, match="malformed"):
        Calibration.load(path)


@pytest.mark.slow
@pytest.mark.xfail(
    reason="calibrated accuracy on unseen styles is about 99.8 % per square under other poses (99.94 % on the"
    " calibration's own rig; `shogi-robot bench vision`), not yet perfect"
)
def test_calibrated_reader_reads_rendered_set(classifier: PieceClassifier) -> None:
    """Calibrated on a start photo and a flipped photo of a set, the reader gets a mid-game position right."""
    style = "ryoko_1kanji"
    flipped = [
        lab if lab == EMPTY or lab.upper() in ("K", "G") else "+" + lab for lab in labels_from_board_field(START_BOARD)
    ]
    opts = RenderOptions(style=style, seed=21, size=(960, 720))
    start = render_position(START_BOARD + " b -", opts)
    turned = render_position(
        board_field_from_labels(flipped) + " b -", RenderOptions(style=style, seed=21, size=(960, 720), pose=start.pose)
    )
    calibration = calibrate(start.image, turned.image, classifier, sente_side=sente_direction(start.board_corners_px))
    frame = render_position(MIDGAME, RenderOptions(style=style, seed=22, size=(960, 720)))
    settings = ReaderSettings(sente_side=sente_direction(frame.board_corners_px), stands=None)
    result = BoardReader(classifier, settings, calibration).read(frame.image)
    assert result.labels == list(frame.labels)


def test_real_photo_with_calibration(classifier: PieceClassifier, tmp_path: Path) -> None:
    """Calibrated on the real photo (start position only), the reader still reads it as the start position."""
    image = cv2.imread(str(PHOTO))
    calibration = calibrate(image, None, classifier)
    path = tmp_path / "set.json"
    calibration.save(path)
    result = BoardReader(classifier, calibration=Calibration.load(path)).read(image)
    assert result.sfen().split()[0] == START_BOARD


def test_file_of_older_version_refused(tmp_path: Path) -> None:
    """A calibration file of an older format version is refused with a message saying to calibrate again."""
    path = tmp_path / "set.json"
    data = _random_calibration().to_json()
    data["version"] = 2
    path.write_text(json.dumps(data))
    with pytest.raises(CalibrationError, match="version 2; calibrate again"):
        Calibration.load(path)


def test_negative_weight_refused(tmp_path: Path) -> None:
    """A calibration file with a negative weight is malformed."""
    path = tmp_path / "set.json"
    data = _random_calibration().to_json()
    data["set_weight"] = -1.0
    path.write_text(json.dumps(data))
    with pytest.raises(CalibrationError, match="malformed"):
        Calibration.load(path)


def _peaked(labels: list[int], p: float) -> np.ndarray:
    """Probabilities putting `p` on each row's label and the rest evenly elsewhere."""
    probs = np.full((len(labels), len(SQUARE_LABELS)), (1 - p) / (len(SQUARE_LABELS) - 1))
    probs[np.arange(len(labels)), labels] = p
    return probs


def test_generic_power_high_when_generic_confidently_right() -> None:
    """Known squares read right with confidence give the generic classifier a high power (trusted)."""
    targets = np.arange(20, dtype=np.int64)
    assert fit_generic_power(_peaked(list(targets), 0.95), targets) > 2.0


def test_generic_power_low_when_generic_confidently_wrong() -> None:
    """Known squares of which a fifth are read confidently wrong give the generic classifier a power below 1."""
    targets = np.arange(20, dtype=np.int64)
    read = [int(t) if t % 5 else int(t) + 1 for t in targets]
    assert fit_generic_power(_peaked(read, 0.95), targets) < 1.0


def test_set_model_outvotes_untrusted_generic_reading() -> None:
    """With the generic classifier's power low, a set model sure of another label decides the square; with it
    high, the generic reading stands."""
    kinds = [SQUARE_LABELS.index(label) for label in ("L", "P", "G", "S")]
    rng = np.random.default_rng(3)
    which = np.repeat(np.arange(4), 30)
    features = (rng.normal(0, 0.1, (120, 4)) + np.eye(4)[which] * 3).astype(np.float32)
    model = fit_set_model(features, np.array(kinds, dtype=np.int64)[which])
    sample = np.array([[3.0, 0.0, 0.0, 0.0]], dtype=np.float32)  # features like the set's lances
    pawn = SQUARE_LABELS.index("P")
    prediction = Prediction(_peaked([pawn], 0.9), np.zeros(1), np.zeros(1), sample)
    untrusted = Calibration(model, {}, model_digest(), generic_power=0.3)
    trusted = Calibration(model, {}, model_digest(), generic_power=4.0, set_weight=0.0)
    assert SQUARE_LABELS[int(untrusted.adjust(prediction).argmax())] == "L"
    assert SQUARE_LABELS[int(trusted.adjust(prediction).argmax())] == "P"


def test_faces_a_start_only_calibration_never_saw_keep_their_generic_share() -> None:
    """A set learnt from the start position alone has no promoted faces: a square the generic classifier reads
    as a promoted pawn (0.6, against 0.4 unpromoted) still reads promoted, however sure the set model is that the
    face is a pawn's among the faces it knows: the faces it never saw keep the generic classifier's share."""
    rng = np.random.default_rng(5)
    plain = [SQUARE_LABELS.index(label) for label in ("P", "L", "N", "S")]
    which = np.repeat(np.arange(4), 30)
    features = (rng.normal(0, 0.1, (120, 4)) + np.eye(4)[which] * 3).astype(np.float32)
    model = fit_set_model(features, np.array(plain, dtype=np.int64)[which])
    generic = np.full((1, len(SQUARE_LABELS)), 1e-6)
    generic[0, SQUARE_LABELS.index("+P")], generic[0, SQUARE_LABELS.index("P")] = 0.6, 0.4
    sample = np.array([[3.0, 0.0, 0.0, 0.0]], dtype=np.float32)  # features like the set's pawns
    probs = Calibration(model, {}, model_digest()).adjust(Prediction(generic, np.zeros(1), np.zeros(1), sample))
    assert SQUARE_LABELS[int(probs.argmax())] == "+P"
    unseen = ~model.trained
    assert np.isclose(probs[0, unseen].sum(), generic[0, unseen].sum(), rtol=1e-6)  # the face is the classifier's


def test_crops_read_by_one_network_keep_the_classifier_probabilities() -> None:
    """Crops the classifier's first network alone read (surely empty: `Prediction.first_only`) keep the
    classifier's probabilities; every other crop is adjusted exactly as in a prediction of those crops alone."""
    calibration = _random_calibration()
    rng = np.random.default_rng(3)
    probs = rng.dirichlet(np.ones(len(SQUARE_LABELS)), size=6)
    features = rng.normal(size=(6, 8)).astype(np.float32)
    first_only = np.array([True, False, False, True, False, True])
    prediction = Prediction(probs, np.zeros(6), np.zeros(6), features, first_only)
    got = calibration.adjust(prediction)
    assert np.array_equal(got[first_only], probs[first_only])
    rest = np.flatnonzero(~first_only)
    alone = calibration.adjust(Prediction(probs[rest], np.zeros(3), np.zeros(3), features[rest]))
    assert np.array_equal(got[rest], alone)
    assert not np.allclose(got[rest], probs[rest])  # the calibration does change the others
