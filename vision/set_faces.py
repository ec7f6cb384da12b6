"""The set's own faces as templates: a calibration's opinion that compares an unsure square with the very pieces
the calibration photos showed (`vision.calibration`).

The calibration's other opinions are linear models over features (the generic network's, and a coarse HOG of the
ink); a physical set's pawns all carry the same character, so the plainest test of a face is to lay it over the
faces learnt and see which fits. Each known square's crop of the calibration photos is kept (grey, `CROP` pixels);
a face is its crop high-passed (the piece's and the board's shading taken out), halved, and its centre
(`INNER_PX`) turned by each of `TURNS` degrees, for its label and, turned by 180°, as the other owner's piece; at
most `PER_LABEL` crops per label. An unsure square's crop (top probability under `FACE_BELOW`) is prepared the
same way, every placement of each face inside it (shifts of up to 6 crop pixels) scored by normalised
correlation, and each label gets its best face's score; the square's probability among the labels with faces
(the empty square never has one: whether a square holds a piece is not this opinion's business) is then
multiplied by exp(`FACE_WEIGHT` × score) and shared out again.

Chosen on development styles only (2026-11-27, `vision.train.calib_eval --family plain --n 6`: one-character faces
of five fonts never trained on, 6 frames each of the calibration's rig and of other poses, boards and light;
calibrated squares wrong, rig / other, of 2430 each): without faces 7 / 26; weight 10: 3 / 23; weight 20: 2 / 28;
crops at full size, each face matched on its own: 2 / 22, but about 60 ms a square; five turns (-8 to 8 degrees)
and 12 crops a label: 3 / 23 again; the ink map of `vision.appearance` (black-hat) instead of the high-passed grey:
1 / 27. Checked then, nothing changed after: two-character faces (`--family plain2 --n 6`) 58 / 113 -> 54 / 113
of 2430 / 2349 (boards read wholly right under other poses 4 -> 9 of 29); six training styles (`--style`, n 4)
1 / 16 -> 0 / 17 of 1944 / 1863. The faces help most on the calibration's own rig, where a piece looks most like
its photographed self. Cost: about 0.5 ms per unsure square on one core here (the unsure squares' crops at once
through one matrix product).
Held-out styles, scored once after the choice (`bench vision --n 60 --calibrated-n 40`, without -> with faces):
calibrated under other poses 99.588 -> 99.683 %, on the calibration's rig 99.907 -> 99.938 %, other sets of the same
artwork 99.480 -> 99.480 %; a calibrated read's CPU median 36.7 -> 39.5 ms (the machine shared with a benchmark).
`bench game` (20 games, the set learnt from each start, so faces of the start's unpromoted pieces): 1859/1859 moves
recorded both, 0 false moves both, prompts 11 -> 10.

Owns: `SetFaces`, `set_faces`, `FACE_WEIGHT`, `FACE_BELOW`, and the face matching shared with `vision.lookalikes`
(`unit`, `turned`, `placements`, `best_fits`).
"""

from __future__ import annotations

import base64
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.board import Image
from vision.labels import EMPTY, SQUARE_LABELS
from vision.squares import CROP

FACE_WEIGHT = 10.0
"""How strongly a face's correlation (-1..1) moves a square's probabilities: exp(weight × score)."""
FACE_BELOW = 0.99
"""Top probability under which a square's faces are compared (a square read surely costs nothing)."""
PER_LABEL = 6
"""Crops kept as faces of one label (spread over the photographed ones)."""
TURNS = (-6.0, 0.0, 6.0)
"""Degrees each face is turned by (pieces are never set down square)."""
HALF = CROP // 2
"""Side of a prepared crop (crops are halved: strokes stay, the pixel noise goes)."""
INNER_PX = 18
"""Side of a face's centre that is laid over a prepared crop (HALF - INNER_PX + 1 placements each way)."""
_BLUR = 5.0
"""Sigma (crop pixels) of the shading taken out of a crop."""


def _prepared(crops: Image) -> NDArray[np.float32]:
    """N × HALF × HALF: grey crops, high-passed, halved."""
    out = np.empty((len(crops), HALF, HALF), dtype=np.float32)
    for n, crop in enumerate(crops):
        grey = (cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY) if crop.ndim == 3 else crop).astype(np.float32)
        grey -= cv2.GaussianBlur(grey, (0, 0), _BLUR)
        out[n] = cv2.resize(grey, (HALF, HALF), interpolation=cv2.INTER_AREA)
    return out


def unit(rows: NDArray[np.float32]) -> NDArray[np.float32]:
    """Rows centred and scaled to unit length (so that their dot products are correlations)."""
    centred = rows - rows.mean(axis=-1, keepdims=True)
    return np.asarray(centred / np.maximum(np.linalg.norm(centred, axis=-1, keepdims=True), 1e-6), dtype=np.float32)


def turned(crop: Image, degrees: float) -> Image:
    """The crop (or prepared picture) turned about its centre by `degrees` (its edge pixels repeated into the
    corners), in its own number type."""
    centre = (crop.shape[1] / 2 - 0.5, crop.shape[0] / 2 - 0.5)
    matrix = cv2.getRotationMatrix2D(centre, degrees, 1.0)
    warped = cv2.warpAffine(crop, matrix, crop.shape[1::-1], borderMode=cv2.BORDER_REPLICATE)
    return np.asarray(warped, crop.dtype)


