"""A board returned to an earlier position is reported as a takeback; the caller applies it."""

from __future__ import annotations

import cshogi
import pytest
from reconcile_scenes import after, decisions, feed, still

from controller.reconcile import GameStateError, NoChange, Reconciler, Takeback
from controller.reconcile.labels import board_hands, board_labels
from controller.reconcile.synthetic import SyntheticReader
from controller.rules.positions import STARTPOS_SFEN

PLAYED = ["7g7f", "3c3d", "2g2f"]


def _shown(moves: list[str], seed: int, start: float = 0.0, n: int = 6) -> tuple[Reconciler, list]:
    reconciler = Reconciler(moves=PLAYED)
    board = after(STARTPOS_SFEN, moves)
    results = feed(reconciler, still(SyntheticReader(seed), board_labels(board), board_hands(board), start, n))
    return reconciler, results


@pytest.mark.parametrize("plies", [1, 2, 3])
def test_return_to_earlier_position(plies: int) -> None:
    """The position of `plies` moves ago is reported as Takeback(plies), repeatedly; the game is unchanged."""
    reconciler, results = _shown(PLAYED[: len(PLAYED) - plies], seed=plies)
    found = decisions(results)
    assert found and all(r == Takeback(plies) for r in found)
    assert reconciler.moves == tuple(PLAYED)


def test_take_back_applies() -> None:
    """After `take_back`, the same board reads as no change."""
    reconciler, _ = _shown(PLAYED[:1], seed=4)
    reconciler.take_back(2)
    assert reconciler.moves == ("7g7f",)
    board = after(STARTPOS_SFEN, ["7g7f"])
    assert isinstance(reconciler.observe(SyntheticReader(5).observe_board(board, 9.0)), NoChange)


def test_different_move_after_taking_back() -> None:
    """The last move replaced by another is a takeback followed by that move."""
    reconciler, results = _shown([*PLAYED[:2], "6g6f"], seed=6)
    assert decisions(results)[-1] == Takeback(1, ("6g6f",))
    reconciler.take_back(1)
    reconciler.play(["6g6f"])
    assert reconciler.moves == ("7g7f", "3c3d", "6g6f")


def test_take_back_too_far_is_refused() -> None:
    """Taking back more moves than were played raises a clear error."""
    with pytest.raises(GameStateError, match="cannot take back 4 moves: 3 have been played"):
        Reconciler(moves=PLAYED).take_back(4)


def test_play_refuses_illegal_move() -> None:
    """Moves added by the caller are checked."""
    with pytest.raises(GameStateError, match="7g7e is not a legal move"):
        Reconciler().play(["7g7e"])


def test_repetition_is_not_a_takeback() -> None:
    """Shuffling kings back and forth moves the game on: a position seen before, reached by moves, commits them."""
    moves = ["5i5h", "5a5b", "5h5i", "5b5a"]
    reconciler = Reconciler()
    reader = SyntheticReader(7)
    board = cshogi.Board()
    committed: list[str] = []
    for move in moves:
        for result in decisions(feed(reconciler, reader.move_frames(board, [move], 10.0 * len(committed)))):
            committed.extend(result.moves)
    assert committed == moves


def test_replacement_move_commits_after_take_back() -> None:
    """Once the takeback is accepted, the board's different move is committed from the next frames."""
    board = after(STARTPOS_SFEN, [*PLAYED[:2], "6g6f"])
    reconciler, results = _shown([*PLAYED[:2], "6g6f"], seed=8)
    assert decisions(results)[-1] == Takeback(1, ("6g6f",))
    reconciler.take_back(1)
    reader = SyntheticReader(9)
    later = decisions(feed(reconciler, still(reader, board_labels(board), board_hands(board), 2.0, 4)))
    assert [r.moves for r in later] == [("6g6f",)]
