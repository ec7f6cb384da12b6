"""`bench vision`'s report: a calibration that failed is said so, and the other figures are still printed."""

from __future__ import annotations

import argparse

import pytest

from controller.bench.vision_bench import Tally, report
from vision.errors import CalibrationError


def test_a_failed_calibration_is_reported_beside_the_other_figures(capsys: pytest.CaptureFixture[str]) -> None:
    args = argparse.Namespace(ink_sheen=0.0, n=1, size="960x720", owner_cue=False, occupancy_first=False)
    tally = Tally(squares=81, squares_right=80, boards=1)
    report(args, ["ryoko_1kanji"], tally, (0.2, 0.1), CalibrationError("flipped photo: board not found"))
    out = capsys.readouterr().out
    assert "square accuracy:        98.765 %" in out
    assert "calibrated (ryoko_1kanji):  not calibrated: flipped photo: board not found" in out
