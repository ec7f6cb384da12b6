"""The reader learns the piece set from the game's own starting position, while the game goes on.

Every game starts from a position the setup check confirms. When that is the standard start, the confirming
frame is a free calibration photo of the set's unpromoted faces, in the very camera pose of the game: exactly the
faces a drop shows. `vision.calibration.calibrate(start, None, ...)` learns from it (about 4 s on one core here,
so on a worker thread with its own classifier instance: OpenCV's network is not safe to run from two threads at
once, and the reader must not wait); the reader uses the result from the first frame after it is ready.

Owns: `StartLearningReader`, a `vision.reader.BoardReader` wrapper that keeps the last frame it read, starts the
learning when told the start is confirmed (`start_confirmed`), installs the result on the loop's own thread (in
`read`), and gives way to the user's calibration (a file loaded at start-up, or the page's two-photo calibration
through `use_calibration`): that one always wins. A failed learning (board not found, `CalibrationError`, any
error of the learning) is logged and said, and the reader goes on with what it had. Only the standard start is
learnt from (`calibrate` knows no other position): a handicap or a given SFEN plays on the generic classifier.
A resumed game does not start from its start position: it reads with the set its first session learnt and saved
beside the journal (`learnt_set_path`), if any (`use_learnt`).
Whenever the reader's calibration changes, `on_change` is called on the loop's own thread (from the next `read`):
the reconciler forgets the habits it learnt of the old reading (`Reconciler.reader_changed`).

The set is learnt again as the game goes (`position_confirmed`, told by the loop after each stable frame the
reconciler found showing its position, its `NoChange`; `watch_confirmed` does it for the shell's loop): once a
position has been confirmed on `STEADY_FRAMES` reads in a row, the squares of it worth learning
(`controller.runner.set_places`: pieces on squares, or faces, never learnt near there; squares the reader gave
little to what stands there) are cut from the last of those frames on the grid the reader found, and the set
model is fitted again on the start's examples and those of every such position (`VisionLearning`: the features
of the examples are kept, not the frames; bounded by `set_places.MAX_LATER_SQUARES`), on the worker thread as at
the start. A learning from a position the game later leaves by a takeback (its moves no longer all played) is
forgotten, and the set fitted again without it. Only a set learnt from this game's start is learnt again (not a
resumed game's, nor the user's calibration).
"""

from __future__ import annotations

import enum
import logging
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np

from controller.reconcile.types import NoChange, Observation, Result
from controller.rules.positions import STARTPOS_SFEN
from controller.runner.set_places import START_SQUARES, Places

log = logging.getLogger(__name__)

STANDARD_BOARD = STARTPOS_SFEN.split()[0]
"""The board field of the one position the set is learnt from."""

Learn = Callable[[Any, Any], Any]
"""Learns a calibration from a start frame and the reader's sente side (`vision_learn`, or a stand-in)."""

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


class Reader(Protocol):
    """`vision.reader.BoardReader`, as far as the learning uses it."""

    def read(self, image: Any) -> Any:
        """Read one frame."""
        ...

    def use_calibration(self, calibration: Any) -> None:
        """Read with this calibration from the next frame on."""
        ...


class SetSource(enum.Enum):
    """Where the reader's piece-set knowledge comes from now."""

    GENERIC = "generic"
    LEARNT = "learnt"
    """Learnt from a confirmed starting position of a game."""
    USER = "user"
    """The user's calibration (a file given at start-up, or the page's two photos): never replaced here."""


@dataclass(frozen=True)
class Outcome:
    """How one learning ended: the calibration (None when it failed), the time it took, the reason of a
    failure; for a later learning, its job."""

    calibration: Any
    seconds: float
    error: str = ""
    job: LaterJob | None = None

    def describe(self) -> str:
        """One line for logs and reports."""
        if self.job is not None:
            what = f"the position at ply {self.job.ply} ({len(self.job.squares)} squares)"
            if self.calibration is None:
                return f"piece set: learning again from {what} failed after {self.seconds:.1f} s ({self.error})"
            return f"piece set: learnt again from {what} in {self.seconds:.1f} s"
        if self.calibration is None:
            return f"piece set: learning from the start position failed after {self.seconds:.1f} s ({self.error})"
        return f"piece set: learnt from the start position in {self.seconds:.1f} s"


