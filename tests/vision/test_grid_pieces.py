"""A grid found one line off, moved towards the row of pieces it leaves outside (`vision.grid_pieces`)."""

from __future__ import annotations

import numpy as np
import pytest
from test_grid_steep import OFF_BY_A_RANK, STEEP_CASES, corner_error

from vision.board import BoardGeometry, find_board
from vision.classifier import PieceClassifier
from vision.grid_pieces import (
    BEYOND_PIECES,
    MOVES,
    beyond_squares,
    crop_at,
    moved_grid,
    moved_towards_pieces,
    pieces_beyond,
)
from vision.orientation import sente_direction
from vision.reader import BoardReader, ReaderSettings
from vision.render import Rendered, RenderOptions, render_position
from vision.squares import crops_from_frame, rectified_board


@pytest.fixture(scope="module")
def classifier() -> PieceClassifier:
    return PieceClassifier()


def rendered(case: tuple[str, str, int, object]) -> Rendered:
    sfen, style, seed, pose = case
    return render_position(sfen, RenderOptions(style=style, seed=seed, size=(960, 720), pose=pose))  # type: ignore[arg-type]


def test_a_grid_one_rank_off_leaves_a_row_of_pieces_beyond_it(classifier: PieceClassifier) -> None:
    """The far rank of dark pieces taken for the board's edge: the search's grid leaves that rank outside, and the
    reader moves the grid onto it."""
    frame = rendered(OFF_BY_A_RANK)
    found = find_board(frame.image)
    assert found is not None and corner_error(found, frame.board_corners_px) > 20  # the search alone: one rank off
    counts = pieces_beyond(frame.image, found, classifier)
    assert max(counts.values()) >= BEYOND_PIECES
    moved = moved_towards_pieces(frame.image, found, classifier)
    assert corner_error(moved, frame.board_corners_px) < 0.01 * 960
    read = BoardReader(classifier, ReaderSettings(sente_side=sente_direction(frame.board_corners_px))).read(frame.image)
    assert read.geometry is not None and corner_error(read.geometry, frame.board_corners_px) < 0.01 * 960
    assert sum(a == b for a, b in zip(read.labels, frame.labels, strict=True)) >= 78


@pytest.mark.parametrize("case", sorted(STEEP_CASES))
def test_a_right_grid_leaves_no_piece_outside_and_stays(case: str, classifier: PieceClassifier) -> None:
    frame = rendered(STEEP_CASES[case])
    found = find_board(frame.image)
    assert found is not None
    assert pieces_beyond(frame.image, found, classifier) == dict.fromkeys(MOVES, 0)
    assert np.array_equal(moved_towards_pieces(frame.image, found, classifier).corners, found.corners)


def test_the_reader_can_leave_the_grid_as_found(classifier: PieceClassifier) -> None:
    """`ReaderSettings.grid_pieces` off: the search's grid is read as it is (one rank off here)."""
    frame = rendered(OFF_BY_A_RANK)
    settings = ReaderSettings(sente_side=sente_direction(frame.board_corners_px), grid_pieces=False)
    read = BoardReader(classifier, settings).read(frame.image)
    assert read.geometry is not None and corner_error(read.geometry, frame.board_corners_px) > 20


def test_the_grid_check_reads_with_the_generic_classifier_alone(classifier: PieceClassifier) -> None:
    """The row beyond the grid is read without features (no calibration reads it), the wide network skipping the
    crops the narrow one reads as surely empty."""
    asked: list[tuple[bool, bool]] = []

    class Spy:
        def predict(self, crops: np.ndarray, *, features: bool = True, skip_sure_empty: bool = False) -> object:
            asked.append((features, skip_sure_empty))
            return classifier.predict(crops, features=features, skip_sure_empty=skip_sure_empty)

    frame = rendered(STEEP_CASES["tilt36_turned62"])
    found = find_board(frame.image)
    assert found is not None
    pieces_beyond(frame.image, found, Spy())  # type: ignore[arg-type]
    assert asked == [(False, True)]


def test_the_board_rectified_with_a_square_beyond_cuts_its_own_squares_as_before() -> None:
    """One rectification with a square more on every side (what the rows beyond are cut from) cuts the board's own
    81 squares as the plain rectification does, to a grey level; and the row beyond rank a is the top of it."""
    frame = rendered(STEEP_CASES[sorted(STEEP_CASES)[0]])
    geometry = find_board(frame.image)
    assert geometry is not None
    plain = crops_from_frame(frame.image, geometry).astype(int)
    wide = rectified_board(frame.image, geometry, beyond=1)
    again = np.stack([crop_at(wide, row, col) for row in range(9) for col in range(9)]).astype(int)
    assert np.abs(plain - again).max() <= 1
    moved = crops_from_frame(frame.image, BoardGeometry(moved_grid(geometry, (0, -1)), geometry.support))[:9]
    beyond = np.stack([crop_at(wide, row, col) for row, col in beyond_squares((0, -1))]).astype(int)
    assert np.abs(moved.astype(int) - beyond).mean() < 1.0
