"""`bench vision`'s clocked classifier: the time inside `predict` is added up, everything else passes through."""

from __future__ import annotations

import argparse

import numpy as np
import pytest

from controller.bench.classifier_clock import ClockedClassifier
from controller.bench.vision_bench import report
from controller.bench.vision_tally import Tally


class _Classifier:
    """A classifier stand-in whose predictions take a known number of clock ticks."""

    def __init__(self, clock: list[float]) -> None:
        self.clock = clock
        self.name = "stand-in"
        self.options: list[dict[str, bool]] = []

    def predict(self, crops: np.ndarray, **options: bool) -> int:
        self.options.append(options)
        self.clock[0] += 0.25 * len(crops)
        if len(crops) > 3:
            raise ValueError("too many crops")
        return len(crops)


def test_time_inside_predict_is_added_up_and_the_rest_passes_through() -> None:
    clock = [10.0]
    inner = _Classifier(clock)
    clocked = ClockedClassifier(inner, clock=lambda: clock[0])
    assert clocked.predict(np.zeros((2, 4, 4, 3)), features=False) == 2
    assert clocked.cpu_seconds == pytest.approx(0.5)
    with pytest.raises(ValueError, match="too many crops"):
        clocked.predict(np.zeros((4, 4, 4, 3)))
    assert clocked.cpu_seconds == pytest.approx(1.5)  # a call that raised is counted too
    assert inner.options == [{"features": False}, {}]
    assert clocked.name == "stand-in"


def test_the_report_gives_the_classifier_share_of_a_full_read(capsys: pytest.CaptureFixture[str]) -> None:
    args = argparse.Namespace(ink_sheen=0.0, n=3, size="960x720", owner_cue=False, occupancy_first=False)
    tally = Tally(read_ms=[60.0, 80.0, 70.0], read_cpu_ms=[60.0, 80.0, 70.0], read_classifier_ms=[30.0, 60.0, 49.0])
    report(args, ["ryoko_1kanji"], tally, (0.2, 0.1), None)
    out = capsys.readouterr().out
    assert "CPU median 70.0, of which the piece classifier 49.0 (70 %)" in out
