"""The board-finding development tool (`vision.train.grid_eval`): its scoring, and one frame searched."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from vision.train.grid_eval import GridTally, corner_error, evaluate, report

TRUTH = np.array([[100.0, 100.0], [460.0, 100.0], [460.0, 460.0], [100.0, 460.0]])  # squares of 40 pixels


def test_corner_error_in_squares_whatever_the_labels_turn() -> None:
    assert corner_error(np.roll(TRUTH, 1, axis=0), TRUTH) == 0.0
    one_file_off = TRUTH + np.array([40.0, 0.0])
    assert corner_error(one_file_off, TRUTH) == 1.0


def test_report_lists_the_counts_and_the_frames_not_right() -> None:
    tally = GridTally(
        right=298, off=1, not_found=1, misses=["frame 4 (x, tilt 40.0): off", "frame 9 (y, tilt 41.0): not found"]
    )
    text = report(tally, "artwork steep seed 81")
    assert text.splitlines()[0] == "artwork steep seed 81: 300 frames, right 298, off 1, not found 1"
    assert "frame 9 (y, tilt 41.0): not found" in text


def test_a_start_frame_is_searched_and_scored(tmp_path: Path) -> None:
    """The first start-position frame of a training style is found right; nothing is saved for it."""
    tally = evaluate("artwork", "start", 1, 7, save=tmp_path)
    assert (tally.right, tally.off, tally.not_found) == (1, 0, 0)
    assert not list(tmp_path.iterdir())
    assert len(tally.search_ms) == 1 and tally.search_ms[0] > 0
    assert "search CPU ms median" in report(tally, "artwork start seed 7")
