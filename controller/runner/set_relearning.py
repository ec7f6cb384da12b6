"""Learning the piece set again as the game goes: the worker's side (`VisionLearning`: the examples kept, the set
fitted again) and the loop's (`LaterState`: the places learnt, how steady the position is, the learnings'
numbers), and the hook on the shell's loop (`watch_confirmed`). Used by `controller.runner.set_learning`, whose
docstring says how it works; which squares are learnt is `controller.runner.set_places`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from controller.reconcile.types import NoChange, Observation, Result
from controller.runner.set_places import START_SQUARES, Places

STANDARD_BOARD = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL"
"""The board field of the standard start (its examples are learning 0)."""

STEADY_FRAMES = 3
"""A position is learnt from once it was confirmed on this many reads in a row."""
MAX_FAILURES = 3
"""Later learnings that may fail in one game before the set is no longer learnt again in it."""


@dataclass(frozen=True)
class LaterJob:
    """One later learning: learn `squares` of `board_field` from `frame` (on the reader's `geometry`) as learning
    `part`, keep the earlier learnings `keep` (part numbers; 0 is the start's), and fit the set again."""

    frame: Any
    geometry: Any
    board_field: str
    squares: tuple[int, ...]
    part: int
    keep: tuple[int, ...]
    ply: int = 0
    """The position's ply (moves played), for reports."""


@runtime_checkable
class LearnsMore(Protocol):
    """A `Learn` that can also learn from later positions (`VisionLearning`)."""

    def __call__(self, frame: Any, sente_side: Any) -> Any:
        """Learn from the start frame (and keep its examples)."""
        ...

    def more(self, job: LaterJob) -> Any:
        """Learn from a later position too; the calibration fitted on all kept examples."""
        ...


class VisionLearning:
    """The real learning: `calibrate_with_examples(start, None, ...)` from the start frame, then `position_examples`
    and `refit` from later positions (`more`), keeping the examples of the start and of each later learning (not
    the frames), and how the set learnt so far read each later position before learning from it (to weigh the
    generic classifier, the set model and the appearance model on squares none of them was fitted on). Used by
    one worker thread at a time (the reader runs one learning at once), on a classifier of its own, made once:
    OpenCV's network is not safe to run from two threads at once."""

    def __init__(self, new_classifier: Callable[[], Any]) -> None:
        self._new_classifier = new_classifier
        self._classifier: Any = None
        self._start: tuple[Any, Any] | None = None
        self._later: dict[int, Any] = {}
        self._current: Any = None

    def __call__(self, frame: Any, sente_side: Any) -> Any:
        """Learn from a start frame (a new game: later learnings are forgotten)."""
        from vision.calibration import calibrate_with_examples

        calibration, examples = calibrate_with_examples(frame, None, self._network(), sente_side=sente_side)
        self._start, self._later, self._current = (calibration, examples), {}, calibration
        return calibration

    def more(self, job: LaterJob) -> Any:
        """Keep the learnings `job.keep`, add `job.squares` of its position, fit the set again on all of them."""
        from vision.set_examples import SetExamples
        from vision.set_relearn import position_examples, refit

        if self._start is None:
            raise RuntimeError("no start position was learnt in this game")
        self._later = {part: kept for part, kept in self._later.items() if part in job.keep}
        if job.squares:
            self._later[job.part] = position_examples(
                job.frame,
                job.geometry,
                job.board_field,
                job.squares,
                self._network(),
                seed=job.part,
                current=self._current,
            )
        calibration, examples = self._start
        self._current = refit(calibration, SetExamples.join([examples, *self._later.values()]))
        return self._current

    @property
    def nbytes(self) -> int:
        """Memory the kept examples hold."""
        start = [] if self._start is None else [self._start[1]]
        return sum(int(examples.nbytes) for examples in [*start, *self._later.values()])

    def _network(self) -> Any:
        if self._classifier is None:
            self._classifier = self._new_classifier()
        return self._classifier


class LaterState:
    """The loop's side of learning again in one game: the places learnt, the steady count, the learnings' numbers."""

    def __init__(self, save_to: Path | None = None) -> None:
        self.save_to = save_to
        self.places = Places()
        self.active = False
        """The start was learnt in this game, and learning again has not failed too often."""
        self.key: tuple[str, tuple[str, ...]] | None = None
        self.at_read = -1
        self.steady = 0
        self.stale = False
        """Learnings were forgotten since the set was last fitted."""
        self.done: set[str] = set()
        """Board fields already learnt from (a position shown again is not learnt twice)."""
        self.failures = 0
        self._next_part = 1

    def start_learnt(self) -> None:
        """The start's examples are part 0 (`VisionLearning` keeps them)."""
        self.places.add(0, (), STANDARD_BOARD, START_SQUARES)
        self.active = True

    def job(self, frame: Any, geometry: Any, field: str, squares: Sequence[int], moves: tuple[str, ...]) -> LaterJob:
        """The next learning's job (its places are counted as learnt from now on, forgotten if it fails), with the
        oldest later learnings over the bound forgotten."""
        part, self._next_part = self._next_part, self._next_part + 1
        self.places.add(part, moves, field, squares)
        for old in self.places.over_bound():
            self.places.drop(old)
        keep = tuple(p for p in self.places.parts if p != part)
        return LaterJob(frame, geometry, field, tuple(squares), part, keep, len(moves))


class _Watched(Protocol):
    """The reconciler as `watch_confirmed` needs it (`controller.reconcile.Reconciler`)."""

    @property
    def sfen(self) -> str:
        """The game's position."""
        ...

    @property
    def moves(self) -> tuple[str, ...]:
        """The moves played."""
        ...

    def observe(self, obs: Observation) -> Result:
        """Take one observation."""
        ...

    def set_position(self, sfen: str, moves: Iterable[str] = ()) -> None:
        """Resynchronise with the game."""
        ...

    def expect(self, move: str | None) -> None:
        """Announce the opponent's move."""
        ...

    def decide_now(self) -> None:
        """Decide on the next stable frame."""
        ...


@runtime_checkable
class ConfirmsPositions(Protocol):
    """A reader that learns from the positions the game confirms (`StartLearningReader`)."""

    again: bool
    """Whether it learns from later positions at all (`[vision] learn_set_again`)."""

    def position_confirmed(self, sfen: str, moves: Sequence[str]) -> bool:
        """The frame just read showed the game's position."""
        ...


class ConfirmedWatch:
    """The reconciler as the shell's loop sees it, telling the learning reader of every position it confirms."""

    def __init__(self, reconciler: _Watched, reader: ConfirmsPositions) -> None:
        self._reconciler, self._reader = reconciler, reader

    def observe(self, obs: Observation) -> Result:
        """Observe; after a `NoChange`, tell the reader the position it showed."""
        result = self._reconciler.observe(obs)
        if isinstance(result, NoChange):
            self._reader.position_confirmed(self._reconciler.sfen, self._reconciler.moves)
        return result

    def set_position(self, sfen: str, moves: Iterable[str] = ()) -> None:
        """As the reconciler's."""
        self._reconciler.set_position(sfen, moves)

    def expect(self, move: str | None) -> None:
        """As the reconciler's."""
        self._reconciler.expect(move)

    def decide_now(self) -> None:
        """As the reconciler's."""
        self._reconciler.decide_now()


def watch_confirmed(reconciler: _Watched, eyes: Any) -> _Watched | ConfirmedWatch:
    """The reconciler for the shell: watched (`ConfirmedWatch`) when the eyes' reader learns the set again from
    later positions, else itself (nothing to tell, no bookkeeping per frame)."""
    reader = getattr(eyes, "reader", None)
    return ConfirmedWatch(reconciler, reader) if isinstance(reader, ConfirmsPositions) and reader.again else reconciler
