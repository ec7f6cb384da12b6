"""The board reader: from a colour frame to per-square probabilities, a position and a reliability verdict.

`BoardReader.read(frame)` finds the grid (or cheaply confirms the one found before), settles which side is
sente's, cuts the 81 square crops, runs the classifier (and the user's calibration, if loaded) on the crops
that changed since their square was last read (`vision.square_memo`; all 81 when the grid was just found), reads
the stands (each counted again only when its picture changed: `vision.stand_memo`), and marks squares it cannot
vouch for: low confidence, a hand or blur over the square (the classifier's "unreadable" output), a frame too
dark or blown out, more pieces of a kind than a set holds. A read with any unreliable square must not be taken as
the position; the controller scores legal positions against `probs`. Each read also carries the strip round the
grid (`vision.rim`), so that the controller can tell a hand at the board's edge that hides no square.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Protocol

import numpy as np
from numpy.typing import NDArray

from vision.board import RECHECK_RATIO, BoardGeometry, Image, check_board, find_board, to_gray
from vision.board_read import BoardRead, SquareRead
from vision.classifier import PieceClassifier, Prediction
from vision.crop_reads import calibrated, predict_crops, read_crops
from vision.grid_pieces import moved_towards_pieces
from vision.hand_fit import StandPieces, fit_whole_set
from vision.hands import StandLayout, read_stands
from vision.label_prior import PROMOTED_PRIOR, with_promoted_prior
from vision.labels import EMPTY_INDEX, SQUARE_LABELS
from vision.lookalikes import FIT_LIKENESS, FaceTable, fit_likeness, pool_lookalikes
from vision.orientation import axes_swapped, turns_for_side
from vision.owner_cue import apply_owner_cue, measure
from vision.rim import rim_view
from vision.set_counts import fit_to_set, over_limit_squares
from vision.shifted_looks import shifted_looks
from vision.square_memo import DELTA, SquareMemo
from vision.square_prior import SQUARE_PRIOR, shipped_factors, with_square_prior
from vision.squares import rectified_board, square_crops
from vision.stand_memo import StandMemo


class Calibrator(Protocol):
    """Turns the generic classifier's output into probabilities for the user's own set."""

    def adjust(self, prediction: Prediction, crops: Image | None = None) -> NDArray[np.float64]:
        """N×29 probabilities (`crops`: the N crops the prediction was made on, for a model of their looks)."""
        ...


@dataclass(frozen=True)
class ReaderSettings:
    """How the reader decides.

    `sente_side`: image side sente sits at (`bottom`, `top`, `left`, `right`, or a direction in degrees as in
    `vision.orientation.SIDES`), or None: the grid's axis from the pieces, sente on the side nearer the
    bottom. `min_confidence`: top probability below which a square is unreliable. On rendered frames of
    training styles every wrong square the other tests let through, bar one near-certain one, is flagged from
    0.7 up; but the classifier is more confident on a set it never saw (the real photo's set has a wrong read
    at 0.92), so the margin is wide. Not higher: label smoothing caps the top probability near 0.98, and 0.98
    flagged every clean frame. `max_unreadable`: unreadable probability above which it is. `recheck_ratio`:
    fraction of the grid support seen at finding time that a later frame must keep for the grid to be reused.
    `stands`: where the piece stands lie relative to the board (None: do not read hands). `owner_cue`: multiply
    the pieces' outline evidence (which way each point faces, whether a point is there: `vision.owner_cue`) into
    the squares' probabilities. `occupancy_first`: a square's label is decided occupied or empty first, then
    owner, then kind (`occupancy_first_labels`), instead of the likeliest of the 29 labels. Both off: on the proxy
    looks they raised owner accuracy (98.53 -> 99.20 % together), but `bench vision --n 60` on the held-out
    styles did not move (owner 98.426 -> 98.374 %, square 95.503 -> 95.481 %; 2026-11-22), and the cue costs
    about a third of the read's time. `reread_delta`: a square keeps its last reading while its crop stays within
    this of the crop that reading was made on (`vision.square_memo`: a frame after a move classifies the two to
    four squares it changed, not 81; a stand keeps its count while its picture stays within it too,
    `vision.stand_memo`); None: every square is classified and every stand counted on every frame.
    `shifted_looks`: a square read with a top probability under `vision.shifted_looks.SHIFT_BELOW` is cut and
    classified again a few pixels off its place, and its readings combined (off: one cut per square).
    `lookalikes`: an unsure square's kinds move towards those of the squares whose faces look like its own in the
    same frame (`vision.lookalikes`). `promoted_prior`: the factor on the promoted faces' probabilities
    (`vision.label_prior`: promoted pieces are rare in real positions; 1: none). `complete_set`: the whole set is
    in play (an even game), so when a stand is read and no square is hidden the stands and the board are fitted
    together to the set's 40 pieces (`vision.hand_fit`; a board square the fit moves is flagged unreliable; a kind
    short of the set is filled up only when both stands are read); off, each stand is counted on its own and the
    board as read. `fit_likeness`: where the likeliest labels show more pieces of a kind than a set holds, the
    set fit weighs how alike the faces are as well (`vision.lookalikes.fit_likeness`; 0: probabilities alone).
    `square_prior`: the power of the square prior's factors on the board's squares' probabilities
    (`vision.square_prior`: where labels stand in games; 0: none). `grid_pieces`: a grid found from scratch that
    leaves a row of pieces just beyond one outer line is moved one line that way (`vision.grid_pieces`).
    """

    sente_side: str | float | None = None
    min_confidence: float = 0.95
    max_unreadable: float = 0.25
    recheck_ratio: float = RECHECK_RATIO
    stands: StandLayout | None = field(default_factory=StandLayout)
    owner_cue: bool = False
    occupancy_first: bool = False
    reread_delta: float | None = DELTA
    shifted_looks: bool = True
    lookalikes: bool = True
    promoted_prior: float = PROMOTED_PRIOR
    complete_set: bool = False
    fit_likeness: float = FIT_LIKENESS
    square_prior: float = SQUARE_PRIOR
    grid_pieces: bool = True


class LastResult:
    """The last value computed from one frame's readings, given back while the readings stay the same (a still
    frame: every square's reading remembered)."""

    def __init__(self) -> None:
        self._readings: NDArray[np.float64] | None = None
        self._value: NDArray[np.float64] | None = None

    def get(self, readings: NDArray[np.float64], compute: Callable[[], NDArray[np.float64]]) -> NDArray[np.float64]:
        """The value for these readings: the last one if they are the same, else `compute()`'s, remembered."""
        if self._value is None or self._readings is None or not np.array_equal(self._readings, readings):
            self._value = compute()
            self._readings = readings.copy()
        return self._value

    def forget(self) -> None:
        """Compute afresh at the next `get`."""
        self._readings = self._value = None


