"""`bench vision`'s report: a calibration that failed is said so, and the other figures are still printed."""

from __future__ import annotations

import argparse

import pytest

from controller.bench.vision_bench import report
from controller.bench.vision_tally import Tally, score_hands
from vision.errors import CalibrationError


def test_a_failed_calibration_is_reported_beside_the_other_figures(capsys: pytest.CaptureFixture[str]) -> None:
    args = argparse.Namespace(ink_sheen=0.0, n=1, size="960x720", owner_cue=False, occupancy_first=False)
    tally = Tally(squares=81, squares_right=80, boards=1)
    report(args, ["ryoko_1kanji"], tally, (0.2, 0.1), CalibrationError("flipped photo: board not found"))
    out = capsys.readouterr().out
    assert "square accuracy:        98.765 %" in out
    assert "calibrated (ryoko_1kanji):  not calibrated: flipped photo: board not found" in out


def test_hand_counts_with_the_whole_set_are_tallied_apart() -> None:
    """A read made with the whole set in play counts in its own figures; an unknown stand is tallied once."""
    tally = Tally()
    truth = {"P": 3, "b": 1}
    score_hands(tally, truth, {"b": {"P": 2}, "w": {"B": 1}})
    score_hands(tally, truth, {"b": {"P": 3}, "w": {"B": 1}}, complete_set=True)
    score_hands(tally, truth, {"b": {"P": 3}})
    score_hands(tally, truth, {"b": {"P": 3}}, complete_set=True)
    assert (tally.hand_entries, tally.hand_right, tally.stands_unknown) == (21, 6 + 7 + 7, 1)
    assert (tally.set_hand_entries, tally.set_hand_right) == (21, 21)


def test_calibrated_reads_count_the_wrong_squares_they_vouched_for(capsys: pytest.CaptureFixture[str]) -> None:
    """A wrong square counts only when the reader vouched for it; the report gives both readers' counts."""
    from controller.bench.vision_calibrated import CalibratedFamily, CalibratedFigures, report_calibrated
    from controller.bench.vision_tally import score_vouched
    from vision.board_read import SquareRead

    tally = Tally()
    squares = [SquareRead("P", 0.99, (), True), SquareRead("p", 0.99, (), True), SquareRead("G", 0.6, (), False)]
    score_vouched(tally, ["P", "P", "S"], squares)
    assert tally.vouched_wrong == 1
    family = CalibratedFamily(0.9, 0.95, 3, generic_vouched_wrong=0, vouched_wrong=tally.vouched_wrong)
    figures = CalibratedFigures({name: family for name in ("rig", "other", "other set")}, 1.2, 40.0, 39.0)
    report_calibrated("ryoko_1kanji", figures)
    assert (
        "square accuracy 95.000 % vs generic 90.000 %, wrong but vouched for 1 vs 0 (3 frames"
        in capsys.readouterr().out
    )


