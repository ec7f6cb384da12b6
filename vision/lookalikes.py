"""Pieces of one set that look alike are read alike: an unsure square borrows the readings of the squares whose
faces match its own in the same frame.

A physical set's pieces of one kind carry the same character, written by the same hand; the generic classifier
reads each square on its own, so a silver read as a knight is not told by the other silvers on the board that it
looks just like them. Here every occupied square's crop is turned to point up (gote's by 180 degrees, the owner as
read: owners are read almost without fault), halved and high-passed, and the centre of each (`INNER` of `SIDE`
pixels: the character more than the piece's outline; turned by each of `TURNS`) laid over every other occupied
square's picture at every placement (a face is seen up to a third of a square off its square's centre at a steep
camera, by parallax); the best normalised correlation, the larger of the two ways round, is the pair's likeness.
An unsure square (top probability under `POOL_BELOW`) borrows from the squares whose likeness reaches both
`LIKENESS_FROM` and its own median likeness to the others plus `STAND_OUT` (under a lamp's sheen every washed-out
face is like every other; no lender stands out there): its kinds' probabilities, within its owner's labels, are
multiplied by the lenders' mean kind probabilities (each weighted by how far it clears the bar) plus `POOL_FLOOR`
(one false lender decides nothing), and shared out again. The empty label keeps its mass, the owner is not touched,
squares read surely are never changed. The reader applies it to every frame's readings (`ReaderSettings.lookalikes`).

Chosen on development styles only (2026-11-27, `vision.train.dev_eval`, the full reader, fonts never trained on;
squares right without -> with; first the choice, then checks made after it with nothing changed):
- chosen on: two-character faces (`--family plain2 --n 40 --seed 77`) 91.389 -> 92.099 %; one-character faces
  (`plain --n 60 --seed 77`) 96.049 -> 96.111 %; the varied looks (`one --n 40 --seed 77`) 92.809 -> 93.025 %; the
  training artwork under the lamp's sheen (`artwork --n 40 --seed 313 --ink-sheen 1`) 98.488 -> 98.519 %;
- without `STAND_OUT` the sheen frames lost 0.31 points (98.179 %: a silver, a rook, a lance read as a pawn, each
  "like" every face of its frame); leaving out faces with little detail instead did not mend it (98.333 %); a
  product of the lenders' probabilities instead of their mean lost on every family (plain2 89.0-91.5 %); weighting
  each lender by its own top probability squared moved nothing (plain2 92.006, plain 96.132, one 93.056, sheen
  98.457 %); borrowing up to a top probability of 0.97 instead of 0.9 gave the same figures;
- checked after: `plain2 --seed 91` 92.623 -> 93.272 %; `artwork --seed 313` 99.877 -> 99.877 %; the sheen with
  `--seed 414` 97.847 -> 97.784 %.
After a calibration (`vision.train.calib_eval --family plain --n 6`, calibrated squares wrong on the rig / under
other poses, of 2430 each): 3 / 23 -> 2 / 19. Held-out styles, scored once after the choice (`bench vision --n 60
--calibrated-n 40`, without -> with): squares 98.661 -> 98.661 % (4715/4779 both: as many mended as spoilt), boards
55.932 -> 59.322 %, calibrated under other poses 99.683 -> 99.778 %, on the rig 99.938 -> 99.938 %, other sets of
the artwork 99.480 -> 99.513 %; the full read's CPU median 37.5 -> 41.1 ms. Cost: grows with the unsure squares
times the occupied ones; on two-character development faces (a median of 21 unsure squares a frame) 12.6 ms a frame
(p90 20 ms) on one core here; nothing on a frame without unsure squares, and a still frame reuses the last result
(`BoardReader`). Comparing only one way round saved 3 ms and lost 0.1 point on `plain2` and on the sheen.
Likeness of pairs of one kind and of two kinds, on 20 frames each of `plain` and `plain2`: the area under the ROC
curve 0.94 / 0.91 (the first choice, crops halved with an 18-pixel centre at shifts of up to 3 pixels: 0.74 / 0.68).

The same likeness weighs the set fit (`fit_likeness`, `vision.set_counts.fit_to_set`), in frames whose likeliest
labels show more pieces of a kind than a set holds: each occupied square's labels of a face (owner ignored) get
`FIT_LIKENESS` times how far its mean likeness to the other squares read with that face lies above its median
likeness to all others, added to their log-probabilities. The fit then moves the odd one out of an over-full kind (a
silver read surely as a fifth knight, among four knights it does not look like), not the true piece read less
surely. Chosen on 2026-11-29 on development only (`vision.train.dev_eval --family F --n 40 --seed 77 --fit-likeness
W`; squares right, weight 0 / 2 / 4 / 8): two-character faces (plain2) 3057 / 3058 / 3064 / 3071 of 3240;
one-character faces (plain) 3116 / 3117 / 3114 / 3115; the varied looks (one) 3057 / 3058 / 3063 / 3059; in all 9230
/ 9233 / 9241 / 9245. The rule, fixed before: the most in all among 2, 4 and 8, at least 11 more than without and no
family 3 fewer. Larger weights then, on fresh frames (seed 78; weight 0 / 8 / 12 / 16): plain2 3037 / 3056 / 3049 /
3040, plain 3077 / 3088 / 3093 / 3091, one 3022 / 3026 / 3022 / 3018; in all 9136 / 9170 / 9164 / 9149 (8 kept; the
gain over none held on frames it was not chosen on, +34 squares). Checked after (nothing changed): the training
artwork (`dev_eval --family artwork --n 40 --seed 313`) 3239 of 3240 and under the sheen 3202 without and with; the
vision tests pass as they were; the real photo reads as before (7i still a knight at 0.93). Held-out styles, once
(`bench vision --n 60 --calibrated-n 40`, without -> with): squares 4806 -> 4813 of 4860, boards 40 -> 41 of 60,
owner 100 % and promoted 99.903 % both, false reads 0 both; calibrated under other poses 99.691 -> 99.753 %, on the
rig 100 % both, other sets 99.475 -> 99.414 %. Cost: about 15 ms on one core here for a frame of 40 pieces (every
occupied square against every other), only in frames whose likeliest labels break the set's counts; a still frame
reuses the last result (`BoardReader`). The full read's CPU median on the bench's frames did not move (63.4 ms both
on this session's machine, which is slower than earlier sessions', 41 ms there).

Both ask one frame's `FaceTable`, which works out each pair of faces once: the pooling asks for the unsure squares
against every occupied one, the set fit for every occupied square against every other, and until 2026-11-29 each
worked its pairs out on its own, the set fit each pair twice (once each way round). On 19 reads after a move
(`bench vision`'s frames of held-out styles, a game's reader), the two together cost 15.9-19.5 ms of CPU a read on
the mean before and 9.9-12.0 ms after, with the same results to the last bit.

Owns: `FaceTable`, `pool_lookalikes`, `likeness`, `fit_likeness`, `LIKENESS_FROM`, `STAND_OUT`, `POOL_WEIGHT`,
`POOL_FLOOR`, `POOL_BELOW`, `FIT_LIKENESS`.
"""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.board import Image
from vision.labels import EMPTY_INDEX, KINDS, SQUARE_LABELS, is_sente, kind_of
from vision.set_counts import SET_SIZE
from vision.set_faces import TURNS, best_fits, placements, turned, unit
from vision.squares import CROP