def learnt_set_path(base: Path) -> Path:
    """Where a game's learnt set is saved, beside its journal and records (`base`: their path without suffix)."""
    return base.with_name(base.name + ".piece-set.json")


def vision_learn(new_classifier: Callable[[], Any]) -> VisionLearning:
    """The real learning (`VisionLearning`), on a classifier of its own made by `new_classifier` (from the
    reader's model)."""
    return VisionLearning(new_classifier)


class VisionLearning:
    """The real learning: `calibrate_with_examples(start, None, ...)` from the start frame, then `position_examples`
    and `refit` from later positions (`more`), keeping the examples of the start and of each later learning (not
    the frames). Used by one worker thread at a time (the reader runs one learning at once), on a classifier of
    its own, made once: OpenCV's network is not safe to run from two threads at once."""

    def __init__(self, new_classifier: Callable[[], Any]) -> None:
        self._new_classifier = new_classifier
        self._classifier: Any = None
        self._start: tuple[Any, Any] | None = None
        self._later: dict[int, Any] = {}

    def __call__(self, frame: Any, sente_side: Any) -> Any:
        """Learn from a start frame (a new game: later learnings are forgotten)."""
        from vision.calibration import calibrate_with_examples

        calibration, examples = calibrate_with_examples(frame, None, self._network(), sente_side=sente_side)
        self._start, self._later = (calibration, examples), {}
        return calibration

    def more(self, job: LaterJob) -> Any:
        """Keep the learnings `job.keep`, add `job.squares` of its position, fit the set again on all of them."""
        from vision.calibration import SetExamples, position_examples, refit

        if self._start is None:
            raise RuntimeError("no start position was learnt in this game")
        self._later = {part: kept for part, kept in self._later.items() if part in job.keep}
        if job.squares:
            self._later[job.part] = position_examples(
                job.frame, job.geometry, job.board_field, job.squares, self._network(), seed=job.part
            )
        calibration, examples = self._start
        return refit(calibration, SetExamples.join([examples, *self._later.values()]))

    @property
    def nbytes(self) -> int:
        """Memory the kept examples hold."""
        start = [] if self._start is None else [self._start[1]]
        return sum(int(examples.nbytes) for examples in [*start, *self._later.values()])

    def _network(self) -> Any:
        if self._classifier is None:
            self._classifier = self._new_classifier()
        return self._classifier


def _on_a_thread(job: Callable[[], None]) -> threading.Thread:
    thread = threading.Thread(target=job, name="learn-piece-set", daemon=True)
    thread.start()
    return thread