def test_clean_frames_count_their_flagged_squares_and_the_wrong_ones_vouched_for(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Flagged squares are counted with how many were right anyway; a wrong square counts only if vouched for."""
    from controller.bench.vision_tally import score_board, score_flagged
    from vision.board_read import SquareRead

    tally = Tally()
    truth = ["P", "P", "S", "empty"]
    squares = [SquareRead("P", 0.99, (), True), SquareRead("p", 0.99, (), True), SquareRead("G", 0.6, (), False)]
    squares.append(SquareRead("empty", 0.7, (), False))
    score_flagged(tally, truth, squares)
    assert (tally.squares_flagged, tally.flagged_right, tally.vouched_wrong) == (2, 1, 1)
    score_board(tally, truth + ["empty"] * 77, [s.label for s in squares] + ["empty"] * 77)
    args = argparse.Namespace(ink_sheen=0.0, n=1, size="960x720", owner_cue=False, occupancy_first=False)
    report(args, ["ryoko_1kanji"], tally, (0.2, 0.1), None)
    out = capsys.readouterr().out
    assert "clean squares flagged:  2.469 % (2/81)  (1 of them read right all the same)" in out
    assert "wrong but vouched for: 1 of 2 wrong" in out


def test_the_read_fitted_to_the_rules_is_scored_apart(capsys: pytest.CaptureFixture[str]) -> None:
    """A read with nifu is fitted (`controller.reconcile.setup_fit`): the fitted squares count in their own
    figures, the square mended and none spoilt; the reader's own figures are not the fitted ones."""
    import numpy as np

    from controller.bench.vision_tally import score_board, score_fit
    from vision.board_read import BoardRead, SquareRead
    from vision.labels import EMPTY, SQUARE_LABELS

    truth = [EMPTY] * 81
    truth[56], truth[38] = "P", "S"  # 7g, 7e
    probs = np.full((81, len(SQUARE_LABELS)), 1e-4)
    probs[:, SQUARE_LABELS.index(EMPTY)] = 1.0
    probs[56], probs[38] = 1e-4, 1e-4
    probs[56, SQUARE_LABELS.index("P")] = 1.0
    probs[38, SQUARE_LABELS.index("P")], probs[38, SQUARE_LABELS.index("S")] = 0.6, 0.4
    labels = [SQUARE_LABELS[int(j)] for j in probs.argmax(axis=1)]
    read = BoardRead(True, "", tuple(SquareRead(label, 0.9, (), True) for label in labels), probs, None)
    tally = Tally()
    score_board(tally, truth, read.labels)
    score_fit(tally, truth, read)
    assert (tally.squares_right, tally.boards_right) == (80, 0)
    assert (tally.fit_squares_right, tally.fit_boards_right, tally.fit_mended, tally.fit_spoilt) == (81, 1, 1, 0)
    args = argparse.Namespace(ink_sheen=0.0, n=1, size="960x720", owner_cue=False, occupancy_first=False)
    report(args, ["ryoko_1kanji"], tally, (0.2, 0.1), None)
    out = capsys.readouterr().out
    assert "square accuracy:        98.765 % (80/81)" in out
    assert (
        "fitted to the rules:    squares 100.000 % (81/81), boards 100.000 % (1/1); 1 squares mended, 0 spoilt" in out
    )


def test_the_interval_over_frames_holds_the_mean_and_widens_with_uneven_frames() -> None:
    """Frames all alike give a point; frames that differ give an interval round their mean, wider for one frame
    far off (a grid found one line off) than for the same wrong squares spread over many frames; the same figures
    give the same interval."""
    from controller.bench.vision_tally import frame_interval

    assert frame_interval([81.0] * 50) == (81.0, 81.0)
    spread = [80.0] * 40 + [81.0] * 160
    clustered = [81.0] * 199 + [41.0]
    for values in (spread, clustered):
        low, high = frame_interval(values)
        assert low < sum(values) / len(values) < high
        assert frame_interval(values) == (low, high)
    assert frame_interval(clustered)[0] < frame_interval(spread)[0]


def test_the_square_and_board_figures_carry_their_intervals(capsys: pytest.CaptureFixture[str]) -> None:
    """The report gives each of the two accuracy figures its interval over the frames scored."""
    from controller.bench.vision_tally import score_board

    args = argparse.Namespace(ink_sheen=0.0, n=2, size="960x720", owner_cue=False, occupancy_first=False)
    tally = Tally()
    truth = ["empty"] * 81
    score_board(tally, truth, truth)
    score_board(tally, truth, ["P", *truth[1:]])
    report(args, ["ryoko_1kanji"], tally, (0.2, 0.1), None)
    out = capsys.readouterr().out
    assert "square accuracy:        99.383 % (161/162)  (95 % interval over frames 98.765-100.000 %)" in out
    assert "board accuracy:         50.000 % (1/2)  (all 81 right; 95 % interval over frames 0.000-100.000 %)" in out
