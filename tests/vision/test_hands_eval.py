"""The hand-count development tool's scoring (`vision.train.hands_eval`): per stand, 7 kinds, too low and too high
counted apart."""

from __future__ import annotations

from vision.train.hands_eval import HandTally, report, score_stand, side_hands


def test_side_hands_splits_a_frames_hands_by_player() -> None:
    hands = {"P": 3, "R": 1, "p": 2, "s": 1}
    assert side_hands(hands, "b") == {"P": 3, "R": 1}
    assert side_hands(hands, "w") == {"P": 2, "S": 1}


def test_score_stand_counts_every_kind_and_the_direction_of_each_error() -> None:
    tally = HandTally()
    score_stand(tally, "kanji_light", "b", {"P": 10, "S": 1}, {"P": 5, "G": 1, "S": 1})
    assert (tally.entries, tally.right, tally.under, tally.over) == (7, 5, 1, 1)
    assert tally.errors == {("kanji_light", "b", "P", 10, 5): 1, ("kanji_light", "b", "G", 0, 1): 1}
    text = report(tally)
    assert "5/7" in text and text.index("P: 10 read 5") < text.index("G: 0 read 1")  # the largest error first