class StartLearningReader:
    """A board reader that learns the piece set from each confirmed standard start (see the module)."""

    def __init__(
        self,
        reader: Any,
        learn: Learn,
        *,
        enabled: bool = True,
        user_calibration: bool = False,
        say: Callable[[str], None] | None = None,
        spawn: Callable[[Callable[[], None]], threading.Thread] = _on_a_thread,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        """`reader`: the `BoardReader`; `learn`: `vision_learn(...)`; `enabled`: learn at all (config
        `[vision] learn_set`); `user_calibration`: the reader already has the user's calibration (it wins); `say`:
        where the outcome is told (the loop's thread); `spawn`: runs the learning off the loop."""
        self._reader, self._learn, self._spawn, self._clock = reader, learn, spawn, clock
        self.enabled = enabled
        """Learn at all (`[vision] learn_set`)."""
        self.say = say
        """Where each learning's outcome is told (on the loop's thread), if anywhere."""
        self.source = SetSource.USER if user_calibration else SetSource.GENERIC
        self.outcomes: list[Outcome] = []
        """Every learning's outcome, in order (for figures and tests)."""
        self.on_change: Callable[[], None] | None = None
        """Called on the loop's thread (in `read`) after the reader's calibration changed."""
        self._changed = False
        self._last_frame: Any = None
        self._last_read: Any = None
        self._reads = 0
        self._thread: threading.Thread | None = None
        self._ready: list[Outcome] = []
        self._lock = threading.Lock()
        self._more = _Later()

    # --- the reader's own interface -----------------------------------------------------------------------

    @property
    def inner(self) -> Any:
        """The wrapped reader."""
        return self._reader

    @property
    def classifier(self) -> Any:
        """The generic classifier (the page's calibration learns on its features)."""
        return self._reader.classifier

    @property
    def settings(self) -> Any:
        """The reader's settings."""
        return self._reader.settings

    def reset(self) -> None:
        """Forget the grid (the next read searches for it again)."""
        self._reader.reset()

    def use_calibration(self, calibration: Any) -> None:
        """The user's calibration (the page's): used from the next frame on, and never replaced by a learnt one
        (a learning still running is discarded when it ends)."""
        self.source = SetSource.USER
        self._reader.use_calibration(calibration)
        self._mark_changed()

    def read(self, image: Any) -> Any:
        """Read one frame, first taking up a learnt calibration that has become ready (and telling `on_change` of
        any change of calibration)."""
        self._install()
        self._tell_change()
        read = self._reader.read(image)
        self._last_frame, self._last_read = image, read
        self._reads += 1
        return read

    # --- learning -------------------------------------------------------------------------------------------

    @property
    def learning(self) -> bool:
        """A learning runs now."""
        return self._thread is not None and self._thread.is_alive()

    def start_confirmed(self, start_sfen: str, save_to: Path | None = None) -> bool:
        """The setup check confirmed `start_sfen` on the board, in the last frame read: learn the set from that
        frame when it is the standard start and nothing stops it, and save what is learnt to `save_to` (the game's
        own file, for `--resume`). True when a learning started."""
        why_not = self._why_not(start_sfen)
        if why_not:
            log.info("piece set not learnt from this start: %s", why_not)
            return False
        frame = np.array(self._last_frame, copy=True)
        side = getattr(self._reader.settings, "sente_side", None)
        self._more = _Later(save_to)
        self._thread = self._spawn(lambda: self._run(lambda: self._learn(frame, side), save_to))
        return True

    def position_confirmed(self, sfen: str, moves: Sequence[str]) -> bool:
        """The frame just read showed the game's position `sfen`, reached by `moves` (the reconciler's
        `NoChange`): learn the set again from it when it has been steady and shows something worth learning, or
        when learnings were forgotten (a takeback). True when a learning started; the loop never waits."""
        more, field, played = self._more, sfen.split(maxsplit=1)[0], tuple(moves)
        key = (field, played)
        steady = more.key == key and more.at_read == self._reads - 1
        more.key, more.at_read, more.steady = key, self._reads, more.steady + 1 if steady else 1
        if not more.active or self.source is not SetSource.LEARNT or not isinstance(self._learn, LearnsMore):
            return False
        more.stale |= bool(more.places.forget_off(played))
        if self.learning or more.steady < STEADY_FRAMES:
            return False
        read = self._last_read
        geometry = getattr(read, "geometry", None)
        squares: list[int] = []
        if geometry is not None and field not in more.done:
            hidden = getattr(read, "hidden", None) or ()
            squares = more.places.choose(field, getattr(read, "probs", None), hidden)
        if not squares and not more.stale:
            return False
        more.done.add(field)
        job = more.job(np.array(self._last_frame, copy=True), geometry, field, squares, played)
        learn = self._learn
        self._thread = self._spawn(lambda: self._run(lambda: learn.more(job), more.save_to, job))
        return True

    def use_learnt(self, calibration: Any) -> None:
        """Read with a set learnt earlier in this game (saved by `start_confirmed`, loaded on resuming it); the
        user's calibration, if in use, stays."""
        if self.source is not SetSource.USER:
            self._reader.use_calibration(calibration)
            self.source = SetSource.LEARNT
            self._mark_changed()

    def _why_not(self, start_sfen: str) -> str:
        parts = start_sfen.split()
        if not self.enabled:
            return "learning is off ([vision] learn_set = false)"
        if self.source is SetSource.USER:
            return "the user's calibration is in use"
        if not parts or parts[0] != STANDARD_BOARD or (len(parts) > 2 and parts[2] != "-"):
            return "not the standard starting position (only that one is learnt from)"
        if self._last_frame is None:
            return "no frame was read"
        if self.learning:
            return "a learning is still running"
        return ""

    def _run(self, learn: Callable[[], Any], save_to: Path | None, job: LaterJob | None = None) -> None:
        """The worker: learn (and save), and leave the outcome for the loop's thread."""
        began = self._clock()
        try:
            outcome = Outcome(learn(), self._clock() - began, job=job)
        except Exception as exc:  # any failure of the learning (CalibrationError, cv2.error, ...): read on as before
            outcome = Outcome(None, self._clock() - began, f"{type(exc).__name__}: {exc}", job)
        if outcome.calibration is not None and save_to is not None:
            try:
                outcome.calibration.save(save_to)
            except OSError as exc:
                log.warning("piece set: the learnt set could not be saved to %s (%s)", save_to, exc)
        with self._lock:
            self._ready.append(outcome)

    def _mark_changed(self) -> None:
        with self._lock:
            self._changed = True

    def _tell_change(self) -> None:
        with self._lock:
            changed, self._changed = self._changed, False
        if changed and self.on_change is not None:
            self.on_change()

    def _install(self) -> None:
        with self._lock:
            ready, self._ready = self._ready, []
        for outcome in ready:
            self.outcomes.append(outcome)
            self._take(outcome)

    def _take(self, outcome: Outcome) -> None:
        if outcome.job is not None:
            self._take_later(outcome, outcome.job)
            return
        if outcome.calibration is not None and self.source is not SetSource.USER:
            self._more.start_learnt()
        if outcome.calibration is None:
            text = f"piece set: learning from the starting position failed ({outcome.error}); reading on as before"
            log.warning(text)
        elif self.source is SetSource.USER:
            text = "piece set: learnt from the starting position, but the user's calibration stays in use"
            log.info(text)
        else:
            self._reader.use_calibration(outcome.calibration)
            self.source = SetSource.LEARNT
            self._mark_changed()
            text = f"piece set: learnt from the starting position in {outcome.seconds:.1f} s, used from now on"
            log.info(text)
        if self.say is not None:
            self.say(f"  {text}")

    def _take_later(self, outcome: Outcome, job: LaterJob) -> None:
        """A later learning's outcome: used (unless the user's calibration came meanwhile), or its places forgotten
        (after `MAX_FAILURES` failures, the set is not learnt again in this game)."""
        more = self._more
        if outcome.calibration is None:
            more.places.drop(job.part)
            more.done.discard(job.board_field)
            more.failures += 1
            more.active = more.failures < MAX_FAILURES
            log.warning("%s; reading on as before", outcome.describe())
            if self.say is not None and not more.active:
                self.say(f"  piece set: learning it again failed {more.failures} times; not tried again this game")
            return
        more.stale = False
        if self.source is SetSource.LEARNT and more.active:
            self._reader.use_calibration(outcome.calibration)
            self._mark_changed()
            log.info("%s, used from now on", outcome.describe())

    @property
    def kept_parts(self) -> list[int]:
        """The learnings whose examples the set is fitted on now (0: the start's)."""
        return self._more.places.parts

    def wait(self, timeout: float | None = None) -> None:
        """Wait for a running learning to end (its outcome is taken up by the next `read`, or by `settle`)."""
        thread = self._thread
        if thread is not None:
            thread.join(timeout)

    def settle(self, timeout: float | None = None) -> None:
        """Wait for a running learning and take up its outcome now (tests, and the end of a replay)."""
        self.wait(timeout)
        self._install()


class _Later:
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


class ConfirmedWatch:
    """The reconciler as the shell's loop sees it, telling the learning reader of every position it confirms."""

    def __init__(self, reconciler: _Watched, reader: StartLearningReader) -> None:
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
    """The reconciler for the shell: watched (`ConfirmedWatch`) when the eyes' reader learns the set, else itself."""
    reader = getattr(eyes, "reader", None)
    return ConfirmedWatch(reconciler, reader) if isinstance(reader, StartLearningReader) else reconciler
