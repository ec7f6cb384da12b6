"""A hand at the board's edge hides no square, yet its arm crosses the rim: a move next to an edge square whose
rim differs from the rim when the position was last confirmed waits for the hand to go (`EdgeWatch`); a rim
changed for `doubt_seconds` on still frames (something left there) no longer holds a move."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

import cshogi
from reconcile_scenes import board_frames_with_square, committing_index, feed, split_row

from controller.reconcile import MoveCommitted, Observation, Reconciler, Waiting
from controller.reconcile.edge_watch import EdgeWatch
from controller.reconcile.labels import square_index
from controller.reconcile.synthetic import SyntheticReader


@dataclass(frozen=True)
class Rim:
    """A rim whose segments next to `marked` edge squares look different from an unmarked rim's."""

    marked: frozenset[int] = frozenset()

    def changed_since(self, reference: Any) -> frozenset[int]:
        return self.marked ^ reference.marked


CLEAR = Rim()
ARM_AT_9F = Rim(frozenset({square_index("9f"), square_index("9g")}))


def _after(move: str) -> cshogi.Board:
    board = cshogi.Board()
    board.push_usi(move)
    return board


def _confirmed_start(reader: SyntheticReader) -> list[Observation]:
    """Still frames of the start (confirming it, rim clear), then a frame with motion."""
    start = [dataclasses.replace(reader.observe_board(cshogi.Board(), 0.1 * k), rim=CLEAR) for k in range(4)]
    return [*start, dataclasses.replace(start[-1], stable=False, time=0.5)]


def _moved(reader: SyntheticReader, rim: Rim, n: int, t0: float) -> list[Observation]:
    """Frames of 9g9f made, the pawn on 9f read clearly (0.9), with `rim`."""
    frames = board_frames_with_square(reader, _after("9g9f"), "9f", split_row({"P": 0.9}), n)
    return [dataclasses.replace(f, rim=rim, time=t0 + f.time) for f in frames]


def test_a_move_beside_a_changed_rim_waits_for_the_hand() -> None:
    """9g9f read clearly, no square hidden, but the rim by 9f and 9g differs from the confirmed start's (the
    fingers over the rim holding the pawn): nothing is committed, the wait names 9f; committed once the rim is
    clear again."""
    reader = SyntheticReader(5)
    before = _confirmed_start(reader)
    held = _moved(reader, ARM_AT_9F, 12, 1.0)
    gone = _moved(reader, CLEAR, 6, 2.5)
    reconciler = Reconciler()
    results = feed(reconciler, [*before, *held, *gone])
    assert not any(isinstance(r, MoveCommitted) for r in results[: len(before) + len(held)])
    last_held = results[len(before) + len(held) - 1]
    assert isinstance(last_held, Waiting) and "9f" in last_held.reason
    assert reconciler.moves == ("9g9f",)


def test_a_move_away_from_the_changed_rim_is_committed_on_agreement() -> None:
    """The rim differs by 1c (a hand far off): 9g9f is committed as if the rim were clear."""
    reader = SyntheticReader(5)
    before = _confirmed_start(reader)
    moved = _moved(reader, Rim(frozenset({square_index("1c")})), 6, 1.0)
    results = feed(Reconciler(), [*before, *moved])
    assert [i for i, r in enumerate(results) if isinstance(r, MoveCommitted)] == [len(before) + committing_index(moved)]


def test_without_a_confirmed_rim_nothing_is_held() -> None:
    """Frames that carry no rim (a reader that does not read it): 9g9f is committed on agreement."""
    reader = SyntheticReader(5)
    before = [dataclasses.replace(f, rim=None) for f in _confirmed_start(reader)]
    moved = [dataclasses.replace(f, rim=None) for f in _moved(reader, ARM_AT_9F, 6, 1.0)]
    results = feed(Reconciler(), [*before, *moved])
    assert [i for i, r in enumerate(results) if isinstance(r, MoveCommitted)] == [len(before) + committing_index(moved)]


def test_a_rim_changed_for_long_stops_counting() -> None:
    """The edge watch names the changed edge squares until `lasting_seconds` after the frames became still,
    whether or not the difference comes and goes; motion starts the count again; the next confirmed rim becomes
    the reference."""
    watch = EdgeWatch(3.0)
    assert watch.near(ARM_AT_9F, 0.0) == frozenset()  # nothing confirmed yet
    watch.confirm(CLEAR)
    watch.moving()
    assert watch.near(ARM_AT_9F, 1.0) == ARM_AT_9F.marked
    assert watch.near(CLEAR, 2.0) == frozenset()
    assert watch.near(ARM_AT_9F, 3.9) == ARM_AT_9F.marked
    assert watch.near(ARM_AT_9F, 4.0) == frozenset()
    watch.moving()
    assert watch.near(ARM_AT_9F, 5.0) == ARM_AT_9F.marked
    watch.confirm(ARM_AT_9F)
    assert watch.near(ARM_AT_9F, 5.1) == frozenset()
    assert watch.near(CLEAR, 5.2) == ARM_AT_9F.marked


def test_a_flickering_rim_difference_holds_a_move_only_for_a_while() -> None:
    """The rim by 9f differs on every other still frame after 9g9f (a difference at the edge of the threshold):
    the move is committed once `doubt_seconds` have passed since the frames became still."""
    reader = SyntheticReader(5)
    before = _confirmed_start(reader)
    moved = _moved(reader, CLEAR, 60, 1.0)
    moved = [dataclasses.replace(f, rim=ARM_AT_9F if k % 2 else CLEAR) for k, f in enumerate(moved)]
    reconciler = Reconciler()
    results = feed(reconciler, [*before, *moved])
    committed = [moved[i - len(before)].time for i, r in enumerate(results) if isinstance(r, MoveCommitted)]
    assert reconciler.moves == ("9g9f",)
    assert committed[0] - moved[0].time >= 3.0
