"""Calibration's appearance model: ink features that ignore the board's shade, the linear model on them, and
its part in a saved calibration."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import cv2
import numpy as np

from vision.appearance import appearance_features, ink_maps
from vision.calibration import Calibration, fit_appearance_model, fit_set_model, model_digest
from vision.classifier import Prediction
from vision.labels import SQUARE_LABELS
from vision.squares import CROP


def _crop(board: int, piece: int, strokes: list[tuple[int, int, int, int]], ink: tuple[int, int, int]) -> np.ndarray:
    """A CROP-pixel crop: a board shade, a lighter or darker piece body, and ink strokes (lines) on it."""
    crop = np.full((CROP, CROP, 3), board, np.uint8)
    cv2.rectangle(crop, (10, 8), (38, 42), (piece, piece, piece), -1)
    for x0, y0, x1, y1 in strokes:
        cv2.line(crop, (x0, y0), (x1, y1), ink, 2)
    return crop


CROSS = [(16, 24, 32, 24), (24, 14, 24, 36)]
SLASHES = [(15, 15, 33, 33), (15, 33, 33, 15)]


def _cosine(a: np.ndarray, b: np.ndarray) -> float:
    return float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b)))


def test_ink_features_ignore_whether_the_piece_is_lighter_than_the_board() -> None:
    """The same strokes on a piece lighter than its board and on one darker than its board give nearly the same
    features; other strokes give clearly different ones."""
    black = (20, 20, 20)
    light_piece = _crop(90, 200, CROSS, black)
    dark_piece = _crop(230, 160, CROSS, black)
    other = _crop(90, 200, SLASHES, black)
    f = appearance_features(np.stack([light_piece, dark_piece, other]))
    assert _cosine(f[0], f[1]) > 0.8
    assert _cosine(f[0], f[2]) < 0.3


def test_ink_map_marks_red_and_black_strokes() -> None:
    """Both black and red ink stand out in the ink map; the plain piece body does not."""
    for ink in ((20, 20, 20), (40, 40, 200)):
        crop = _crop(90, 200, CROSS, ink)
        ink_map = ink_maps(crop[None])[0]
        assert ink_map[24, 20] > 40 and ink_map[12, 14] < 5


def test_red_ink_tells_a_promoted_face_from_the_same_strokes_in_black() -> None:
    """An appearance model fitted on black and red copies of the same strokes keeps them apart."""
    rng = np.random.default_rng(0)

    def noisy(board: int, ink: tuple[int, int, int]) -> np.ndarray:
        crop = _crop(board, 200, CROSS, ink).astype(np.int16) + rng.integers(-12, 13, (CROP, CROP, 3))
        return np.clip(crop, 0, 255).astype(np.uint8)

    crops, targets = [], []
    for label, ink in (("P", (20, 20, 20)), ("+P", (40, 40, 200))):
        crops += [noisy(90, ink) for _ in range(20)]
        targets += [SQUARE_LABELS.index(label)] * 20
    model = fit_appearance_model(appearance_features(np.stack(crops)), np.array(targets, dtype=np.int64))
    test = np.stack([noisy(100, (20, 20, 20)), noisy(100, (40, 40, 200))])
    generic = np.full((2, len(SQUARE_LABELS)), 1 / len(SQUARE_LABELS))
    read = model.probs(appearance_features(test), generic).argmax(axis=1)
    assert [SQUARE_LABELS[int(j)] for j in read] == ["P", "+P"]


def test_appearance_model_round_trip_and_vote(tmp_path: Path) -> None:
    """A calibration with an appearance model saves and loads it; given the crops, a strong appearance model
    decides between labels the generic classifier leaves even; without the crops, or at weight 0, it is not used."""
    crops = np.stack([_crop(90, 200, CROSS, (20, 20, 20)), _crop(90, 200, SLASHES, (20, 20, 20))] * 10)
    targets = np.array([SQUARE_LABELS.index("G"), SQUARE_LABELS.index("S")] * 10, dtype=np.int64)
    features = np.random.default_rng(1).normal(size=(20, 8)).astype(np.float32)
    calibration = Calibration(
        fit_set_model(features, targets),
        {"G": 10, "S": 10},
        model_digest(),
        set_weight=0.0,
        appearance=fit_appearance_model(appearance_features(crops), targets),
        appearance_weight=1.0,
    )
    path = tmp_path / "set.json"
    calibration.save(path)
    loaded = Calibration.load(path)
    assert loaded.appearance is not None and loaded.appearance_weight == 1.0
    even = np.zeros((2, len(SQUARE_LABELS)))
    even[:, [SQUARE_LABELS.index("G"), SQUARE_LABELS.index("S")]] = 0.5
    prediction = Prediction(even, np.zeros(2), np.zeros(2), features[:2])
    with_crops = loaded.adjust(prediction, crops[:2])
    assert [SQUARE_LABELS[int(j)] for j in with_crops.argmax(axis=1)] == ["G", "S"]
    np.testing.assert_allclose(with_crops, calibration.adjust(prediction, crops[:2]), atol=1e-3)
    blind = dataclasses.replace(loaded, appearance=None).adjust(prediction, crops[:2])
    np.testing.assert_allclose(loaded.adjust(prediction), blind)
    np.testing.assert_allclose(dataclasses.replace(loaded, appearance_weight=0.0).adjust(prediction, crops[:2]), blind)
