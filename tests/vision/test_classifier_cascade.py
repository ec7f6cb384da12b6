"""The classifier runs the shipped model's two networks apart (`vision.classifier`): with features, exactly as the
joined graph reads; asked to skip, the wide network skips the crops the narrow one is sure are empty."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vision.board import BoardGeometry
from vision.classifier import (
    MODEL_PATH,
    N_LABELS,
    SURE_EMPTY,
    PieceClassifier,
    chunk_sizes,
    preprocess,
    read_network,
    softmax,
)
from vision.labels import EMPTY, SQUARE_LABELS
from vision.model_file import read_model
from vision.reader import BoardReader, ReaderSettings
from vision.render import RenderOptions, render_position
from vision.squares import crops_from_frame

SFEN = "ln1g1g1nl/1r1sk2b1/p1pppp1pp/6p2/1p7/2P6/PP1PPPPPP/1BS2S1R1/LN1GKG1NL b Ss 1"
EMPTY_CLASS = SQUARE_LABELS.index(EMPTY)


@pytest.fixture(scope="module")
def board() -> tuple[np.ndarray, np.ndarray, list[str]]:
    """A rendered frame of a training style (camera tilted), its 81 crops cut at the true grid, and their labels."""
    frame = render_position(SFEN, RenderOptions(seed=11, style="kanji_light", size=(960, 720), max_tilt_deg=30))
    crops = crops_from_frame(frame.image, BoardGeometry(frame.board_corners_px, 1.0))
    return frame.image, crops, list(frame.labels)


def _joined_graph(crops: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The shipped joined graph run whole by OpenCV in the classifier's chunks, as the classifier ran it before:
    softmax and features."""
    x, logits, features, start = preprocess(crops), [], [], 0
    for size in chunk_sizes(len(crops)):
        net = read_network(MODEL_PATH)
        net.setInput(x[start : start + size])
        chunk_logits, chunk_features = net.forward(["logits", "features"])
        logits.append(np.asarray(chunk_logits))
        features.append(np.asarray(chunk_features))
        start += size
    return softmax(np.concatenate(logits)), np.concatenate(features)


def _narrow(crops: np.ndarray, folder: Path) -> np.ndarray:
    """The first (narrow) network's softmax alone."""
    model = read_model(MODEL_PATH)
    (folder / "narrow.onnx").write_bytes(model.networks[0])
    net = read_network(folder / "narrow.onnx")
    net.setInput(preprocess(crops))
    return softmax(np.asarray(net.forward(model.outputs[0][0])))


def _labels(full: np.ndarray) -> np.ndarray:
    """Probabilities over the square labels from a softmax over the network's classes."""
    return full[:, :N_LABELS] / full[:, :N_LABELS].sum(axis=1, keepdims=True)


