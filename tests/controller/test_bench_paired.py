"""`bench vision --baseline`: two models read the same frames; squares tallied by which read them right."""

from __future__ import annotations

import argparse

import pytest

from controller.bench.paired import PairedTally, mcnemar_p, paired_labels
from controller.bench.vision_bench import read_paired
from controller.bench.vision_tally import scored_settings


def test_mcnemar_exact_p_values() -> None:
    """Binomial tails at one half, two-sided, capped at 1."""
    assert mcnemar_p(0, 0) == 1.0
    assert mcnemar_p(3, 3) == 1.0
    assert mcnemar_p(0, 5) == pytest.approx(2 / 32)
    assert mcnemar_p(1, 9) == pytest.approx(2 * 11 / 1024)
    assert mcnemar_p(9, 1) == mcnemar_p(1, 9)
    assert mcnemar_p(40, 31) == pytest.approx(0.3425, abs=1e-3)  # normal approximation, continuity corrected
    assert mcnemar_p(0, 2000) == 0.0  # underflows to zero, no overflow


def test_mcnemar_refuses_negative_counts() -> None:
    with pytest.raises(ValueError, match="negative"):
        mcnemar_p(-1, 3)


def test_paired_tally_counts_squares_by_which_model_read_them_right() -> None:
    truth = ["P", "empty", "k", "+R"] + ["empty"] * 77
    model = ["P", "empty", "g", "+R"] + ["empty"] * 77
    baseline = ["L", "empty", "k", "+R"] + ["empty"] * 77
    tally = PairedTally()
    tally.add(truth, model, baseline)
    tally.add(truth, truth, truth)
    assert (tally.model_only, tally.baseline_only, tally.neither, tally.both) == (1, 1, 0, 80 + 81 - 1)
    assert (tally.boards, tally.boards_model, tally.boards_baseline) == (2, 1, 1)


def test_a_model_paired_with_itself_agrees_on_every_square() -> None:
    """The same classifier as model and baseline: every square is right by both or by neither."""
    from vision.classifier import PieceClassifier
    from vision.render import RenderOptions, render_position

    frame = render_position(
        "ln1g3nl/1ks2rg2/1ppp1s1p1/p3ppp1p/9/P1PP1PP1P/1PS1PS3/1KG2G1R1/LN5NL b Pp",
        RenderOptions.fast(style="ryoko_1kanji", seed=3, size=(640, 480)),
    )
    args = argparse.Namespace(owner_cue=False, occupancy_first=False, shifted_looks=True)
    classifier = PieceClassifier()
    tally = PairedTally()
    labels = paired_labels(classifier, frame, scored_settings(args, frame))
    assert labels is not None
    read_paired(args, (tally, classifier), labels, frame)
    assert tally.boards == 1
    assert tally.model_only == tally.baseline_only == 0
    assert tally.both + tally.neither == 81
    assert tally.both > 60
