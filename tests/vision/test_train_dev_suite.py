"""The development suite (`vision.train.dev_suite`): the rule's verdict on figures recorded in
docs/classifier-training.md, the table, and one real (tiny) run of the reader on the training artwork."""

from __future__ import annotations

from pathlib import Path

import pytest

from vision.train import dev_suite
from vision.train.dev_suite import Figures, failures, load_figures, measure, save_figures, table

EG5 = Figures(
    {"plain2": 3098, "plain": 3138, "one": 3070, "artwork": 3239},
    dict.fromkeys(("plain2", "one", "artwork"), 0) | {"plain": 1},
    1044,
)
D7 = Figures(
    {"plain2": 3099, "plain": 3137, "one": 3069, "artwork": 3239},
    {"plain2": 1, "plain": 1, "one": 0, "artwork": 0},
    1042,
)
D9 = Figures(
    {"plain2": 3091, "plain": 3128, "one": 3057, "artwork": 3239},
    {"plain2": 1, "plain": 1, "one": 0, "artwork": 0},
    1038,
)
W5 = Figures(
    {"plain2": 3133, "plain": 3146, "one": 3060, "artwork": 3239},
    {"plain2": 0, "plain": 1, "one": 1, "artwork": 0},
    1043,
)


def test_the_rule_judges_the_recorded_candidates_as_the_sessions_did() -> None:
    """D7 passed the development clauses; W5 alone failed on the one-character family; D9 on five clauses."""
    assert failures(D7, EG5) == []
    assert failures(W5, EG5) == ["one 3060 < 3070 - 3"]
    assert failures(D9, EG5) == [
        "total 12515 < 12545 - 4",
        "plain2 3091 < 3098 - 3",
        "plain 3128 < 3138 - 3",
        "one 3057 < 3070 - 3",
        "hands 1038 < 1044 - 3",
    ]


def test_one_more_vouched_square_is_allowed_two_are_not() -> None:
    """Wrong squares read surely count per family, beside the squares right."""
    one_more = Figures(EG5.right, EG5.vouched | {"one": 1}, EG5.hands_right)
    two_more = Figures(EG5.right, EG5.vouched | {"one": 2}, EG5.hands_right)
    assert failures(one_more, EG5) == [] and failures(two_more, EG5) == ["one vouched 2 > 0 + 1"]


def test_table_shows_each_family_the_total_and_the_differences() -> None:
    """One row per family, then the total and the hands; with a baseline, the signed differences."""
    lines = table(D7, EG5).splitlines()
    assert lines[1].split() == ["plain2", "3099", "(1)", "3098", "(0)", "+1"]
    assert lines[5].split() == ["total", "12544", "12545", "-1"] and lines[6].split() == ["hands", "1042", "1044", "-2"]
    assert table(D7, None).splitlines()[5].split() == ["total", "12544"]


def test_a_tiny_run_reads_real_frames(monkeypatch: pytest.MonkeyPatch) -> None:
    """The suite's runs go through the real reader (the training artwork only, one frame each: no training fonts
    needed); what it says matches what it returns."""
    monkeypatch.setattr(dev_suite, "SQUARE_RUNS", (("artwork", 313),))
    monkeypatch.setattr(dev_suite, "HAND_RUNS", (("artwork", 5),))
    said: list[str] = []
    figures = measure(None, 1, said.append)
    assert set(figures.right) == {"artwork"} and 70 <= figures.right["artwork"] <= 81
    assert 0 <= figures.hands_right <= 14 and len(said) == 2
    assert said[0].startswith(f"artwork (seed 313): {figures.right['artwork']}/81 squares right")


def test_saved_figures_load_back_and_a_wrong_file_is_refused(tmp_path: Path) -> None:
    """`--save` and `--baseline-figures`: the figures round-trip; a file that does not hold them is a ValueError."""
    save_figures(EG5, tmp_path / "eg5.json")
    assert load_figures(tmp_path / "eg5.json") == EG5
    (tmp_path / "bad.json").write_text('{"right": {"one": 3}}')
    with pytest.raises(ValueError, match="not a development suite's figures"):
        load_figures(tmp_path / "bad.json")