def test_with_features_the_networks_run_apart_read_as_the_joined_graph(board: tuple) -> None:
    """Probabilities and features equal the joined graph's but for float32 rounding (OpenCV plans a network alone
    a little differently from the same layers in the joined graph)."""
    _, crops, _ = board
    got = PieceClassifier(second_look=False).predict(crops)
    full, features = _joined_graph(crops)
    np.testing.assert_allclose(got.probs, _labels(full), rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(got.features, features, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(got.unreadable, full[:, N_LABELS + 1], rtol=1e-5, atol=1e-7)


def test_skipping_keeps_the_narrow_reading_of_sure_empty_squares(board: tuple, tmp_path: Path) -> None:
    """Skipping (without features), the crops the narrow network reads as empty at `SURE_EMPTY` or more keep its
    reading (about half the board here, every one of them really empty); every other crop reads as with both
    networks. No crop's likeliest label changes; the features are N×0."""
    _, crops, labels = board
    classifier = PieceClassifier(second_look=False)
    both, fast = classifier.predict(crops), classifier.predict(crops, features=False, skip_sure_empty=True)
    narrow = _narrow(crops, tmp_path)
    sure = narrow[:, EMPTY_CLASS] >= SURE_EMPTY
    assert 25 <= sure.sum() <= labels.count(EMPTY)
    assert all(labels[i] == EMPTY for i in np.flatnonzero(sure))
    assert np.array_equal(fast.probs[~sure], both.probs[~sure])
    np.testing.assert_allclose(fast.probs[sure], _labels(narrow)[sure], rtol=1e-5, atol=1e-7)
    assert not np.allclose(fast.probs[sure], both.probs[sure])  # the skipped crops really kept another reading
    assert np.array_equal(fast.probs.argmax(axis=1), both.probs.argmax(axis=1))
    assert fast.features.shape == (81, 0) and both.features.shape[0] == 81 and both.features.shape[1] > 0
    assert fast.first_only is not None and np.array_equal(fast.first_only, sure) and both.first_only is None


def test_skipping_with_features_marks_the_crops_read_by_one_network(board: tuple) -> None:
    """With features too (a calibrated read), the skipped crops are marked (`first_only`) and lack the wide
    network's features (zeros); every other crop has the features and probabilities of a read by both networks."""
    _, crops, _ = board
    classifier = PieceClassifier(second_look=False)
    both, fast = classifier.predict(crops), classifier.predict(crops, skip_sure_empty=True)
    assert fast.first_only is not None and 25 <= fast.first_only.sum() < 81
    rest = ~fast.first_only
    assert np.array_equal(fast.features[rest], both.features[rest])
    assert np.array_equal(fast.probs[rest], both.probs[rest])
    wide = fast.features[fast.first_only]
    assert wide.shape == both.features[fast.first_only].shape
    assert not wide[:, -1].any() and not np.array_equal(wide, both.features[fast.first_only])
    empties = crops[fast.first_only][:3]  # a batch the wide network skips whole
    alone = classifier.predict(empties, skip_sure_empty=True)
    assert alone.first_only is not None and alone.first_only.all()
    assert alone.features.shape == (3, both.features.shape[1])
    assert np.array_equal(alone.features, fast.features[fast.first_only][:3])
    fresh = PieceClassifier(second_look=False).predict(empties, skip_sure_empty=True)  # no crop read by both yet
    assert np.array_equal(fresh.features, alone.features)


class _Spy:
    """A classifier that records whether each call asked for features."""

    def __init__(self, inner: PieceClassifier) -> None:
        self.inner, self.asked = inner, []

    def predict(self, crops: np.ndarray, *, features: bool = True, skip_sure_empty: bool = False):  # type: ignore[no-untyped-def]
        self.asked.append(features)
        assert skip_sure_empty  # the reader always lets the wide network skip sure-empty crops
        return self.inner.predict(crops, features=features, skip_sure_empty=skip_sure_empty)


class _KeepCalibration:
    """A calibration that keeps the classifier's probabilities and records the features' width it was given."""

    def __init__(self) -> None:
        self.widths: list[int] = []

    def adjust(self, prediction, crops=None):  # type: ignore[no-untyped-def]
        self.widths.append(prediction.features.shape[1])
        return prediction.probs


def test_the_reader_asks_for_features_only_with_a_calibration(classifier: PieceClassifier, board: tuple) -> None:
    """Without a calibration every classification skips the features; with one, each gets them (its set model
    reads them), and the calibration is handed full feature vectors."""
    image, _, _ = board
    spy = _Spy(classifier)
    settings = ReaderSettings(sente_side="bottom", grid_pieces=False)  # the grid's check never asks (test_grid_pieces)
    BoardReader(spy, settings).read(image)  # type: ignore[arg-type]
    assert spy.asked and not any(spy.asked)
    spy.asked.clear()
    calibration = _KeepCalibration()
    BoardReader(spy, settings, calibration=calibration).read(image)  # type: ignore[arg-type]
    assert spy.asked and all(spy.asked)
    assert calibration.widths and min(calibration.widths) > 0
