"""The set's own faces (`vision.set_faces`): a crop is matched to the face it shows, turned or shifted a little and
under other light, for either owner; only unsure squares' piece labels move; the faces survive the calibration
file; a version-4 file (without faces) still loads."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import numpy as np
import pytest
from stand_in_faces import STROKES, piece

from vision.calibration import Calibration, fit_set_model, model_digest
from vision.classifier import Prediction
from vision.errors import CalibrationError
from vision.labels import EMPTY, SQUARE_LABELS
from vision.set_faces import FACE_BELOW, SetFaces, set_faces
from vision.squares import CROP


def _faces() -> SetFaces:
    return set_faces(np.stack([piece(kind) for kind in STROKES]), list(STROKES))


def test_each_crop_fits_its_own_face_best_for_either_owner() -> None:
    """A piece moved by a few pixels, turned by a few degrees and under dimmer light fits its own kind's face
    best; the same piece turned by 180 degrees fits the other owner's face of that kind."""
    faces = _faces()
    for kind in STROKES:
        seen = piece(kind, shift=(3, -2), turn=5.0, light=0.7)
        scores = faces.scores(np.stack([seen, np.ascontiguousarray(seen[::-1, ::-1])]))
        assert SQUARE_LABELS[int(np.nanargmax(scores[0]))] == kind
        assert SQUARE_LABELS[int(np.nanargmax(scores[1]))] == kind.lower()
        assert np.isnan(scores[0, SQUARE_LABELS.index(EMPTY)])


def test_reweigh_settles_an_unsure_square_and_leaves_the_rest() -> None:
    """An unsure square split between G and S goes to the face it shows; its empty share stays; a square read
    surely is left as it was."""
    g, s, empty = (SQUARE_LABELS.index(label) for label in ("G", "S", EMPTY))
    probs = np.zeros((2, len(SQUARE_LABELS)))
    probs[0, [g, s, empty]] = 0.45, 0.45, 0.10
    probs[1, [g, s]] = FACE_BELOW + 0.005, 1 - FACE_BELOW - 0.005
    out = _faces().reweigh(probs, np.stack([piece("S", shift=(2, 2)), piece("G")]))
    assert out[0].argmax() == s and out[0, s] > 0.85
    assert out[0, empty] == pytest.approx(0.10)
    assert out[0].sum() == pytest.approx(1.0)
    np.testing.assert_array_equal(out[1], probs[1])


def test_labels_without_faces_keep_their_probability() -> None:
    """Faces of gold and silver only say nothing about a promoted pawn: its probability is not moved."""
    faces = set_faces(np.stack([piece("G"), piece("S")]), ["G", "S"])
    promoted = SQUARE_LABELS.index("+P")
    probs = np.full((1, len(SQUARE_LABELS)), 0.5 / (len(SQUARE_LABELS) - 1))
    probs[0, promoted] = 0.5
    out = faces.reweigh(probs, np.stack([piece("S")]))
    assert out[0, promoted] == pytest.approx(0.5)
    assert out[0, SQUARE_LABELS.index("S")] > out[0, SQUARE_LABELS.index("G")]


def test_faces_are_not_made_of_empty_squares() -> None:
    """Only pieces have faces: an empty square's label is refused."""
    with pytest.raises(ValueError, match="not piece labels"):
        set_faces(np.stack([piece("G")]), [EMPTY])


def _calibration(faces: SetFaces | None) -> Calibration:
    rng = np.random.default_rng(0)
    targets = rng.integers(0, len(SQUARE_LABELS) - 3, 200)
    features = (rng.normal(size=(200, 8)) + targets[:, None] * 0.1).astype(np.float32)
    return Calibration(fit_set_model(features, targets), {"P": 200}, model_digest(), faces=faces)


def test_faces_round_trip_through_the_calibration_file(tmp_path: Path) -> None:
    """Saved and loaded, the calibration's faces are the same and weigh a square the same way; without them
    (or at weight 0) the crops move nothing."""
    calibration = _calibration(_faces())
    path = tmp_path / "set.json"
    calibration.save(path)
    loaded = Calibration.load(path)
    assert loaded.faces is not None
    np.testing.assert_array_equal(loaded.faces.faces, _faces().faces)
    assert loaded.faces.labels == tuple(STROKES)
    even = np.zeros((1, len(SQUARE_LABELS)))
    even[0, [SQUARE_LABELS.index("G"), SQUARE_LABELS.index("N")]] = 0.5
    prediction = Prediction(even, np.zeros(1), np.zeros(1), np.zeros((1, 8), np.float32))
    crops = np.stack([piece("N")])
    np.testing.assert_allclose(loaded.adjust(prediction, crops), calibration.adjust(prediction, crops))
    blind = dataclasses.replace(loaded, faces=None).adjust(prediction, crops)
    np.testing.assert_allclose(dataclasses.replace(loaded, face_weight=0.0).adjust(prediction, crops), blind)
    assert loaded.adjust(prediction, crops)[0, SQUARE_LABELS.index("N")] > blind[0, SQUARE_LABELS.index("N")]


def test_version_4_file_loads_without_faces(tmp_path: Path) -> None:
    """A calibration saved before faces were kept (format 4) still loads, with no faces."""
    data = _calibration(None).to_json()
    data["version"] = 4
    del data["faces"], data["face_weight"]
    path = tmp_path / "set.json"
    path.write_text(json.dumps(data))
    assert Calibration.load(path).faces is None


def test_broken_faces_refused(tmp_path: Path) -> None:
    """Faces whose crops and labels disagree make the file malformed."""
    data = _calibration(_faces()).to_json()
    faces = data["faces"]
    assert isinstance(faces, dict)
    faces["labels"] = ["G"]
    path = tmp_path / "set.json"
    path.write_text(json.dumps(data))
    with pytest.raises(CalibrationError, match="malformed"):
        Calibration.load(path)


def test_no_faces_move_nothing() -> None:
    """A calibration whose photos showed no piece has no faces, and its reweighing leaves every square as read."""
    faces = set_faces(np.zeros((0, CROP, CROP, 3), np.uint8), [])
    probs = np.full((1, len(SQUARE_LABELS)), 1 / len(SQUARE_LABELS))
    np.testing.assert_array_equal(faces.reweigh(probs, np.stack([piece("G")])), probs)