LIKENESS_FROM = 0.8
"""Likeness (normalised correlation, -1..1) from which a square lends its reading."""
STAND_OUT = 0.25
"""How far above a square's median likeness to the others a lender's must lie (in a frame where every face looks
like every other, under a lamp's sheen, none lends)."""
POOL_WEIGHT = 1.0
"""Power of the lenders' mean kind probabilities in an unsure square's new probabilities."""
POOL_FLOOR = 0.2
"""Added to the lenders' mean kind probabilities: what they cannot rule out (one false lender decides nothing)."""
POOL_BELOW = 0.9
"""Top probability under which a square borrows."""
FIT_LIKENESS = 8.0
"""Weight of `fit_likeness`'s terms in the set fit's log-probabilities."""
SIDE = CROP // 2
"""Side a crop is scaled to (24 pixels)."""
INNER = 10
"""Side of the face's centre laid over another crop: the character, not the piece's outline. It is laid anywhere
in the crop, up to 7 pixels from the centre each way (a piece's face is seen up to a third of a square off its
square's centre at a steep camera, by parallax)."""
_BLUR = 2.5
"""Sigma (crop pixels) of the shading taken out before scaling."""
_OCCUPIED = 0.5
"""Piece probability from which a square takes part."""
_N_KINDS = len(KINDS)


def _upright(crop: Image, gote: bool) -> Image:
    """A crop turned so that its piece points up (gote's by 180 degrees)."""
    return np.ascontiguousarray(crop[::-1, ::-1]) if gote else crop


