"""The engine's evaluation as the web page shows it: from sente's side, mates named by winner."""

from __future__ import annotations

import pytest

from controller.engines.protocol import Score
from controller.runner.opponent import evaluation_text


@pytest.mark.parametrize(
    ("score", "sente_to_move", "text"),
    [
        (Score(cp=350), True, "+350 for sente"),
        (Score(cp=350), False, "+350 for gote"),
        (Score(cp=-120), True, "+120 for gote"),
        (Score(cp=-120), False, "+120 for sente"),
        (Score(cp=0), True, "+0 for sente"),
        (Score(mate_sign=1, mate_plies=5), False, "mate in 5 for gote"),
        (Score(mate_sign=-1), True, "mate for gote"),
        (None, True, None),
    ],
)
def test_scores_read_from_sentes_side(score: Score | None, sente_to_move: bool, text: str | None) -> None:
    """A score from the side to move's view is turned to the page's wording."""
    assert evaluation_text(score, sente_to_move=sente_to_move) == text
