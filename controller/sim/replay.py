"""Replaying a recorded game in front of the virtual camera, in record mode, through the real pipeline.

Owns: `ReplaySettings`, `GameReport` and `replay_game`. The simulated person plays the record's moves on the
VirtualBoard; every frame the VirtualCamera takes goes through the motion gate, stable frames through the board
reader, and every observation to the reconciler; the game is recorded only from what the reconciler commits.
Time is simulated: the camera takes a frame every `frame_s`, or later when handling the previous frame took
longer (the measured wall time of gate + reader + reconciler, not of rendering, which is the world's cost).
Latency is measured from the first frame the gate calls stable to the end of handling the committing frame.
A prompt (an ambiguity, a mismatch, a takeback offer) is counted once per episode; the person answers an
ambiguity with the candidate of the moves they really made when one is, else with those moves themselves (the
move question's "another move": the moves finished on the board since the last committed one), and declines
takeback offers.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import cshogi
import numpy as np

from controller.reconcile import (
    Ambiguous,
    Mismatch,
    MoveCommitted,
    NoChange,
    Observation,
    Reconciler,
    Result,
    Takeback,
    Waiting,
)
from controller.reconcile.labels import N_LABELS
from controller.rules.types import GameRecord, RecordedMove
from controller.sim.camera import VirtualCamera
from controller.sim.human import SimulatedHuman, Timeline
from controller.vision_adapter import BoardReadLike, observation_from_read
from hardware.geometry import Side

_UNSTABLE_PROBS = np.full((81, N_LABELS), 1.0 / N_LABELS)


class Gate(Protocol):
    """The motion gate (`vision.motion.MotionGate`)."""

    def update(self, frame: Any) -> bool:
        """True while the scene is still."""
        ...


class Reader(Protocol):
    """The board reader (`vision.reader.BoardReader`)."""

    def read(self, image: Any) -> Any:
        """A `BoardRead` of the frame."""
        ...


@dataclass(frozen=True)
class ReplaySettings:
    """Pace and patience of a replay.

    Attributes:
        frame_s: camera frame interval (simulated seconds).
        settle_s: still time before the first move (the board check at the start).
        stuck_s: how long the person waits, once the record is two moves ahead of what was committed, or after
            the last move, before the game is given up as an error; also how long the setup check (the board
            must be seen to show the starting position before the first move) may take after `settle_s`.
        max_plies: play at most this many of the record's moves (0: all).
        reader_min_confidence: the reader's live `min_confidence`, for `observation_from_read`.
    """

    frame_s: float = 0.1
    settle_s: float = 1.0
    stuck_s: float = 8.0
    max_plies: int = 0
    reader_min_confidence: float | None = None


@dataclass
class GameReport:
    """What happened in one replayed game."""

    total: int
    record: GameRecord
    correct: int = 0
    false_moves: int = 0
    takebacks: int = 0
    prompts: int = 0
    latencies_ms: list[float] = field(default_factory=list)
    error: str = ""
    frames: int = 0
    reads: int = 0
    renders: int = 0
    arm_reads: int = 0
    """Frames the motion gate called stable while an arm hid squares (the renderer's truth, for reporting)."""
    sim_seconds: float = 0.0
    events: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Every move recorded correctly, nothing false, no error."""
        return not self.error and self.correct == self.total and self.false_moves == 0


@dataclass
class _Run:
    """Mutable state of one replay."""

    moves: Sequence[str]
    report: GameReport
    played: list[str] = field(default_factory=list)
    t: float = 0.0
    next_start: float = 0.0
    stable_since: float | None = None
    last_commit: float = 0.0
    last_kind: type | None = None
    setup_seen: bool = False
    last_problem: str = "no stable frame"
    waiting_since: float | None = None


def replay_game(
    moves: Sequence[str],
    *,
    start_sfen: str,
    human: SimulatedHuman,
    camera: VirtualCamera,
    gate: Gate,
    reader: Reader,
    reconciler: Reconciler,
    settings: ReplaySettings | None = None,
    wall: Callable[[], float] = time.perf_counter,
    on_frame: Callable[[int, np.ndarray, Result], None] | None = None,
    on_setup: Callable[[], object] | None = None,
    on_confirmed: Callable[[str, tuple[str, ...]], object] | None = None,
) -> GameReport:
    """Play `moves` (USI) from `start_sfen` with the simulated person and record what the pipeline commits.

    `on_setup` is called once, when the setup check first sees the start position (just after that frame's read):
    the reader learns the piece set from it (`controller.runner.set_learning`). `on_confirmed` is called with the
    reconciler's position and moves after every frame it found showing that position (its `NoChange`): the reader
    learns the set again from such frames."""
    s = settings or ReplaySettings()
    plies = list(moves[: s.max_plies] if s.max_plies else moves)
    record = GameRecord(start_sfen, headers={"event": "shogi-robot replay", "black": "sim", "white": "sim"})
    run = _Run(plies, GameReport(len(plies), record), next_start=s.settle_s)
    rules = cshogi.Board(start_sfen)
    timeline = Timeline()
    board = human.board
    while not run.report.error:
        if _finished(run, reconciler):
            break
        _maybe_start_move(run, rules, human, timeline, reconciler)
        _check_stuck(run, timeline, reconciler, s)
        timeline.advance(board, run.t)
        frame = camera.read()
        begin = wall()
        result = _handle_frame(run, frame, gate, reader, reconciler, s=s)
        if on_confirmed is not None and isinstance(result, NoChange):
            on_confirmed(reconciler.sfen, reconciler.moves)
        end = run.t + (wall() - begin)
        if run.stable_since is not None and camera.last is not None and camera.last.occluded_squares:
            run.report.arm_reads += 1
        seen = run.setup_seen
        _take_result(run, result, reconciler, end, moving=bool(timeline.steps))
        if on_setup is not None and run.setup_seen and not seen:
            on_setup()
        if on_frame is not None:
            on_frame(run.report.frames, frame, result)
        run.report.frames += 1
        if not timeline.steps and run.next_start < 0:
            run.next_start = run.t + human.pause()
        run.t += max(s.frame_s, end - run.t)
    run.report.renders, run.report.sim_seconds = camera.renders, run.t
    return run.report


def _finished(run: _Run, reconciler: Reconciler) -> bool:
    return len(run.played) == len(run.moves) and len(reconciler.moves) >= len(run.moves)


def _maybe_start_move(
    run: _Run, rules: cshogi.Board, human: SimulatedHuman, timeline: Timeline, reconciler: Reconciler
) -> None:
    if not run.setup_seen or timeline.steps or len(run.played) >= len(run.moves):
        return
    if run.next_start < 0 or run.t < run.next_start:
        return
    if len(run.played) - len(reconciler.moves) >= 2:
        return  # a person would look up at a record two moves behind; _check_stuck gives up eventually
    usi = run.moves[len(run.played)]
    mover = Side.BLACK if rules.turn == cshogi.BLACK else Side.WHITE
    timeline.extend(human.plan_move(usi, mover, run.t))
    rules.push_usi(usi)
    run.played.append(usi)
    run.next_start = -1.0  # set again (with the person's pause) once this move's hand has left


def _check_stuck(run: _Run, timeline: Timeline, reconciler: Reconciler, s: ReplaySettings) -> None:
    if not run.setup_seen:
        if run.t > s.settle_s + s.stuck_s:
            run.report.error = f"setup check failed: the starting position was never seen ({run.last_problem})"
        return
    behind = len(run.played) - len(reconciler.moves)
    done = len(run.played) == len(run.moves)
    if timeline.steps or (behind < 2 and not (done and behind > 0)):
        run.waiting_since = None
        return
    if run.waiting_since is None:
        run.waiting_since = run.t
    elif run.t - run.waiting_since > s.stuck_s:
        run.report.error = (
            f"stuck after {len(reconciler.moves)} committed plies: {behind} moves made were not recognised "
            f"({run.played[len(reconciler.moves)]} first)"
        )


def _handle_frame(
    run: _Run, frame: np.ndarray, gate: Gate, reader: Reader, reconciler: Reconciler, *, s: ReplaySettings
) -> Result:
    stable = gate.update(frame)
    if not stable:
        run.stable_since = None
        return reconciler.observe(Observation(_UNSTABLE_PROBS, stable=False, time=run.t))
    if run.stable_since is None:
        run.stable_since = run.t
    read: BoardReadLike = reader.read(frame)
    run.report.reads += 1
    obs = observation_from_read(read, stable=True, now=run.t, min_confidence=s.reader_min_confidence)
    return reconciler.observe(obs)


def _take_result(run: _Run, result: Result, reconciler: Reconciler, end: float, *, moving: bool = False) -> None:
    """Count and answer what the reconciler reported (`moving`: the person's hand is busy with a move)."""
    report = run.report
    new_episode = type(result) is not run.last_kind
    run.last_kind = type(result)
    if isinstance(result, NoChange) and not run.played:
        run.setup_seen = True
    elif isinstance(result, Waiting | Mismatch):
        run.last_problem = result.reason if isinstance(result, Waiting) else " ".join(result.messages)
    if isinstance(result, MoveCommitted):
        _record(run, result.moves, end)
        if run.stable_since is not None:
            report.latencies_ms.append((end - run.stable_since) * 1000.0)
    elif isinstance(result, Ambiguous) and new_episode:
        report.prompts += 1
        _answer(run, result, reconciler, end, moving)
    elif isinstance(result, Takeback) and new_episode:
        report.prompts += 1
        report.takebacks += 1
        report.events.append(f"ply {len(reconciler.moves)}: takeback of {result.plies} offered (declined)")
    elif isinstance(result, Mismatch) and new_episode:
        report.prompts += 1
        report.events.append(f"ply {len(reconciler.moves) + 1}: mismatch: {' '.join(result.messages)}")


def _answer(run: _Run, result: Ambiguous, reconciler: Reconciler, end: float, moving: bool) -> None:
    """The person's answer to a move question: the candidate of the moves they made, else those moves (the ones
    finished on the board: not one their hand is still making)."""
    done = len(reconciler.moves)
    made = run.played[done : len(run.played) - 1 if moving else len(run.played)]
    asked = ", ".join(f"{c.text} ({c.score:.1f})" for c in result.candidates)
    text = f"ply {done + 1}: asked {asked}; played {' '.join(run.played[done : done + 2])}"
    for candidate in result.candidates:
        if candidate.takeback == 0 and list(candidate.moves) == run.played[done : done + len(candidate.moves)]:
            answer = candidate.moves
            break
    else:
        answer = tuple(made)
        text += f"; answered another move: {' '.join(answer) or 'none made'}"
    run.report.events.append(text)
    if answer:
        reconciler.play(answer)
        _record(run, answer, end)


def _record(run: _Run, moves: Sequence[str], end: float) -> None:
    report = run.report
    for usi in moves:
        index = len(report.record.moves)
        report.record.moves.append(RecordedMove(usi, seconds=round(end - run.last_commit, 1)))
        run.last_commit = end
        if index < len(run.played) and run.played[index] == usi:
            report.correct += 1
            continue
        report.false_moves += 1
        truth = run.played[index] if index < len(run.played) else "nothing"
        report.error = f"false move at ply {index + 1}: recorded {usi}, the person played {truth}"
        report.events.append(report.error)


@dataclass(frozen=True)
class Summary:
    """Figures over one or more replayed games."""

    games: int
    moves: int
    correct: int
    false_moves: int
    takebacks: int
    prompts: int
    median_ms: float
    p95_ms: float
    games_with_error: int

    @property
    def correct_pct(self) -> float:
        """Moves recorded correctly, in percent of the moves played."""
        return 100.0 * self.correct / self.moves if self.moves else 0.0

    @property
    def prompts_per_100(self) -> float:
        """Prompts to the player per 100 moves."""
        return 100.0 * self.prompts / self.moves if self.moves else 0.0

    def lines(self) -> list[str]:
        """The figures as printed by `replay` and `bench game`."""
        return [
            f"moves recorded correctly: {self.correct}/{self.moves} ({self.correct_pct:.2f} %)",
            f"false moves committed: {self.false_moves}",
            f"prompts: {self.prompts} ({self.prompts_per_100:.2f} per 100 moves), of which takeback offers: "
            f"{self.takebacks}",
            f"stable frame to committed move: median {self.median_ms:.0f} ms, p95 {self.p95_ms:.0f} ms",
            f"games with any error: {self.games_with_error}/{self.games}",
        ]


def summarise(reports: Sequence[GameReport]) -> Summary:
    """Totals and latency percentiles over games."""
    latencies = [ms for r in reports for ms in r.latencies_ms]
    median = float(np.percentile(latencies, 50)) if latencies else float("nan")
    p95 = float(np.percentile(latencies, 95)) if latencies else float("nan")
    return Summary(
        games=len(reports),
        moves=sum(r.total for r in reports),
        correct=sum(r.correct for r in reports),
        false_moves=sum(r.false_moves for r in reports),
        takebacks=sum(r.takebacks for r in reports),
        prompts=sum(r.prompts for r in reports),
        median_ms=median,
        p95_ms=p95,
        games_with_error=sum(not r.ok for r in reports),
    )


def save_frame(directory: Path, index: int, frame: np.ndarray) -> None:
    """Write one frame as JPEG (for `--frames-dir`)."""
    import cv2

    directory.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(directory / f"frame{index:05d}.jpg"), frame, [cv2.IMWRITE_JPEG_QUALITY, 85])
