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
resumed game's, nor the user's calibration). The worker's side of it is `controller.runner.set_relearning`.
"""

from __future__ import annotations

import enum
import logging
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from controller.rules.positions import STARTPOS_SFEN
from controller.runner.set_relearning import (
    MAX_FAILURES,
    STEADY_FRAMES,
    LaterJob,
    LaterState,
    LearnsMore,
    VisionLearning,
)

log = logging.getLogger(__name__)

STANDARD_BOARD = STARTPOS_SFEN.split()[0]
"""The board field of the one position the set is learnt from."""

Learn = Callable[[Any, Any], Any]
"""Learns a calibration from a start frame and the reader's sente side (`vision_learn`, or a stand-in)."""


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
        again: bool = False,
        user_calibration: bool = False,
        say: Callable[[str], None] | None = None,
        spawn: Callable[[Callable[[], None]], threading.Thread] = _on_a_thread,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        """`reader`: the `BoardReader`; `learn`: `vision_learn(...)`; `enabled`: learn at all (config
        `[vision] learn_set`); `again`: also learn from later confirmed positions (`[vision] learn_set_again`);
        `user_calibration`: the reader already has the user's calibration (it wins); `say`:
        where the outcome is told (the loop's thread); `spawn`: runs the learning off the loop."""
        self._reader, self._learn, self._spawn, self._clock = reader, learn, spawn, clock
        self.enabled = enabled
        """Learn at all (`[vision] learn_set`)."""
        self.again = again
        """Also learn again from positions the game confirms later (`[vision] learn_set_again`; off by default:
        on development games it gained nothing measurable, and on two-character sets it asked more; see
        `controller.config.VisionConfig`)."""
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
        self._more = LaterState()

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
        self._more = LaterState(save_to)
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
        if not self.again or not more.active or self.source is not SetSource.LEARNT:
            return False
        if not isinstance(self._learn, LearnsMore):
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
            more.done.add(field)  # looked at once (a failed learning lets it be looked at again)
        if not squares and not more.stale:
            return False
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
