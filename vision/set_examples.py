"""The examples a piece-set calibration learns from (`vision.calibration`): crops of squares whose labels are
known, cut many times with small random shifts, turns, scale, colour, blur and noise (pieces never sit, nor the
light fall, the same way twice), also turned by 180° as the other owner's pieces, and the start's pieces moved
onto empty squares of the same photo (`vision.relocate`); run through the generic classifier (its features and
probabilities) and the appearance features.

Also what a calibration keeps of them to learn again later (`vision.set_relearn`): `SetExamples`, and `HeldOut`, a
later position as the calibration of the time read it.

Owns: `Examples`, `examples`, `jittered_crops`, `swap_owner`, `MOVED_VARIANTS`, `PIECE_VARIANTS`, `SetExamples`,
`HeldOut`, `label_indices`, `label_counts`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.appearance import appearance_features
from vision.board import BoardGeometry, Image
from vision.classifier import PieceClassifier, Prediction
from vision.labels import EMPTY, SQUARE_LABELS
from vision.relocate import move_pieces
from vision.squares import CELL, CROP, MARGIN, rectified_board, square_crops

if TYPE_CHECKING:
    from vision.calibration import Calibration

PIECE_VARIANTS = 24  # jittered copies of each known piece square (12 -> 24: +0.04 points on training styles)
_EMPTY_VARIANTS = 3  # ... of each empty square (they are many and alike)
_SHIFT, _TURN, _SCALE = 7.0, 10.0, 0.15  # jitter: pixels (of a CROP-pixel crop), degrees, fraction per axis
"""Jitter of the calibration's crops: pixels (of a CROP-pixel crop), degrees, fraction per axis. Tried on 2026-11-29
and not kept: a larger shift (every calibrated error under other poses of `calib_eval --family plain --n 6` fell at
cameras 30-45 degrees from vertical, where faces sit off centre by parallax). Calibrated squares wrong, rig + other
poses (`calib_eval --n 12 --seed 91`), shift 7 / 10 / 13 pixels: one-character faces (plain) 3 + 25 / 2 + 30 / 7 +
26 of 4860 + 4860; two-character faces (plain2) 79 + 121 / 81 + 114 / 83 + 116 of 4860 + 4779; in all 228 / 227 /
232 (the rule, fixed before: at least 5 fewer). Most of plain2's rig errors are one style (klee), whose rig frames
(the calibration photos' pose and light) show faces too blurred to read."""
MOVED_VARIANTS = 6
"""Jittered crops of each start piece moved onto an empty square of the same photo, per move (two moves each;
`vision.relocate`): a set learnt from the start sees each kind only on its start squares, and read other pieces on
those places as that kind (other pieces on the corners as lances). Development frames (one-character faces of 14
font styles never trained on, 101 frames, the set learnt from each frame's own start, pieces of random kinds placed
on corners, other edge squares and inside; 2222 placed pieces), wrong reads without / with 6 / with 12: corners
117 / 109 / -, other edge squares 286 / 261 / -, inside 124 / 116 / -, in all 23.7 / 21.9 % (the generic
classifier alone 29.9 %); read wrong with p > 0.9: 73 / 60; 12 was no better than 6 on the first half of the
frames (238 against 225 wrong) and was not run further. It costs the calibration about half again of its
time (960 -> 1440 piece crops)."""
_BATCH = 128  # crops per classifier call (a large batch costs memory, not time)


def swap_owner(label: str) -> str:
    """The same label as the other owner's piece (empty stays empty)."""
    return label if label == EMPTY else label.swapcase()


def jittered_crops(board: Image, squares: list[int], variants: int, rng: np.random.Generator) -> Image:
    """`variants` crops per square of a rectified board (len(squares) × variants, square-major): the square's own
    crop, then copies shifted, turned and stretched a little (`_SHIFT`, `_TURN`, `_SCALE`) and relit."""
    out = np.empty((len(squares) * variants, CROP, CROP, 3), dtype=np.uint8)
    plain = square_crops(board)
    for n, index in enumerate(squares):
        row, col = divmod(index, 9)
        cx, cy = (col + 0.5 + MARGIN) * CELL - 0.5, (row + 0.5 + MARGIN) * CELL - 0.5
        out[n * variants] = plain[index]
        for v in range(1, variants):
            turn = np.asarray(cv2.getRotationMatrix2D((0.0, 0.0), rng.uniform(-_TURN, _TURN), 1.0))[:, :2]
            linear = turn @ np.diag(rng.uniform(1 - _SCALE, 1 + _SCALE, 2))
            offset = np.array([CROP / 2 - 0.5, CROP / 2 - 0.5]) + rng.uniform(-_SHIFT, _SHIFT, 2)
            matrix = np.column_stack([linear, offset - linear @ np.array([cx, cy])])
            crop = cv2.warpAffine(board, matrix, (CROP, CROP), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
            out[n * variants + v] = _relit(np.asarray(crop, dtype=np.float32), rng)
    return out


def _relit(crop: NDArray[np.float32], rng: np.random.Generator) -> NDArray[np.uint8]:
    """A crop under other light: colour cast, less colour, brightness, contrast, a shading ramp, blur, noise.
    Tried on 2026-11-27 and left out: a resolution loss (half the crops shrunk to 0.55-0.9 and enlarged again), for
    frames whose squares are smaller than the calibration photo's. After calibration (5 development styles, 6 frames
    each), squares 30-40 pixels wide under other poses were read wrong 20 times in 1065, 40-50 pixels 4 in 910, on
    the rig 0 in 462 (the sheen-trained model shipped later that day: 21, 7 and 0; the generic reading's errors do
    not grow as squares shrink). With the resolution loss, errors on the rig 8 -> 11, under other poses 24 -> 33 of
    2430 squares."""
    pixels = crop.astype(np.float64)
    gray = pixels.mean(axis=2, keepdims=True)
    pixels = gray + (pixels - gray) * rng.uniform(0.2, 1.3)
    mean = float(pixels.mean())
    pixels = mean + (pixels - mean) * rng.uniform(0.6, 1.25)
    ramp = np.linspace(-1.0, 1.0, CROP, dtype=np.float32)
    direction = rng.normal(size=2) * rng.uniform(0.0, 0.25)
    shade = 1.0 + direction[0] * ramp[None, :, None] + direction[1] * ramp[:, None, None]
    pixels = pixels * rng.uniform(0.65, 1.35, 3) * rng.uniform(0.5, 1.3) * shade
    sigma = rng.uniform(0.0, 1.5)
    if sigma > 0.3:
        pixels = np.asarray(cv2.GaussianBlur(pixels, (0, 0), sigma), dtype=np.float64)
    pixels = pixels + rng.normal(0.0, rng.uniform(0.0, 6.0), pixels.shape)
    return np.clip(pixels, 0, 255).astype(np.uint8)


@dataclass(frozen=True)
class Examples:
    """Classifier outputs on one photo's labelled squares: features of the jittered crops (and their labels),
    and the generic probabilities of the squares' own crops as photographed (and their labels)."""

    features: NDArray[np.float32]
    appearance: NDArray[np.float32]
    names: list[str]
    plain_probs: NDArray[np.float64]
    plain_names: list[str]


def examples(
    image: Image,
    geometry: BoardGeometry,
    labels: list[str | None],
    classifier: PieceClassifier,
    seed: int,
    *,
    piece_variants: int = PIECE_VARIANTS,
    moved_variants: int = 0,
    empties: Sequence[int] | None = None,
) -> Examples:
    """Jittered crops of the labelled squares, and those crops turned by 180° (as the other owner's pieces),
    through the classifier; with `moved_variants`, also of each labelled piece moved onto `empties` (default: the
    squares labelled empty) twice (`vision.relocate.move_pieces`), `moved_variants` crops each time."""
    board = rectified_board(image, geometry)
    rng = np.random.default_rng(seed)
    parts: list[Examples] = []
    for empty in (False, True):
        wanted = [i for i, label in enumerate(labels) if label is not None and (label == EMPTY) == empty]
        if not wanted:
            continue
        variants = _EMPTY_VARIANTS if empty else piece_variants
        names = [str(labels[i]) for i in wanted for _ in range(variants)]
        parts.append(_through(classifier, jittered_crops(board, wanted, variants, rng), names, variants))
    if moved_variants:
        pieces = [i for i, label in enumerate(labels) if label is not None and label != EMPTY]
        free = [i for i, label in enumerate(labels) if label == EMPTY] if empties is None else list(empties)
        for copy, targets, sources in move_pieces(board, pieces, free, rng):
            names = [str(labels[i]) for i in sources for _ in range(moved_variants)]
            parts.append(_through(classifier, jittered_crops(copy, targets, moved_variants, rng), names, 0))
    return Examples(
        np.concatenate([part.features for part in parts]),
        np.concatenate([part.appearance for part in parts]),
        [name for part in parts for name in part.names],
        np.concatenate([part.plain_probs for part in parts]),
        [name for part in parts for name in part.plain_names],
    )


def _through(classifier: PieceClassifier, crops: Image, upright: list[str], plain_every: int) -> Examples:
    """Crops and the same crops turned by 180° (the other owner's) through the classifier and the appearance
    features; `plain_every`: every that many crops is a square's own crop as photographed (0: none is)."""
    turned = np.ascontiguousarray(crops[:, ::-1, ::-1])
    both = np.concatenate([crops, turned])
    predictions = [classifier.predict(both[k : k + _BATCH]) for k in range(0, len(both), _BATCH)]
    names = upright + [swap_owner(label) for label in upright]
    probs = np.concatenate([prediction.probs for prediction in predictions])
    plain = np.arange(0, len(both), plain_every) if plain_every else np.zeros(0, np.intp)
    return Examples(
        np.concatenate([prediction.features for prediction in predictions]),
        appearance_features(both),
        names,
        probs[plain],
        [names[k] for k in plain],
    )


@dataclass(frozen=True)
class SetExamples:
    """What a calibration learns from: the classifier's features and the appearance features of jittered crops of
    known squares (and of the same crops turned by 180°, as the other owner's pieces), and their labels."""

    features: NDArray[np.float32]
    appearance: NDArray[np.float32]
    targets: NDArray[np.int64]
    plain_probs: NDArray[np.float32]
    """The generic classifier's probabilities of the photographed squares' own crops (for `fit_generic_power`)."""
    plain_targets: NDArray[np.int64]
    held: tuple[HeldOut, ...] = ()
    """Each later position's squares as the calibration of the time read them, before learning from them."""

    def __len__(self) -> int:
        return len(self.targets)

    @property
    def nbytes(self) -> int:
        """Memory the examples hold."""
        arrays = (self.features, self.appearance, self.targets, self.plain_probs, self.plain_targets)
        return int(sum(a.nbytes for a in arrays)) + sum(record.nbytes for record in self.held)

    @classmethod
    def of(cls, part: Examples) -> SetExamples:
        """The examples of one photo's labelled squares."""
        plain = part.plain_probs.astype(np.float32)
        return cls(part.features, part.appearance, label_indices(part.names), plain, label_indices(part.plain_names))

    @classmethod
    def join(cls, parts: Sequence[SetExamples]) -> SetExamples:
        """All the examples of several parts."""
        return cls(
            np.concatenate([p.features for p in parts]),
            np.concatenate([p.appearance for p in parts]),
            np.concatenate([p.targets for p in parts]),
            np.concatenate([p.plain_probs for p in parts]),
            np.concatenate([p.plain_targets for p in parts]),
            tuple(record for p in parts for record in p.held),
        )


@dataclass(frozen=True)
class HeldOut:
    """A confirmed position's squares (their own crops) as a calibration read them before it learnt from that
    position: the generic classifier's, the set model's and the appearance model's probabilities (N×29 each; the
    last all ones without an appearance model) and the squares' labels. Examples no model was fitted on, so the
    weights of the three opinions can be fitted on them (`fit_weights`)."""

    generic: NDArray[np.float32]
    own: NDArray[np.float32]
    seen: NDArray[np.float32]
    targets: NDArray[np.int64]

    @property
    def nbytes(self) -> int:
        """Memory the record holds."""
        return int(self.generic.nbytes + self.own.nbytes + self.seen.nbytes + self.targets.nbytes)

    @classmethod
    def read(
        cls, calibration: Calibration, prediction: Prediction, crops: Image, targets: NDArray[np.int64]
    ) -> HeldOut:
        """The record of `crops` (with their `prediction`) under `calibration`."""
        generic = np.maximum(prediction.probs, 1e-9)
        own = calibration.model.probs(prediction.features, generic)
        seen = np.ones_like(generic)
        if calibration.appearance is not None:
            seen = calibration.appearance.probs(appearance_features(crops), generic)
        f32 = np.float32
        return cls(generic.astype(f32), own.astype(f32), seen.astype(f32), targets)


def label_counts(targets: NDArray[np.int64]) -> dict[str, int]:
    """Examples per label (the labels with any)."""
    tally = np.bincount(targets, minlength=len(SQUARE_LABELS))
    return {label: int(n) for label, n in zip(SQUARE_LABELS, tally, strict=True) if n}


def label_indices(names: list[str]) -> NDArray[np.int64]:
    """`SQUARE_LABELS` indices of label names."""
    return np.array([SQUARE_LABELS.index(name) for name in names], dtype=np.int64)