class BoardReader:
    """Reads frames one after another, keeping the grid and its orientation while the camera stays put."""

    def __init__(
        self,
        classifier: PieceClassifier | None = None,
        settings: ReaderSettings | None = None,
        calibration: Calibrator | None = None,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self._classifier = classifier or PieceClassifier()
        self._settings = settings or ReaderSettings()
        self._calibration = calibration
        self._clock = clock
        self._geometry: BoardGeometry | None = None
        self._memo = SquareMemo(self._settings.reread_delta or DELTA)
        self._stand_memo = None if self._settings.reread_delta is None else StandMemo(self._settings.reread_delta)
        self._pooled_memo = LastResult()
        self._fit_terms_memo = LastResult()
        self._square_factors = shipped_factors() if self._settings.square_prior > 0 else None  # checked at start

    def reset(self) -> None:
        """Forget the grid (the next read searches for it again, and reads every square)."""
        self._geometry = None
        self._forget()

    @property
    def classifier(self) -> PieceClassifier:
        """The generic classifier (a piece-set calibration is learnt on its features)."""
        return self._classifier

    @property
    def settings(self) -> ReaderSettings:
        """The reader's settings."""
        return self._settings

    def use_calibration(self, calibration: Calibrator | None) -> None:
        """Read with this piece-set calibration from the next frame on (None: the generic classifier alone); every
        square is read again."""
        self._calibration = calibration
        self._forget()

    def read(self, image: Image) -> BoardRead:
        """Read one frame."""
        start = self._clock()
        geometry = self._locate(image)
        if geometry is None:
            return BoardRead(False, "board not found", ms=(self._clock() - start) * 1000)
        if self._geometry is None:
            geometry, board, crops, prediction = self._oriented(image, geometry)
            self._geometry = geometry
            self._forget()
            changed = np.ones(81, dtype=bool)
            probs = self._probabilities(board, changed, prediction, crops)
            prediction, probs = self._memo.remember(crops, changed, prediction, probs)
        else:
            board, crops = board_and_crops(image, geometry)
            prediction, probs = self._read_changed(board, crops)
        if self._settings.owner_cue:
            probs = apply_owner_cue(probs, measure(board))
        faces = FaceTable(crops)
        if self._settings.lookalikes:
            probs = self._pooled(probs, faces)
        reason = exposure_problem(board)
        fit_terms = partial(self._fit_terms, probs, faces) if self._settings.fit_likeness > 0 else None
        squares = judge_squares(probs, prediction, self._settings, whole_frame_bad=bool(reason), fit_terms=fit_terms)
        hidden = unseen_squares(squares, prediction, self._settings, whole_frame_bad=bool(reason))
        hands = None
        if self._settings.stands is not None:
            layout = self._settings.stands
            stands = read_stands(image, geometry, layout, self._classifier, self._calibration, memo=self._stand_memo)
            hands, squares = self._hands(stands, probs, squares, hidden)
        self._memo.doubt(np.array([not sq.reliable for sq in squares]))
        if not reason and not all(sq.reliable for sq in squares):
            reason = "some squares cannot be read reliably"
        rim = rim_view(image, geometry)
        ms = (self._clock() - start) * 1000
        return BoardRead(True, reason, tuple(squares), probs, hands, geometry, ms, hidden, rim)

    def _hands(
        self,
        stands: dict[str, StandPieces],
        probs: NDArray[np.float64],
        squares: list[SquareRead],
        hidden: tuple[int, ...],
    ) -> tuple[dict[str, dict[str, int]] | None, list[SquareRead]]:
        """Each read stand's pieces by kind (None: neither read), and the squares; with `complete_set` and no
        square hidden, the stands read and the board fitted together to one set (`vision.hand_fit.fit_whole_set`),
        a square the fit gave another kind flagged unreliable."""
        if not stands:
            return None, squares
        if not (self._settings.complete_set and not hidden):
            return {side: pieces.counts for side, pieces in stands.items()}, squares
        whole = fit_whole_set(stands, probs, [square.label for square in squares])
        fitted = list(squares)
        for i in whole.moved:
            label = whole.labels[i]
            fitted[i] = SquareRead(label, float(probs[i, SQUARE_LABELS.index(label)]), squares[i].top, False)
        return whole.hands, fitted

    def _forget(self) -> None:
        """Drop what the memos remember of the squares and the stands (the next read reads them all)."""
        self._memo.forget()
        self._pooled_memo.forget()
        self._fit_terms_memo.forget()
        if self._stand_memo is not None:
            self._stand_memo.forget()

    def _pooled(self, probs: NDArray[np.float64], faces: FaceTable) -> NDArray[np.float64]:
        """`vision.lookalikes.pool_lookalikes` of the readings; the last result again while the readings are the
        same (every square's reading remembered, a still frame)."""
        return self._pooled_memo.get(probs, lambda: pool_lookalikes(probs, faces))

    def _fit_terms(self, probs: NDArray[np.float64], faces: FaceTable, labels: NDArray[np.intp]) -> NDArray[np.float64]:
        """`vision.lookalikes.fit_likeness` of the likeliest `labels` (those of `probs`); the last result again
        while the readings are the same (a still frame)."""
        return self._fit_terms_memo.get(probs, lambda: fit_likeness(labels, faces, self._settings.fit_likeness))

    def _read_changed(self, board: Image, crops: Image) -> tuple[Prediction, NDArray[np.float64]]:
        """Every square's reading, classifying again only the crops that changed since their square was last
        read (all of them with `ReaderSettings.reread_delta` None)."""
        if self._settings.reread_delta is None:
            prediction = self._predict(crops)
            return prediction, self._probabilities(board, np.ones(81, dtype=bool), prediction, crops)
        changed = self._memo.changed(crops)
        if not changed.any():
            return self._memo.readings()
        fresh = crops if changed.all() else crops[changed]
        prediction = self._predict(fresh)
        return self._memo.remember(crops, changed, prediction, self._probabilities(board, changed, prediction, fresh))

    def _probabilities(
        self, board: Image, squares: NDArray[np.bool_], prediction: Prediction, crops: Image
    ) -> NDArray[np.float64]:
        """The probabilities of the `squares` (whose `crops` were classified as `prediction`), unsure ones looked
        at again (`ReaderSettings.shifted_looks`)."""
        probs = self._adjust(prediction, crops)
        indices = np.flatnonzero(squares)
        if self._settings.shifted_looks:
            probs = shifted_looks(board, indices, probs, self._classify)
        probs = with_promoted_prior(probs, self._settings.promoted_prior)
        return with_square_prior(probs, indices, self._settings.square_prior, self._square_factors)

    def _classify(self, crops: Image) -> NDArray[np.float64]:
        """Probabilities of crops, as a first reading is made (`vision.crop_reads.read_crops`)."""
        return read_crops(self._classifier, crops, self._calibration)

    def _predict(self, crops: Image) -> Prediction:
        """The classifier's reading of crops (`vision.crop_reads.predict_crops`)."""
        return predict_crops(self._classifier, crops, self._calibration)

    def _adjust(self, prediction: Prediction, crops: Image) -> NDArray[np.float64]:
        """The calibration's probabilities for these crops (`vision.crop_reads.calibrated`)."""
        return calibrated(prediction, crops, self._calibration)

    @property
    def reread(self) -> int:
        """Squares classified at the last read (81 for a whole read; fewer when unchanged squares kept their
        reading)."""
        return 81 if self._settings.reread_delta is None else self._memo.reread

    @property
    def stands_counted(self) -> int | None:
        """Stands counted since the reader was made, not taken from the memo (None with `reread_delta` None:
        every stand in view is counted at every read)."""
        return None if self._stand_memo is None else self._stand_memo.counted

    def _locate(self, image: Image) -> BoardGeometry | None:
        """The grid: the previous one if the frame still supports it, else a fresh search."""
        if self._geometry is not None:
            support = check_board(image, self._geometry)
            if support >= self._settings.recheck_ratio * self._geometry.support:
                return self._geometry
            self._geometry = None
        if min(to_gray(image).shape[:2]) < 64:
            return None
        found = find_board(image)
        if found is None or not self._settings.grid_pieces:
            return found
        return moved_towards_pieces(image, found, self._classifier)

    def _oriented(self, image: Image, geometry: BoardGeometry) -> tuple[BoardGeometry, Image, Image, Prediction]:
        """The grid turned so that sente's side is ranks g-i, the board rectified by it, its crops and their
        classification. With sente's side set, the grid is turned before any square is classified (one pass);
        otherwise the pieces' turn decides it, and the crops are cut and classified again if the grid turned."""
        if self._settings.sente_side is not None:
            geometry = geometry.rotated(turns_for_side(geometry, self._settings.sente_side))
        board, crops = board_and_crops(image, geometry)
        prediction = self._predict(crops)
        if self._settings.sente_side is not None:
            return geometry, board, crops, prediction
        axis = 1 if axes_swapped(prediction.probs, prediction.sideways) else 0
        turns = turns_for_side(geometry, "bottom", (axis, axis + 2))
        if turns == 0:
            return geometry, board, crops, prediction
        geometry = geometry.rotated(turns)
        board, crops = board_and_crops(image, geometry)
        return geometry, board, crops, self._predict(crops)


def board_and_crops(image: Image, geometry: BoardGeometry) -> tuple[Image, Image]:
    """The board rectified by the grid, and its 81 square crops."""
    board = rectified_board(image, geometry)
    return board, square_crops(board)


def exposure_problem(board: Image) -> str:
    """Why the rectified board is unusable as a whole (too dark, blown out, featureless), or ''."""
    gray = to_gray(board)
    mean, std = float(gray.mean()), float(gray.std())
    if mean < 35:
        return "frame too dark"
    if mean > 235 or float((gray > 250).mean()) > 0.4:
        return "frame overexposed"
    if std < 6:
        return "no contrast on the board"
    return ""


def judge_squares(
    probs: NDArray[np.float64],
    prediction: Prediction,
    settings: ReaderSettings,
    whole_frame_bad: bool,
    fit_terms: Callable[[NDArray[np.intp]], NDArray[np.float64]] | None = None,
) -> list[SquareRead]:
    """Per-square verdicts: label, probability, top three, trusted or not. Labels that show more pieces of a kind
    than a set holds are fitted to the set (`vision.set_counts.fit_to_set`), `fit_terms` of them (if given) added
    to the log-probabilities the fit weighs."""
    order = np.argsort(-probs, axis=1)
    likeliest = occupancy_first_labels(probs) if settings.occupancy_first else order[:, 0]
    over = over_limit_squares(likeliest)
    terms = fit_terms(likeliest) if over and fit_terms is not None else None
    chosen = fit_to_set(probs, likeliest, terms)
    labels = [SQUARE_LABELS[int(j)] for j in chosen]
    squares = []
    for i in range(81):
        top = tuple((SQUARE_LABELS[int(j)], float(probs[i, j])) for j in order[i, :3])
        p = float(probs[i, chosen[i]])
        reliable = (
            not whole_frame_bad
            and p >= settings.min_confidence
            and float(prediction.unreadable[i]) <= settings.max_unreadable
            and float(prediction.sideways[i]) <= 0.5
            and i not in over
        )
        squares.append(SquareRead(labels[i], p, top, reliable))
    return squares


def unseen_squares(
    squares: list[SquareRead],
    prediction: Prediction,
    settings: ReaderSettings,
    whole_frame_bad: bool,
) -> tuple[int, ...]:
    """The squares not seen: every square of a bad frame; else those the classifier calls unreadable (a hand or
    blur over them), whatever label it gives them and however many of that kind the board seems to hold.

    A doubtful label under a hand is no evidence either, nor one that would make a third rook: until 2026-11-28
    such squares were passed on and weighed, and frames of a hand paused over the board let the reconciler commit
    moves onto them (a drop whose stand count fitted, a piece moved under the fingers; `shogi-robot bench pause`).
    The controller weighs a hidden square once it has stayed hidden on still frames for a few seconds
    (`ReconcileConfig.doubt_seconds`), so a false alarm does not stall a game."""
    if whole_frame_bad:
        return tuple(range(len(squares)))
    return tuple(i for i in range(len(squares)) if float(prediction.unreadable[i]) > settings.max_unreadable)


def occupancy_first_labels(probs: NDArray[np.float64]) -> NDArray[np.intp]:
    """Per square, the label decided in steps: empty when `empty` is at least as likely as all pieces together;
    else the owner whose labels sum higher, then that owner's likeliest kind. (The likeliest single label can
    be `empty` on a square the classifier thinks 80 % occupied, its piece mass spread over several kinds.)"""
    sente, gote, empty = probs[:, :14].sum(axis=1), probs[:, 14:28].sum(axis=1), probs[:, EMPTY_INDEX]
    piece = np.where(sente >= gote, probs[:, :14].argmax(axis=1), 14 + probs[:, 14:28].argmax(axis=1))
    return np.asarray(np.where(empty >= sente + gote, EMPTY_INDEX, piece), dtype=np.intp)
