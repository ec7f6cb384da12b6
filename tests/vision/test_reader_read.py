"""Reading whole frames: the real photo, owner and promotion for every kind in every style, occlusion gating,
unusable frames, orientation from the pieces."""

from __future__ import annotations

from pathlib import Path
from typing import cast

import cv2
import numpy as np
import pytest

from vision.board_read import SquareRead
from vision.classifier import PieceClassifier, Prediction
from vision.labels import EMPTY, PIECE_LABELS, board_field_from_labels, labels_from_board_field, square_name
from vision.orientation import sente_direction
from vision.reader import BoardReader, ReaderSettings
from vision.render import CameraPose, RenderOptions, list_styles, render_position
from vision.square_prior import SQUARE_PRIOR

PHOTO = Path("../shared/data/photos/startpos-wooden-overhead.jpg")
START_BOARD = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL"
MIDGAME = "ln1g3nl/1ks2rg2/1ppp1s1p1/p3ppp1p/9/P1PP1PP1P/1PS1PS3/1KG2G1R1/LN5NL b BPbp"


def all_labels_boards() -> tuple[str, str]:
    """Two boards that hold each of the 28 labels once between them, each no more pieces than a set has (the
    reader never reads more): sente's unpromoted faces with gote's promoted ones, and the other way round."""
    plain = [label for label in PIECE_LABELS if not label.startswith("+")]
    promoted = [label for label in PIECE_LABELS if label.startswith("+")]
    halves = (
        [label for label in plain if label.isupper()] + [label for label in promoted if label[1].islower()],
        [label for label in plain if label.islower()] + [label for label in promoted if label[1].isupper()],
    )
    boards = []
    for half in halves:
        labels = [EMPTY] * 81
        for i, label in enumerate(half):
            labels[(1 + 2 * (i // 4)) * 9 + 1 + 2 * (i % 4)] = label
        boards.append(board_field_from_labels(labels))
    return boards[0], boards[1]


def test_real_photo_generic_read_is_never_confidently_wrong(classifier: PieceClassifier) -> None:
    """Without calibration, every square of the real photo is either right or flagged unreliable; the grid is
    found, sente is at the bottom and the stands (not in the picture) are unknown."""
    result = BoardReader(classifier).read(cv2.imread(str(PHOTO)))
    assert result.board_found
    assert result.hands is None
    truth = labels_from_board_field(START_BOARD)
    for name, square, want in zip([square_name(i) for i in range(81)], result.squares, truth, strict=True):
        assert square.label == want or not square.reliable, f"{name}: {square.label} claimed reliable"


@pytest.mark.xfail(
    reason="known weakness: cut at its grid lines (found since 2026-12-01), the photo's sente silver on 7i read as a"
    " knight at 0.951, just over the reader's 0.95 bar (0.938 in the whole photo), and vouched for; since session"
    " 45's coarse spacing search (`grid_fit.COARSE_SIGMA`) the grid lies 0.7 px elsewhere and 7i reads as a silver"
    " at 0.41, flagged, so this passes, on a margin that a sub-pixel shift decides: not counted as fixed"
)
def test_real_photo_cut_at_its_grid_is_never_confidently_wrong(classifier: PieceClassifier) -> None:
    """The real photo cut at its outer grid lines reads as the whole photo should: every square right or flagged."""
    image = cv2.imread(str(PHOTO))[26:766, 55:742]
    result = BoardReader(classifier).read(image)
    assert result.board_found
    truth = labels_from_board_field(START_BOARD)
    for name, square, want in zip([square_name(i) for i in range(81)], result.squares, truth, strict=True):
        assert square.label == want or not square.reliable, f"{name}: {square.label} claimed reliable"


@pytest.mark.xfail(
    reason="known weakness: the generic classifier misreads two of this wooden set's back-rank pieces (the joined "
    "models of 2026-11-28 and 2026-11-29: the knight on 2a, in the lamp's glare, as a silver, and sente's silver on "
    "7i as a knight at 0.93-0.94; the narrow model before them: gote's silver on 7a and the knight on 2a); both "
    "flagged unreliable; with the square prior (session 48, `vision.square_prior`) it passes: 2a reads as a knight at"
    " 0.47 and 7i as a silver at 0.27 (moved there by the set fit, its knight reading at 0.70), both still flagged:"
    " a prior and a set fit decide there, on margins, not the faces, so it is not counted as fixed"
)
def test_real_photo_reads_start_position(classifier: PieceClassifier) -> None:
    """The real wooden set in the starting position reads as the starting position, every square right."""
    result = BoardReader(classifier).read(cv2.imread(str(PHOTO)))
    assert result.board_found
    assert result.sfen().split()[0] == START_BOARD
    assert result.hands is None  # no stands in the picture: unknown, not empty


WEAK_STYLES = {"simple_kanji", "engraved_cz"}
"""Styles where the generic classifier still gets at least one of the 28 labels' promotion wrong in this frame
(every such square flagged unreliable: `test_owner_for_every_kind`); calibration is the remedy. Kept visible as
expected failures. With the model of session 51 (ES7, `docs/experiments/s51/RULE.txt`): simple_kanji's promoted faces
read as unpromoted on 5 of its 28 labels (+s, +n, +l, +S at 0.52-0.60, +L as K at 0.45; the model before: 8), and
engraved_cz's sente +L as a pawn at 0.54 (the model before read it +P at 0.35 against P at 0.34). Over the 13 training
styles' boards it reads 15 labels and 6 promotions wrong, against 27 and 9 before. kanji_red_wood, here since
2026-11-27 (its gote +s read as g at 0.44-0.55), reads every promotion right with it and is checked strictly again."""


def _style_param(style: str) -> object:
    if style in WEAK_STYLES:
        return pytest.param(style, marks=pytest.mark.xfail(reason="known generic-classifier confusion in this style"))
    return style


def _all_labels_reads(
    classifier: PieceClassifier, style: str, square_prior: float = SQUARE_PRIOR
) -> list[tuple[str, SquareRead]]:
    """(truth, read) of every piece on the two all-labels boards in one style (seed 7)."""
    out = []
    for board in all_labels_boards():
        frame = render_position(board + " b -", RenderOptions(style=style, seed=7, size=(800, 600)))
        side = sente_direction(frame.board_corners_px)
        settings = ReaderSettings(sente_side=side, stands=None, square_prior=square_prior)
        result = BoardReader(classifier, settings).read(frame.image)
        assert result.board_found
        out += [(truth, sq) for truth, sq in zip(frame.labels, result.squares, strict=True) if truth != EMPTY]
    return out


@pytest.mark.slow
@pytest.mark.parametrize("style", list_styles())
def test_owner_for_every_kind(classifier: PieceClassifier, style: str) -> None:
    """Every one of the 28 labels (on two boards), in every style: read as a piece of the right owner (from the
    pointed end), and its promoted state right on every square the reader calls reliable."""
    for truth, square in _all_labels_reads(classifier, style):
        got = square.label
        assert got != EMPTY, f"{truth} read as empty"
        assert got.lstrip("+").isupper() == truth.lstrip("+").isupper(), f"{truth} read as {got}: wrong owner"
        promoted_right = got.startswith("+") == truth.startswith("+")
        assert promoted_right or not square.reliable, f"{truth} read as {got} ({square.p:.2f}), claimed reliable"


@pytest.mark.slow
@pytest.mark.parametrize("style", [_style_param(s) for s in list_styles()])
def test_owner_and_promotion_for_every_kind(classifier: PieceClassifier, style: str) -> None:
    """Every one of the 28 labels (on two boards), in every style: owner from the pointed end and promoted state
    come out right, from the faces alone. The boards put every label on squares games seldom show it on, so the
    square prior (`vision.square_prior`) is off here; with it, `test_owner_for_every_kind` holds (a promotion the
    prior turns is flagged unreliable)."""
    for truth, square in _all_labels_reads(classifier, style, square_prior=0.0):
        got = square.label
        assert got.lstrip("+").isupper() == truth.lstrip("+").isupper(), f"{truth} read as {got}: wrong owner"
        assert got.startswith("+") == truth.startswith("+"), f"{truth} read as {got}: wrong promotion"


def test_orientation_from_pieces(classifier: PieceClassifier) -> None:
    """With no setting the reader finds the grid's axis from the pieces (sente towards the picture's bottom)."""
    for seed, roll in ((1, 60.0), (2, 0.0), (5, 30.0)):
        pose = CameraPose(tilt_deg=15, roll_deg=roll, fill=0.65)
        frame = render_position(MIDGAME, RenderOptions(style="kanji_light", seed=seed, size=(800, 600), pose=pose))
        result = BoardReader(classifier, ReaderSettings(stands=None)).read(frame.image)
        assert result.geometry is not None
        assert np.abs(result.geometry.corners - frame.board_corners_px).max() < 8


class _Counting:
    """The classifier, counting how many whole boards (81 crops at once) it is asked to read."""

    def __init__(self, classifier: PieceClassifier) -> None:
        self.inner, self.boards = classifier, 0

    def predict(self, crops: np.ndarray, *, features: bool = True, skip_sure_empty: bool = False) -> Prediction:
        self.boards += len(crops) == 81
        return self.inner.predict(crops, features=features, skip_sure_empty=skip_sure_empty)


def test_a_known_sente_side_turns_the_grid_before_classifying(classifier: PieceClassifier) -> None:
    """With sente's side set, a grid found turned (the camera rolled by 60 degrees) is turned before its squares are
    read: one pass over the board, and the same read as when the pieces decide the turn (two passes)."""
    pose = CameraPose(tilt_deg=15, roll_deg=60.0, fill=0.65)
    frame = render_position(MIDGAME, RenderOptions(style="kanji_light", seed=2, size=(800, 600), pose=pose))
    reads = []
    for side in (sente_direction(frame.board_corners_px), None):
        counting = _Counting(classifier)
        reader = BoardReader(cast(PieceClassifier, counting), ReaderSettings(sente_side=side, stands=None))
        reads.append((reader.read(frame.image), counting.boards))
    (known, known_passes), (decided, decided_passes) = reads
    assert known.geometry is not None and decided.geometry is not None
    assert np.abs(known.geometry.corners - frame.board_corners_px).max() < 8
    assert (known_passes, decided_passes) == (1, 2)
    assert known.labels == decided.labels == list(frame.labels)
    assert known.probs is not None and decided.probs is not None
    assert np.array_equal(known.probs, decided.probs)


def test_arm_over_board_is_unreliable(classifier: PieceClassifier) -> None:
    """With an arm over the board the reader never claims a reliable read that is wrong."""
    for seed in (11, 12, 13):
        clean = render_position(MIDGAME, RenderOptions(style="kanji_brown", seed=seed, size=(800, 600)))
        settings = ReaderSettings(sente_side=sente_direction(clean.board_corners_px), stands=None)
        reader = BoardReader(classifier, settings)
        reader.read(clean.image)
        covered = render_position(
            MIDGAME, RenderOptions(style="kanji_brown", seed=seed, size=(800, 600), pose=clean.pose, hand=True)
        )
        result = reader.read(covered.image)
        assert not (result.reliable and result.labels != list(covered.labels))


@pytest.mark.parametrize("gain", [0.06, 4.0], ids=["dark", "overexposed"])
def test_dark_or_blown_frame_is_unreliable(classifier: PieceClassifier, gain: float) -> None:
    """A nearly black or blown-out frame of a board gives no reliable read."""
    image = cv2.imread(str(PHOTO))
    spoiled = np.clip(image.astype(np.float32) * gain, 0, 255).astype(np.uint8)
    result = BoardReader(classifier).read(spoiled)
    assert not result.reliable


def test_non_board_image_is_not_a_board(classifier: PieceClassifier) -> None:
    """A picture of something else (wood texture, no grid) reads as board not found."""
    rng = np.random.default_rng(4)
    texture = cv2.GaussianBlur(rng.integers(60, 200, (480, 640, 3), dtype=np.uint8), (0, 0), 3)
    result = BoardReader(classifier).read(texture)
    assert not result.board_found
    assert len(result.unreliable) == 81
