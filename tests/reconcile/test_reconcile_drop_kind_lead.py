"""A dropped piece's kind that only the board tells: committed when the read or the reader's habits tell it firmly,
asked when neither does (reconcile.drop_kinds.kind_untold)."""

from __future__ import annotations

from reconcile_scenes import after, decisions, feed, split_row, with_square

from controller.reconcile import Ambiguous, MoveCommitted, Reconciler, Result
from controller.reconcile.synthetic import NoiseModel, SyntheticReader

GOTE_HOLDS_RS = "4k1s2/1r7/9/9/9/9/9/9/4K4 w rs 1"
"""Gote to move, holding a rook and a silver; gote's rook on 8b and silver on 3a show the reader at work."""

ROOK_AS_READ = {"r": 0.92, "+b": 0.06, "s": 0.013}
"""How this set's rook reads (the one-ink fine-tune on benchmark game 17's set): mostly a rook, sometimes a
horse, a little silver."""


def _dropped_on_2i(
    read: dict[str, float],
    habit_frames: int = 60,
    *,
    reader_changed: bool = False,
    rook_as_read: dict[str, float] = ROOK_AS_READ,
) -> list[Result]:
    """Decisions after gote drops a piece on 2i read as `read`, once `habit_frames` frames of the position before
    taught the reconciler how this set's rook and silver read (`reader_changed`: and then the reader changed, so
    that the reconciler forgot them; `rook_as_read`: how this set's rook reads); gote's stand is out of view
    (sente's is read)."""
    reader = SyntheticReader(61, NoiseModel(stand_sides=("b",)))
    reconciler = Reconciler(sfen=GOTE_HOLDS_RS)
    board = after(GOTE_HOLDS_RS, [])
    rook = split_row(rook_as_read)
    feed(reconciler, [with_square(reader.observe_board(board, 0.1 * k), "8b", rook) for k in range(habit_frames)])
    if reader_changed:
        reconciler.reader_changed()
    reconciler.observe(reader.observe_board(board, 10.0, stable=False))
    board.push_usi("R*2i")  # the position is the same whichever kind was dropped but for 2i and the hands
    frames = [
        with_square(with_square(reader.observe_board(board, 10.1 + 0.1 * k), "8b", rook), "2i", split_row(read))
        for k in range(15)
    ]
    return decisions(feed(reconciler, frames))


def test_drop_kind_with_a_thin_lead_by_read_and_habits_is_asked() -> None:
    """Gote's rook dropped on 2i, read 89 % silver, 5 % rook, 6 % horse (benchmark game 17 with the one-ink
    fine-tune, which committed S*2i): the silver leads by about 2.9 as read and 3.2 by the fit to the habits'
    mean rows, and a silver of this set never shows the rook's 5 % while its rook shows about 1 % silver: by the
    habits the read is no more typical of a silver than of a rook. The kind is asked, the rook among the options."""
    results = _dropped_on_2i({"s": 0.89, "r": 0.05, "+b": 0.057})
    assert results and not any(isinstance(r, MoveCommitted) for r in results), results
    assert isinstance(results[-1], Ambiguous), results
    assert {("R*2i",), ("S*2i",)} <= {c.moves for c in results[-1].candidates}


def test_drop_kind_read_firmly_is_committed() -> None:
    """A silver dropped on 2i and read as one (99.9 %): S*2i is committed, nobody is asked."""
    results = _dropped_on_2i({"s": 0.999})
    assert [r.moves for r in results if isinstance(r, MoveCommitted)] == [("S*2i",)]
    assert not any(isinstance(r, Ambiguous) for r in results)


def test_drop_kind_the_habits_tell_firmly_is_committed() -> None:
    """The rook dropped on 2i read 85 % rook, 7 % horse, 6 % silver: the read alone does not tell the kind firmly
    (the rook leads by about 2.6), but this set's rook shows that much silver now and then and a silver never
    shows a rook: the habits tell it, and R*2i is committed."""
    results = _dropped_on_2i({"r": 0.85, "+b": 0.066, "s": 0.06})
    assert [r.moves for r in results if isinstance(r, MoveCommitted)] == [("R*2i",)]
    assert not any(isinstance(r, Ambiguous) for r in results)


def test_drop_kind_with_a_thin_lead_is_asked_while_the_habits_are_young() -> None:
    """The thin read of the first test after only 3 frames of the position: asked all the same."""
    results = _dropped_on_2i({"s": 0.89, "r": 0.05, "+b": 0.057}, habit_frames=3)
    assert results and not any(isinstance(r, MoveCommitted) for r in results), results
    assert isinstance(results[-1], Ambiguous), results


def test_drop_kind_with_a_thin_lead_is_asked_when_the_reader_just_changed() -> None:
    """The same thin read right after the reader changed (a piece set learnt again during the game: what the
    reconciler knew of the old reading is forgotten, and no habit is known yet). Development game 25 (a
    two-character set, `learn_set_again` on) committed N*6g for L*6g so: the lance read 85 % knight, 3 % lance,
    the knight ahead by 3.3 as read. With no habits to vouch for the read, a lead under `drop_kind_margin` is
    asked. Here the silver leads the rook by 3.4 as read: more than `habit_margin` (3.0), so the plain reading
    does not call the kinds confusable, and less than `drop_kind_margin` (4.6)."""
    results = _dropped_on_2i({"s": 0.92, "r": 0.03, "+b": 0.05}, reader_changed=True)
    assert results and not any(isinstance(r, MoveCommitted) for r in results), results
    assert isinstance(results[-1], Ambiguous), results
    assert {("R*2i",), ("S*2i",)} <= {c.moves for c in results[-1].candidates}


def test_drop_kind_the_young_habits_tell_is_asked() -> None:
    """A set whose rook reads as a rook 99 % and never as a silver, known from 10 frames only (fewer than
    `DECIDING_SQUARE_FRAMES`): the rook dropped on 2i reads 90 % silver, 4.5 % rook. As read, the silver leads by
    3.0; by the habits far more, since this set's rook never showed a silver. Habits that young do not vouch for a
    kind (development game 25, two-character set, learnt again mid-game: a lance read 83 % knight, 4 % lance,
    committed as a knight by the fit to lance and knight habits of 15 and 30 square-frames): the kind is asked.
    With the habits of 60 frames the same read is committed as a silver (`kind_untold` trusts habits that old)."""
    rook = {"r": 0.99, "+b": 0.01}
    read = {"s": 0.90, "r": 0.045, "+b": 0.055}
    young = _dropped_on_2i(read, habit_frames=10, rook_as_read=rook)
    assert young and not any(isinstance(r, MoveCommitted) for r in young), young
    assert isinstance(young[-1], Ambiguous), young
    assert {("R*2i",), ("S*2i",)} <= {c.moves for c in young[-1].candidates}
    grown = _dropped_on_2i(read, habit_frames=60, rook_as_read=rook)
    assert [r.moves for r in grown if isinstance(r, MoveCommitted)] == [("S*2i",)]
