"""Calibration to the user's own piece set, from two photos: the starting position, then every piece turned over.

From the start photo the reader knows what stands on every square, so it keeps the classifier's feature vectors
of each square's crop as examples ("prototypes") of that label, and of the crop turned by 180° as examples of
the other owner's label. From the flipped photo (same squares, every piece turned over in place) it learns the
promoted faces of rook, bishop, silver, knight, lance and pawn; gold and king have none and are ignored there.
At read time each crop's features are compared with the prototypes (cosine similarity, best match per label),
turned into probabilities and combined with the generic classifier's. The file is JSON, tied to the model it was
made with (its SHA-256), with the prototypes as base64 float16 arrays.
"""

from __future__ import annotations

import base64
import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from vision.board import BoardGeometry, Image, find_board
from vision.classifier import MODEL_PATH, PieceClassifier, Prediction
from vision.errors import CalibrationError
from vision.labels import EMPTY, SQUARE_LABELS, labels_from_board_field
from vision.orientation import turns_for_side
from vision.squares import crops_from_frame, rectified_board, square_crops

START_BOARD = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL"
FORMAT_VERSION = 1
_PROMOTES = {"R", "B", "S", "N", "L", "P"}
_SHIFTS = ((0, 0), (2, 0), (-2, 0), (0, 2), (0, -2))
_MAX_EMPTY = 24  # empty-square examples kept (they are many and alike)


def model_digest(path: Path = MODEL_PATH) -> str:
    """SHA-256 of the classifier model file (calibrations only fit the model they were made with)."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _normalise(features: NDArray[np.float32]) -> NDArray[np.float32]:
    norms = np.linalg.norm(features, axis=1, keepdims=True)
    return np.asarray(features / np.maximum(norms, 1e-6), dtype=np.float32)


def _swap_owner(label: str) -> str:
    return label if label == EMPTY else label.swapcase()


@dataclass(frozen=True)
class Calibration:
    """Per-label prototype features of one piece set, and how sharply to trust them."""

    prototypes: dict[str, NDArray[np.float32]]
    model_sha256: str
    temperature: float = 0.02
    generic_weight: float = 0.1

    def adjust(self, prediction: Prediction) -> NDArray[np.float64]:
        """N×29 probabilities: prototype similarity combined with the generic classifier."""
        feats = _normalise(prediction.features)
        sims = np.full((len(feats), len(SQUARE_LABELS)), -1.0)
        for j, label in enumerate(SQUARE_LABELS):
            protos = self.prototypes.get(label)
            if protos is not None and len(protos):
                sims[:, j] = (feats @ protos.T).max(axis=1)
        logits = sims / self.temperature + self.generic_weight * np.log(np.maximum(prediction.probs, 1e-9))
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        return np.asarray(p / p.sum(axis=1, keepdims=True), dtype=np.float64)

    def to_json(self) -> dict[str, object]:
        """The file's JSON content."""
        protos = {
            label: {"shape": list(arr.shape), "f16": base64.b64encode(arr.astype(np.float16).tobytes()).decode("ascii")}
            for label, arr in self.prototypes.items()
        }
        return {
            "format": "shogi-robot piece calibration",
            "version": FORMAT_VERSION,
            "model_sha256": self.model_sha256,
            "temperature": self.temperature,
            "generic_weight": self.generic_weight,
            "prototypes": protos,
        }

    def save(self, path: Path) -> None:
        """Write the calibration file."""
        path.write_text(json.dumps(self.to_json()) + "\n")

    @classmethod
    def load(cls, path: Path, model_path: Path = MODEL_PATH) -> Calibration:
        """Read a calibration file; CalibrationError when malformed or made for another model."""
        try:
            data = json.loads(path.read_text())
            if data.get("version") != FORMAT_VERSION:
                raise CalibrationError(f"{path}: unsupported calibration version {data.get('version')!r}")
            protos = {}
            for label, entry in data["prototypes"].items():
                if label not in SQUARE_LABELS:
                    raise CalibrationError(f"{path}: unknown label {label!r}")
                raw = np.frombuffer(base64.b64decode(entry["f16"]), dtype=np.float16)
                protos[label] = raw.astype(np.float32).reshape(entry["shape"])
            calibration = cls(
                protos, str(data["model_sha256"]), float(data["temperature"]), float(data["generic_weight"])
            )
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, CalibrationError):
                raise
            raise CalibrationError(f"{path}: malformed calibration file ({exc})") from exc
        if calibration.model_sha256 != model_digest(model_path):
            raise CalibrationError(f"{path}: made for a different classifier model; calibrate again")
        return calibration