def placements(pictures: NDArray[np.float32], side: int) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
    """Every `side` × `side` window of each picture: N × P × side² pixel rows, and N × P the length of each row
    once centred (a unit face's dot product with a row, over that length, is their correlation)."""
    windows = np.lib.stride_tricks.sliding_window_view(pictures, (side, side), axis=(1, 2))
    rows = np.ascontiguousarray(windows.reshape(len(pictures), -1, side * side))
    sums, squares = rows.sum(axis=2), np.einsum("npd,npd->np", rows, rows)
    return rows, np.sqrt(np.maximum(squares - sums * sums / (side * side), 1e-12))


def best_fits(
    placed: tuple[NDArray[np.float32], NDArray[np.float32]], faces: NDArray[np.float32]
) -> NDArray[np.float32]:
    """N × F: each face's (`unit` rows) best correlation over each picture's `placements`."""
    rows, lengths = placed
    n, p, d = rows.shape
    return np.asarray(((rows.reshape(n * p, d) @ faces.T).reshape(n, p, -1) / lengths[:, :, None]).max(axis=1))


@dataclass(frozen=True)
class SetFaces:
    """The photographed crops of a set's known squares (grey) and their labels; the faces made from them."""

    crops: NDArray[np.uint8]
    """N × CROP × CROP grey crops as photographed."""
    labels: tuple[str, ...]
    faces: NDArray[np.float32]
    """F × INNER_PX² unit rows (`_faces`)."""
    face_labels: NDArray[np.int64]
    """SQUARE_LABELS index of each face."""

    def scores(self, crops: Image) -> NDArray[np.float64]:
        """N × 29: each label's best face correlation with each crop (NaN for labels without faces)."""
        best = best_fits(placements(_prepared(crops), INNER_PX), self.faces)
        out = np.full((len(crops), len(SQUARE_LABELS)), np.nan)
        for label in np.unique(self.face_labels):
            out[:, label] = best[:, self.face_labels == label].max(axis=1)
        return out

    def reweigh(self, probs: NDArray[np.float64], crops: Image, weight: float = FACE_WEIGHT) -> NDArray[np.float64]:
        """`probs` (N × 29) with each unsure square's share of the labels that have faces redistributed by how
        well their faces fit its crop."""
        unsure = np.flatnonzero(probs.max(axis=1) < FACE_BELOW)
        if not len(unsure) or weight <= 0 or not len(self.faces):
            return probs
        scores = self.scores(crops[unsure])
        known = ~np.isnan(scores[0])
        out = probs.copy()
        part = probs[np.ix_(unsure, known)]
        logits = np.log(np.maximum(part, 1e-12)) + weight * scores[:, known]
        shared = np.exp(logits - logits.max(axis=1, keepdims=True))
        shared *= part.sum(axis=1, keepdims=True) / shared.sum(axis=1, keepdims=True)
        out[np.ix_(unsure, known)] = shared
        return out

    def to_json(self) -> dict[str, object]:
        """The JSON entry: the grey crops (uint8, base64) and their labels."""
        raw = base64.b64encode(np.ascontiguousarray(self.crops, dtype=np.uint8).tobytes()).decode("ascii")
        return {"shape": list(self.crops.shape), "u8": raw, "labels": list(self.labels)}

    @classmethod
    def from_json(cls, entry: dict[str, object]) -> SetFaces:
        """From the JSON entry (KeyError/TypeError/ValueError when malformed)."""
        shape = entry["shape"]
        labels = entry["labels"]
        if not isinstance(shape, list) or not isinstance(labels, list):
            raise TypeError("faces: shape and labels must be lists")
        crops = np.frombuffer(base64.b64decode(str(entry["u8"])), dtype=np.uint8).reshape([int(v) for v in shape])
        if crops.shape[1:] != (CROP, CROP) or len(labels) != len(crops):
            raise ValueError(f"faces: {crops.shape} crops for {len(labels)} labels")
        return set_faces(crops, [str(label) for label in labels])


def set_faces(crops: Image, labels: Sequence[str]) -> SetFaces:
    """The faces of photographed crops (N × CROP × CROP, BGR or grey) of known pieces (`labels`, SQUARE_LABELS
    names other than empty, as photographed: gote's pieces point down)."""
    unknown = [label for label in labels if label not in SQUARE_LABELS or label == EMPTY]
    if unknown:
        raise ValueError(f"faces: not piece labels: {unknown}")
    grey = np.array([cv2.cvtColor(c, cv2.COLOR_BGR2GRAY) if c.ndim == 3 else c for c in crops], dtype=np.uint8)
    grey = grey.reshape(len(labels), CROP, CROP)
    by_label: dict[str, list[Image]] = {}
    for crop, label in zip(grey, labels, strict=True):
        by_label.setdefault(label, []).append(crop)
        by_label.setdefault(label.swapcase(), []).append(np.ascontiguousarray(crop[::-1, ::-1]))
    rows: list[NDArray[np.float32]] = []
    face_labels: list[int] = []
    offset = (HALF - INNER_PX) // 2
    for label, found in sorted(by_label.items()):
        picked = found[:: max(1, len(found) // PER_LABEL)][:PER_LABEL]
        tilted = np.stack([turned(crop, degrees) for crop in picked for degrees in TURNS])
        centres = _prepared(tilted)[:, offset : offset + INNER_PX, offset : offset + INNER_PX]
        rows.append(centres.reshape(len(tilted), -1))
        face_labels += [SQUARE_LABELS.index(label)] * len(tilted)
    faces = unit(np.concatenate(rows)) if rows else np.zeros((0, INNER_PX * INNER_PX), np.float32)
    return SetFaces(grey, tuple(labels), faces, np.array(face_labels, dtype=np.int64))
