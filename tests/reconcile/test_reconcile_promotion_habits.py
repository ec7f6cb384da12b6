"""A face read firmly unpromoted (or promoted) settles a promotion only if it looks like this set's piece.

Where the habits know how the reader reads the chosen face on this set, the window's read must fit that habit
better than the rejected face by `commit_margin`: a face read as some other unpromoted kind, unlike this set's
lance, does not tell that the lance declined (the game benchmark's false 1c1g for 1c1g+).
"""

from __future__ import annotations

import dataclasses

from reconcile_scenes import after, board_frames_with_square, decisions, feed, split_row

from controller.reconcile import Ambiguous, MoveCommitted, Reconciler, Result
from controller.reconcile.synthetic import SyntheticReader

LANCE_ON_9I = "4k4/9/9/9/9/9/9/9/L3K4 b - 1"


def _after_confirmed_lance(move: str, weights: dict[str, float], seed: int) -> list[Result]:
    """Decisions over 15 frames after `move` (9i to 9c), 9c read as `weights`, once 8 frames of the start (the
    lance read as itself) have taught the habits how this reader reads this set's lance."""
    reader = SyntheticReader(seed)
    reconciler = Reconciler(sfen=LANCE_ON_9I)
    feed(reconciler, [reader.observe_board(after(LANCE_ON_9I, []), 0.1 * k) for k in range(8)])
    frames = board_frames_with_square(reader, after(LANCE_ON_9I, [move]), "9c", split_row(weights), 15)
    return decisions(feed(reconciler, [dataclasses.replace(f, time=2.0 + f.time) for f in frames]))


def test_unpromoted_face_unlike_this_sets_lance_is_asked() -> None:
    """9i9c+ with 9c read as a pawn 55 %, a silver 25 %, a lance 4 % and a promoted lance 3 %: the face is firmly
    unpromoted, but nothing like the lance this reader has been reading on this set, so the promotion is asked
    rather than 9i9c committed."""
    results = _after_confirmed_lance("9i9c+", {"P": 0.55, "S": 0.25, "L": 0.04, "+L": 0.03}, seed=70)
    assert results and not any(isinstance(r, MoveCommitted) for r in results)
    assert isinstance(results[-1], Ambiguous)
    assert {c.text for c in results[-1].candidates} == {"9i9c", "9i9c+"}


def test_unpromoted_face_like_this_sets_lance_commits_the_declined_move() -> None:
    """9i9c with 9c read as a lance 80 %, a pawn 8 % and a promoted lance 2 %, as this set's lance reads: the face
    is unpromoted and fits the lance, so 9i9c is committed without a question."""
    results = _after_confirmed_lance("9i9c", {"L": 0.8, "P": 0.08, "+L": 0.02}, seed=71)
    assert [r.moves for r in results if isinstance(r, MoveCommitted)] == [("9i9c",)]
    assert not any(isinstance(r, Ambiguous) for r in results)
