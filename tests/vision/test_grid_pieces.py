"""A grid found one line off, moved towards the row of pieces it leaves outside (`vision.grid_pieces`)."""

from __future__ import annotations

import numpy as np
import pytest
from test_grid_steep import OFF_BY_A_RANK, STEEP_CASES, corner_error

from vision.board import find_board
from vision.classifier import PieceClassifier
from vision.grid_pieces import BEYOND_PIECES, MOVES, moved_towards_pieces, pieces_beyond
from vision.orientation import sente_direction
from vision.reader import BoardReader, ReaderSettings
from vision.render import Rendered, RenderOptions, render_position


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