def _oriented_start(image: Image, classifier: PieceClassifier, sente_side: str | float | None) -> BoardGeometry:
    """The grid of the start photo turned so that the known start position fits it best."""
    geometry = find_board(image)
    if geometry is None:
        raise CalibrationError("start photo: board not found")
    expected = [SQUARE_LABELS.index(label) for label in labels_from_board_field(START_BOARD)]
    if sente_side is not None:
        return geometry.rotated(turns_for_side(geometry, sente_side))
    scores = []
    for k in range(4):
        probs = classifier.predict(crops_from_frame(image, geometry.rotated(k))).probs
        scores.append(float(np.log(np.maximum(probs[np.arange(81), expected], 1e-9)).sum()))
    return geometry.rotated(int(np.argmax(scores)))


def _matching_turn(geometry: BoardGeometry, reference: BoardGeometry) -> BoardGeometry:
    """The rotation of a grid whose corners lie closest to a reference grid's (same camera, same board)."""
    dists = [float(np.linalg.norm(geometry.rotated(k).corners - reference.corners)) for k in range(4)]
    return geometry.rotated(int(np.argmin(dists)))


def _examples(
    image: Image, geometry: BoardGeometry, labels: list[str | None], classifier: PieceClassifier
) -> dict[str, list[NDArray[np.float32]]]:
    """Features per label for the squares' crops, cut in place and a couple of pixels off (pieces and the found
    grid never sit exactly the same way twice), and for those crops turned by 180° (as the other owner's)."""
    board = rectified_board(image, geometry)
    wanted = [i for i, label in enumerate(labels) if label is not None]
    out: dict[str, list[NDArray[np.float32]]] = {}
    for shift in _SHIFTS:
        crops = square_crops(board, shift)[wanted]
        turned = np.ascontiguousarray(crops[:, ::-1, ::-1])
        feats = _normalise(classifier.predict(np.concatenate([crops, turned])).features)
        for k, i in enumerate(wanted):
            label = labels[i]
            assert label is not None
            out.setdefault(label, []).append(feats[k])
            out.setdefault(_swap_owner(label), []).append(feats[len(wanted) + k])
    return out


def calibrate(
    start: Image,
    flipped: Image | None,
    classifier: PieceClassifier,
    sente_side: str | float | None = None,
    model_path: Path = MODEL_PATH,
) -> Calibration:
    """Build a calibration from the start photo and (optionally) the photo with every piece turned over."""
    geometry = _oriented_start(start, classifier, sente_side)
    start_labels: list[str | None] = list(labels_from_board_field(START_BOARD))
    examples = _examples(start, geometry, start_labels, classifier)
    if flipped is not None:
        found = find_board(flipped)
        if found is None:
            raise CalibrationError("flipped photo: board not found")
        flipped_geometry = _matching_turn(found, geometry)
        promoted: list[str | None] = []
        for label in start_labels:
            if label is None or label == EMPTY or label.upper() not in _PROMOTES:
                promoted.append(None)
            else:
                promoted.append("+" + label)
        for label, feats in _examples(flipped, flipped_geometry, promoted, classifier).items():
            examples.setdefault(label, []).extend(feats)
    protos = {label: np.stack(feats) for label, feats in examples.items()}
    if len(protos.get(EMPTY, ())) > _MAX_EMPTY:
        keep = np.linspace(0, len(protos[EMPTY]) - 1, _MAX_EMPTY).round().astype(int)
        protos[EMPTY] = protos[EMPTY][keep]
    return Calibration(protos, model_digest(model_path))