def _prepared(crops: Image) -> NDArray[np.float32]:
    """N × SIDE × SIDE: grey crops, scaled, high-passed."""
    out = np.empty((len(crops), SIDE, SIDE), dtype=np.float32)
    sigma = _BLUR * SIDE / CROP
    for n, crop in enumerate(crops):
        grey = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY) if crop.ndim == 3 else crop
        small = cv2.resize(grey, (SIDE, SIDE), interpolation=cv2.INTER_AREA).astype(np.float32)
        out[n] = small - cv2.GaussianBlur(small, (0, 0), sigma)
    return out


def _faces(pictures: NDArray[np.float32]) -> NDArray[np.float32]:
    """N × len(TURNS) × INNER²: each prepared picture's centre, turned by each of TURNS, as unit rows."""
    offset = (SIDE - INNER) // 2
    faces = np.stack([turned(picture, degrees) for picture in pictures for degrees in TURNS])
    rows = unit(faces[:, offset : offset + INNER, offset : offset + INNER].reshape(len(faces), -1))
    return rows.reshape(len(pictures), len(TURNS), -1)


class FaceTable:
    """One frame's likeness of its squares' faces, each pair's fits worked out once however often asked.

    A face is a square's crop turned to point up (gote's by 180 degrees); a square may be asked for as either
    owner's. The pooling and the set fit of one read ask for overlapping pairs (the unsure squares against every
    occupied one, then every occupied square against every other): each picture is prepared once, and each
    picture-face fit (`best_fits`, every turn of the face) is computed once, on the first request that needs it."""

    def __init__(self, crops: Image) -> None:
        self._crops = crops
        slots = 2 * len(crops)  # square s as sente's face: slot 2s; as gote's: 2s + 1
        self._pictures: list[NDArray[np.float32] | None] = [None] * slots
        self._faces: list[NDArray[np.float32] | None] = [None] * slots
        self._fit = np.full((slots, slots), np.nan, dtype=np.float64)
        """Best fit of slot b's face (every turn) anywhere in slot a's picture, at [a, b] (NaN: not worked out)."""

    def likeness(
        self, squares: NDArray[np.intp], gote: NDArray[np.bool_], rows: NDArray[np.intp]
    ) -> NDArray[np.float64]:
        """len(rows) × len(squares): how well the centre of one face fits anywhere in the other (`squares` turned
        by `gote`; the `rows`-th of them against all; both ways round, the larger; a face against itself NaN)."""
        slots = 2 * np.asarray(squares, dtype=np.intp) + np.asarray(gote, dtype=np.intp)
        picked = slots[rows]
        self._work_out(picked, slots)
        self._work_out(slots, picked)
        both = np.maximum(self._fit[np.ix_(picked, slots)], self._fit[np.ix_(slots, picked)].T)
        both[np.arange(len(rows)), rows] = np.nan
        return both

    def _work_out(self, pictures: NDArray[np.intp], faces: NDArray[np.intp]) -> None:
        """Fill in the fits of these faces in these pictures that are not known yet (one block: the pictures
        missing some, against the faces missing in any of them)."""
        known = self._fit[np.ix_(pictures, faces)]
        rows = np.isnan(known).any(axis=1)
        if not rows.any():
            return
        cols = np.isnan(known[rows]).any(axis=0)
        block_rows, block_cols = pictures[rows], faces[cols]
        windows = placements(np.stack([self._picture(int(slot)) for slot in block_rows]), INNER)
        face_rows = np.concatenate([self._face(int(slot)) for slot in block_cols])
        fits = best_fits(windows, face_rows).reshape(len(block_rows), len(block_cols), len(TURNS)).max(axis=2)
        index = np.ix_(block_rows, block_cols)
        self._fit[index] = np.where(np.isnan(self._fit[index]), fits, self._fit[index])

    def _picture(self, slot: int) -> NDArray[np.float32]:
        """The prepared upright picture of a slot."""
        picture = self._pictures[slot]
        if picture is None:
            picture = _prepared(_upright(self._crops[slot // 2], bool(slot % 2))[None])[0]
            self._pictures[slot] = picture
        return picture

    def _face(self, slot: int) -> NDArray[np.float32]:
        """len(TURNS) × INNER² unit rows: the slot's face at each turn."""
        face = self._faces[slot]
        if face is None:
            face = _faces(self._picture(slot)[None])[0]
            self._faces[slot] = face
        return face


def likeness(crops: Image, rows: NDArray[np.intp]) -> NDArray[np.float64]:
    """len(rows) × N: how well the centre of one crop's face fits anywhere in the other (the crops' `rows` against
    all; both ways round, the larger; a crop against itself NaN). The crops should point the same way."""
    return FaceTable(crops).likeness(np.arange(len(crops)), np.zeros(len(crops), dtype=bool), rows)


def pool_lookalikes(
    probs: NDArray[np.float64],
    face_table: FaceTable,
    *,
    weight: float = POOL_WEIGHT,
    threshold: float = LIKENESS_FROM,
    floor: float = POOL_FLOOR,
    below: float = POOL_BELOW,
    margin: float = STAND_OUT,
) -> NDArray[np.float64]:
    """`probs` (81 × 29) with each unsure occupied square's kinds moved towards those of the squares whose faces
    look like its own (`face_table`: the table of the squares' crops)."""
    occupied = np.flatnonzero(probs[:, EMPTY_INDEX] <= 1.0 - _OCCUPIED)
    unsure = probs[occupied].max(axis=1) < below
    if weight <= 0 or len(occupied) < 2 or not unsure.any():
        return probs
    gote = probs[occupied, :_N_KINDS].sum(axis=1) < probs[occupied, _N_KINDS:EMPTY_INDEX].sum(axis=1)
    rows = np.flatnonzero(unsure)
    table = face_table.likeness(occupied, gote, rows)
    bar = np.maximum(threshold, np.nanmedian(table, axis=1, keepdims=True) + margin)
    lend = (np.nan_to_num(table, nan=-1.0) - bar).clip(min=0.0)
    kinds = probs[occupied, :_N_KINDS] + probs[occupied, _N_KINDS:EMPTY_INDEX]
    kinds /= np.maximum(kinds.sum(axis=1, keepdims=True), 1e-12)
    out = probs.copy()
    for row, lenders in zip(rows, lend, strict=True):
        if lenders.any():
            mean = lenders @ kinds / lenders.sum()
            _borrow(out, occupied[row], bool(gote[row]), np.power(mean + floor, weight))
    return out


def _borrow(probs: NDArray[np.float64], square: int, gote: bool, factor: NDArray[np.float64]) -> None:
    """Multiply a square's kinds (its owner's labels) by `factor` in place, keeping their total."""
    cols = slice(_N_KINDS, EMPTY_INDEX) if gote else slice(0, _N_KINDS)
    part = probs[square, cols]
    moved = part * factor
    probs[square, cols] = moved * part.sum() / max(float(moved.sum()), 1e-12)


def fit_likeness(labels: NDArray[np.intp], face_table: FaceTable, weight: float) -> NDArray[np.float64]:
    """81 × 29 log-probability terms for the set fit (`vision.set_counts.fit_to_set`): each occupied square's
    labels raised by `weight` times how far its mean likeness to the other squares read with that face (owner
    ignored) lies above its median likeness to all others (the odd one out of an over-full kind moves first). A
    read of more occupied squares than a set holds gets none: the fit, which changes only kinds, cannot make it
    fit, and every square against every other at 81 would cost about half the 43 ms it cost before `FaceTable`
    (each pair worked out once, not twice: 61 against 110 ms in one measurement on a busy machine)."""
    terms = np.zeros((len(labels), len(SQUARE_LABELS)))
    occupied = np.flatnonzero(labels != EMPTY_INDEX)
    if weight <= 0 or not 3 <= len(occupied) <= SET_SIZE:
        return terms
    names = [SQUARE_LABELS[int(labels[i])] for i in occupied]
    gote = np.array([not is_sente(name) for name in names])
    table = face_table.likeness(occupied, gote, np.arange(len(occupied)))
    base = np.nanmedian(table, axis=1, keepdims=True)
    faces = sorted({kind_of(name) for name in names})
    members = np.array([[kind_of(name) == face for face in faces] for name in names], dtype=np.float64)
    seen = ~np.isnan(table)
    count = seen @ members
    mean = np.where(count > 0, np.where(seen, table, 0.0) @ members / np.maximum(count, 1), base)
    lift = weight * (mean - base).clip(min=0.0)
    for column, label in enumerate(SQUARE_LABELS):
        if column != EMPTY_INDEX and kind_of(label) in faces:
            terms[occupied, column] = lift[:, faces.index(kind_of(label))]
    return terms
