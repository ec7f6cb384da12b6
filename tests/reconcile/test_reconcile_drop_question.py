"""A move question where a drop's kind is misread: the move played is among the options (reconcile.questions)."""

from __future__ import annotations

from reconcile_scenes import after, board_frames_with_square, decisions, feed, split_row

from controller.reconcile import Ambiguous, MoveCommitted, Reconciler
from controller.reconcile.synthetic import NoiseModel, SyntheticReader

HOLDS_RLS = "4k4/4p4/9/9/9/9/9/9/4K4 b RLS 1"
"""Sente holds a rook, a lance and a silver; gote has a pawn on 5b."""


def _asked(sfen: str, moves: list[str], square: str, weights: dict[str, float]) -> list[tuple[str, ...]]:
    """The options of the question asked after `moves` (between two reads), `square` read as `weights`, the
    stands out of view (a stand would tell the kind that left it)."""
    reader = SyntheticReader(31, NoiseModel(hands_visible=False))
    frames = board_frames_with_square(reader, after(sfen, moves), square, split_row(weights), 20)
    results = decisions(feed(Reconciler(sfen=sfen), frames))
    assert results and not any(isinstance(r, MoveCommitted) for r in results), results
    assert isinstance(results[-1], Ambiguous), results
    return [c.moves for c in results[-1].candidates]


def test_two_moves_with_a_drop_read_as_two_other_kinds_offer_the_true_pair() -> None:
    """R*5e then 5b5c between reads, the rook read as a lance or a silver (never a rook): the pair with the rook
    is offered beside the pairs the board fits."""
    options = _asked(HOLDS_RLS, ["R*5e", "5b5c"], "5e", {"L": 0.5, "S": 0.46})
    assert ("R*5e", "5b5c") in options
    assert {("L*5e", "5b5c"), ("S*5e", "5b5c")} <= set(options)


def test_single_drop_read_as_two_other_kinds_offers_the_held_kind() -> None:
    """R*5e alone, read as a lance or a silver: the rook drop is offered too."""
    options = _asked(HOLDS_RLS, ["R*5e"], "5e", {"L": 0.5, "S": 0.46})
    assert ("R*5e",) in options and ("L*5e",) in options and ("S*5e",) in options


def test_drop_taken_at_once_offers_every_held_kind() -> None:
    """Gote drops on 9g and sente's lance takes the piece at once, between reads (bench game 17): no picture
    shows the dropped kind, so each of gote's five held kinds is offered (more than `max_candidates`)."""
    sfen = "4k4/9/9/9/9/9/9/9/L3K4 w gsnlp 1"
    frames = board_frames_with_square(
        SyntheticReader(32, NoiseModel(hands_visible=False)),
        after(sfen, ["P*9g", "9i9g"]),
        "9g",
        split_row({"L": 0.98}),
        20,
    )
    results = decisions(feed(Reconciler(sfen=sfen), frames))
    assert isinstance(results[-1], Ambiguous), results
    options = {c.moves for c in results[-1].candidates}
    assert {(f"{kind}*9g", "9i9g") for kind in "GSNLP"} <= options


GOTE_HOLDS_BL = "4k4/9/9/9/9/9/9/9/4K4 w bl 1"
"""Gote to move, holding a bishop and a lance; the corners are empty."""


def _read_as_lance(sfen: str, move: str, square: str, hands_visible: bool = False) -> list[object]:
    """The decisions after `move`, the dropped piece read firmly as gote's lance."""
    reader = SyntheticReader(33, NoiseModel(hands_visible=hands_visible))
    frames = board_frames_with_square(reader, after(sfen, [move]), square, split_row({"l": 0.95}), 20)
    return list(decisions(feed(Reconciler(sfen=sfen), frames)))


def test_drop_on_a_corner_read_as_a_lance_is_asked() -> None:
    """Gote drops a bishop on its corner 9a, read firmly as a lance (the reader knows lances only on corners; bench
    game 13 committed L*9a so), the stands out of view: the kind is asked, the bishop among the options."""
    results = _read_as_lance(GOTE_HOLDS_BL, "B*9a", "9a")
    assert results and not any(isinstance(r, MoveCommitted) for r in results), results
    assert isinstance(results[-1], Ambiguous), results
    assert {("B*9a",), ("L*9a",)} <= {c.moves for c in results[-1].candidates}


def test_lance_drop_read_as_a_lance_off_the_corners_or_told_by_the_stand_is_committed() -> None:
    """The same read one square down (9b), or on the corner with the stands in view (the lance gone from gote's
    stand, the bishop still there): L is committed at once, nobody is asked."""
    for square, visible in (("9b", False), ("9a", True)):
        results = _read_as_lance(GOTE_HOLDS_BL, f"L*{square}", square, visible)
        assert [r.moves for r in results if isinstance(r, MoveCommitted)] == [(f"L*{square}",)], (square, results)
        assert not any(isinstance(r, Ambiguous) for r in results)
