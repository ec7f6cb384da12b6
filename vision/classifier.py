"""The generic piece classifier at run time: small CNNs in ONNX, run with OpenCV's DNN module (no PyTorch).

The shipped model is two networks joined in one graph (`vision.train.ensemble`; since session 51 a separable
network first and the wide stride-2 network second: `docs/classifier-training.md`): both read each crop, their logits
are averaged and their features set side by side. This module runs the two networks apart (`vision.model_file` takes
the graph to pieces) and joins their outputs as the graph would (the same but for float32 rounding). Asked to skip
(`skip_sure_empty`: the reader's reads), it runs the second network only on the crops the first one does not read as
empty at `SURE_EMPTY` or more (about half a board's crops): those keep the first network's reading, and a piece-set
calibration leaves them as they are (`Prediction.first_only`). A calibration's own learning reads every crop with
both networks. A model file of one network runs as it is.

Input: square crops (`vision.squares.CROP` pixels, BGR uint8), normalised by `preprocess` (shared with training).
Output per crop: probabilities over the 29 square labels (`vision.labels.SQUARE_LABELS` order), the probability
that the crop shows a piece turned sideways (the grid's axes are swapped: used to decide the board's rotation),
the probability that it cannot be read (a hand over it, motion blur, black), and a feature vector (the
penultimate layer) that calibration compares with a user's own set.
Owner symmetry: a piece turned by 180 degrees is the same kind of the other owner (`OWNER_SWAP`). Crops whose
reading is in doubt (owner split, or no clear top label) are read a second time turned by 180 degrees, and the
two readings are combined (normalised geometric mean); at most `MAX_SECOND_LOOKS` crops per batch, the most
doubtful first, so a clear board costs one forward pass and a bad one at most about 1.2. Batches run in chunks
of fixed sizes, each on a network of its own (`CHUNKS`), so that no network is re-planned for a new batch size
and a large batch (a calibration's) needs no large buffers; a crop's output does not depend on its batch.
The network is trained by `vision/train/train_classifier.py` on synthetic crops (`vision/train/synth.py`).
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.board import Image
from vision.errors import ModelError
from vision.labels import EMPTY, SQUARE_LABELS
from vision.model_file import ModelNetworks, read_model
from vision.squares import CROP

MODEL_PATH = Path(__file__).resolve().parent / "models" / "pieces.onnx"
N_LABELS = len(SQUARE_LABELS)
OWNER_SWAP = np.array([*range(14, 28), *range(14), 28, 29, 30])
"""Class index of each of the 31 network classes turned by 180 degrees (sente <-> gote; empty, sideways and
unreadable stay)."""
MAX_SECOND_LOOKS = 14
"""Chosen on rendered frames of training styles: more second looks gained nothing there."""
CHUNKS = (16, 8, 4, 2, 1)
"""Batch sizes the network runs at (powers of two, largest first: `chunk_sizes`). Chunks of at most 16 crops
(2026-11-28, with the joined model): the same outputs as chunks of up to 64, a forward pass of 81 crops about 1 ms
faster (24.4 -> 23.5 ms: here a crop costs less in a small batch than in a large one), and in `shogi-robot bench
vision` on the same frames, full read CPU median 43.5 -> 42.2 ms, read after a move 59.2 -> 55.2 ms, peak memory
271 -> 255 MB (two networks fewer to hold, and smaller buffers)."""
DOUBT = 0.97
"""A crop is in doubt when its top label or its owner (summed over kinds) is below this probability."""
SURE_EMPTY = 0.97
"""A crop the first network alone reads as empty at least this surely is not run through the second, when the
caller lets it skip (`PieceClassifier.predict`). Chosen on development frames (`vision.train.dev_eval`, 40 frames
each of plain2, plain, one and artwork, 2026-11-29, with the joined model of 2026-11-28): at 0.97 and at 0.95
alike, the same squares right in each family as with both networks on every crop (3071, 3115, 3059, 3239 of 3240)
and the same wrong squares vouched for (1, 0, 0, 0); 0.97, at `DOUBT`, so that no crop whose second network was
skipped is in doubt for that alone. Then `shogi-robot bench vision --n 60 --calibrated-n 0` (held-out styles,
scored once after the choice; before -> after, on a 2-core Xeon, the same model): every accuracy figure the same;
full read CPU median 77.3 -> 62.7 ms, first read 304 -> 257 ms, read after a move 96.8 -> 87.0 ms; peak memory
157 -> 164 MB. Calibrated reads skip so too (their calibration leaves the skipped crops as they are), by a rule
fixed beforehand: `vision.train.calib_eval --family plain|plain2 --n 6` gave the same figures, line for line, and on
the held-out styles (`bench vision --n 60 --calibrated-n 40`, the model of 2026-11-29) the calibrated figures were
the same (99.691 / 100 / 99.506 %) and the calibrated read's CPU median fell 58.6 -> 40.7 ms. Before that, on 60
calibrated development frames, 2275 of 4860 crops were surely empty by the first network, none of them a piece,
and no calibration read one of them as anything but empty.
Checked again when the first network changed (session 51's separable one, ES7): on 40 frames of five training
styles (development seeds 5200-5239), 1779 of 3240 crops were skipped, none of them a piece, and no crop's likeliest
label differed from reading every crop with both networks.
Tried on 2026-11-29 (session 36) and not kept, under a rule fixed before any figure (`dev_eval` as above, EG5 3098 /
3138 / 3070 / 3239; stand counts of `hands_eval --frames wide`, artwork and plain, seed 5: 1044; at most 4 squares
and 3 counts fewer, and a full read 3 ms cheaper): in reads without a calibration, the wide network also skipping
the crops the narrow one reads surely as a piece (top label and owner at 0.97 or more: 3097 / 3138 / 3070 / 3239,
stands 1040, 4.1 ms cheaper; at 0.99: the same squares, stands 1042, 1.6 ms cheaper). Neither met the rule."""
EMPTY_CLASS = SQUARE_LABELS.index(EMPTY)


def preprocess(crops: Image) -> NDArray[np.float32]:
    """N×H×W×3 BGR crops -> N×3×H×W float32, each crop centred and scaled by its own brightness statistics."""
    n = len(crops)
    x = np.empty((n, 3, *crops.shape[1:3]), np.float32)
    x[...] = crops.transpose(0, 3, 1, 2)
    flat = x.reshape(n, -1)
    luma = flat.reshape(n, 3, -1).sum(axis=1) * np.float32(1 / 3)
    mean = luma.mean(axis=1)
    var = np.einsum("ij,ij->i", luma, luma) / luma.shape[1] - mean * mean
    flat -= mean[:, None]
    flat *= (1.0 / (np.sqrt(np.maximum(var, 0)) + 12.0))[:, None]
    return x


def softmax(logits: NDArray[np.floating[Any]]) -> NDArray[np.float64]:
    """Row-wise softmax."""
    z = logits.astype(np.float64) - logits.max(axis=1, keepdims=True)
    e = np.exp(z)
    return np.asarray(e / e.sum(axis=1, keepdims=True), dtype=np.float64)


@dataclass(frozen=True)
class Prediction:
    """Classifier output for N crops."""

    probs: NDArray[np.float64]
    """N×29 probabilities over SQUARE_LABELS (renormalised without the sideways class)."""
    sideways: NDArray[np.float64]
    """N probabilities that the crop shows a piece turned by 90°."""
    unreadable: NDArray[np.float64]
    """N probabilities that the square cannot be read (hand over it, motion blur, black or blown out)."""
    features: NDArray[np.float32]
    """N×D penultimate-layer features (for calibration); N×0 when the prediction was made without them."""
    first_only: NDArray[np.bool_] | None = None
    """The crops read by the first network alone (`PieceClassifier.predict` with `skip_sure_empty`: surely
    empty), whose features lack the second network's part (zeros); None: every crop read by every network."""

    def rows(self, index: NDArray[np.intp]) -> Prediction:
        """The prediction of the crops at `index` only."""
        first_only = None if self.first_only is None else self.first_only[index]
        return Prediction(
            self.probs[index], self.sideways[index], self.unreadable[index], self.features[index], first_only
        )


class PieceClassifier:
    """The ONNX piece classifier loaded into OpenCV's DNN module."""

    def __init__(self, model_path: Path = MODEL_PATH, second_look: bool = True, sure_empty: float = SURE_EMPTY) -> None:
        self._model: ModelNetworks = read_model(model_path)
        self._second_look = second_look
        self._sure_empty = sure_empty
        try:
            self._nets = _load_networks(self._model)
            one = np.zeros((1, 3, CROP, CROP), np.float32)
            self._widths = [self._run(k, one)[1].shape[1] for k in range(len(self._nets))]
            """Each network's feature width (for a batch whose second network is skipped whole)."""
        except cv2.error as exc:
            raise ModelError(f"cannot load classifier model {model_path}: {exc}") from exc
        except OSError as exc:  # the networks are loaded from files in a temporary folder (`_load_networks`)
            raise ModelError(f"cannot load classifier model {model_path}: temporary folder: {exc}") from exc

    def predict(self, crops: Image, *, features: bool = True, skip_sure_empty: bool = False) -> Prediction:
        """Probabilities, sideways probability and features for a batch of crops (features N×0 unless
        `features`). With `skip_sure_empty`, a joined model runs its second network only on the crops its first
        does not read as empty at `SURE_EMPTY` or more; the others keep the first network's reading
        (`Prediction.first_only`)."""
        if len(crops) == 0:
            return Prediction(np.zeros((0, N_LABELS)), np.zeros(0), np.zeros(0), np.zeros((0, 0), np.float32))
        full, feats, first_only = self._forward(crops, features, skip_sure_empty)
        if self._second_look:
            doubtful = doubtful_crops(full)
            if len(doubtful):
                again, _, _ = self._forward(np.ascontiguousarray(crops[doubtful, ::-1, ::-1]), False, skip_sure_empty)
                full[doubtful] = combine(full[doubtful], again[:, OWNER_SWAP])
        sideways, unreadable = full[:, N_LABELS], full[:, N_LABELS + 1]
        probs = full[:, :N_LABELS] / np.maximum(full[:, :N_LABELS].sum(axis=1, keepdims=True), 1e-12)
        return Prediction(probs, sideways, unreadable, feats, first_only if first_only.any() else None)

    def _forward(
        self, crops: Image, features: bool, skip_sure_empty: bool
    ) -> tuple[NDArray[np.float64], NDArray[np.float32], NDArray[np.bool_]]:
        """Softmax over the 31 network classes, the features (N×0 unless `features`) of a batch, and which crops
        the first network alone read (`predict`)."""
        x = preprocess(crops)
        logits, feats = self._run(0, x)
        first_only = np.zeros(len(x), dtype=bool)
        join = self._model.join
        if join is None:
            return softmax(logits), feats if features else feats[:, :0], first_only
        if skip_sure_empty:
            first_only = softmax(logits)[:, EMPTY_CLASS] >= self._sure_empty
        rest = np.flatnonzero(~first_only)
        second_logits, second_feats = self._run(1, np.ascontiguousarray(x[rest]))
        joined = logits.copy()
        joined[rest] = join.logits(logits[rest], second_logits)
        if not features:
            return softmax(joined), np.zeros((len(x), 0), np.float32), first_only
        second = np.zeros((len(x), self._widths[1]), np.float32)  # zeros where the second network was skipped
        second[rest] = second_feats
        return softmax(joined), np.concatenate([feats, second], axis=1), first_only

    def _run(self, network: int, x: NDArray[np.float32]) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
        """Logits and features of one network (`network`: its index in the model) for a preprocessed batch, run in
        chunks (`chunk_sizes`)."""
        nets, names = self._nets[network], list(self._model.outputs[network])
        logits, feats, start = [], [], 0
        for size in chunk_sizes(len(x)):
            net = nets[size]
            net.setInput(x[start : start + size])
            chunk_logits, chunk_features = net.forward(names)
            logits.append(np.asarray(chunk_logits, dtype=np.float32).reshape(size, -1))
            feats.append(np.asarray(chunk_features, dtype=np.float32).reshape(size, -1))
            start += size
        if not logits:
            return np.zeros((0, N_LABELS + 2), np.float32), np.zeros((0, self._widths[network]), np.float32)
        return np.concatenate(logits), np.concatenate(feats)


def _load_networks(model: ModelNetworks) -> list[dict[int, cv2.dnn.Net]]:
    """Each of the model's networks loaded into OpenCV's DNN module (`read_network`), once per batch size of
    `CHUNKS` (OpenCV re-plans a network whenever its batch size changes: the board's 81 crops, a stand's few, the
    second looks; and sizes its buffers to the batch). Loaded from files, in a temporary folder: OpenCV 5.0 loads
    a graph from memory in its new engine whatever engine it is asked for (the narrow network, 16 crops, in one
    measurement: 3.0 ms loaded from a file, 4.8 ms from memory)."""
    with tempfile.TemporaryDirectory(prefix="shogi-robot-classifier-") as folder:
        nets = []
        for k, graph in enumerate(model.networks):
            path = Path(folder) / f"network-{k}.onnx"
            path.write_bytes(graph)
            nets.append({size: read_network(path) for size in CHUNKS})
        return nets


def read_network(path: Path) -> cv2.dnn.Net:
    """An ONNX file loaded into OpenCV's DNN module, in the classic engine where this OpenCV has one (5.0: its
    new engine ran these networks at half the speed) and in the only engine otherwise (4.x has no choice; 5.1
    dropped the classic engine, and its new one runs them about as fast as 5.0's classic one: narrow 0.124 against
    0.103, wide 0.107 against 0.123 ms a crop, batches of 16, one thread, session 40)."""
    classic = getattr(cv2.dnn, "ENGINE_CLASSIC", None)
    if classic is None:
        return cv2.dnn.readNetFromONNX(os.fspath(path))
    return cv2.dnn.readNetFromONNX(os.fspath(path), classic)


def chunk_sizes(n: int) -> list[int]:
    """Sizes from `CHUNKS` that add up to `n`, largest first (as many of the largest as fit, then n's binary
    digits): 81 -> 16, 16, 16, 16, 16, 1."""
    largest = CHUNKS[0]
    return [largest] * (n // largest) + [size for size in CHUNKS[1:] if (n % largest) & size]


def doubtful_crops(full: NDArray[np.float64]) -> NDArray[np.intp]:
    """Indices of the crops worth a second look (most doubtful first, at most MAX_SECOND_LOOKS)."""
    sente, gote = full[:, :14].sum(axis=1), full[:, 14:28].sum(axis=1)
    owner = np.maximum(sente, gote) / np.maximum(sente + gote, 1e-12)
    certainty = np.minimum(full.max(axis=1), np.where(sente + gote > 0.5, owner, 1.0))
    order = np.argsort(certainty, kind="stable")[:MAX_SECOND_LOOKS]
    return np.asarray(order[certainty[order] < DOUBT], dtype=np.intp)


def combine(a: NDArray[np.float64], b: NDArray[np.float64]) -> NDArray[np.float64]:
    """Normalised geometric mean of two readings of the same crops."""
    g = np.sqrt(np.maximum(a, 1e-12) * np.maximum(b, 1e-12))
    return np.asarray(g / g.sum(axis=1, keepdims=True), dtype=np.float64)
