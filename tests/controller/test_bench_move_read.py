"""`bench vision`'s read-after-move timing: only the reader's own work is timed."""

from __future__ import annotations

from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import ClassVar

import numpy as np
import pytest

from controller.bench.move_read import time_reads_after_moves, timed_read
from vision.square_memo import LOOKS


@dataclass
class FakeClock:
    """A clock that moves only when told to."""

    now: float = 100.0

    def __call__(self) -> float:
        return self.now


@dataclass
class SlowReader:
    """A reader whose read takes 0.04 s of wall time and 0.03 s of CPU time on the fake clocks."""

    wall: FakeClock
    cpu: FakeClock
    images: list[str] = field(default_factory=list)

    def read(self, image: str) -> str:
        self.images.append(image)
        self.wall.now += 0.04
        self.cpu.now += 0.03
        return f"read {image}"


def test_timed_read_times_the_read_alone() -> None:
    wall, cpu = FakeClock(), FakeClock(5.0)
    reader = SlowReader(wall, cpu)
    wall.now += 1.0  # time spent making the picture, before the read: not counted
    result, wall_ms, cpu_ms = timed_read(reader, "frame", (wall, cpu))
    assert result == "read frame"
    assert reader.images == ["frame"]
    assert abs(wall_ms - 40.0) < 1e-6
    assert abs(cpu_ms - 30.0) < 1e-6


class PictureLog:
    """A reader stand-in that keeps every picture it reads, in order (`made`: every one made)."""

    made: ClassVar[list[PictureLog]] = []

    def __init__(self, classifier: object, settings: object) -> None:
        self.pictures: list[object] = []
        self.reread = 3
        self.stands_counted = 0
        PictureLog.made.append(self)

    def read(self, image: object) -> object:
        self.pictures.append(image)
        return SimpleNamespace(board_found=True, labels=[])


def test_the_position_is_read_on_still_frames_before_the_move(monkeypatch: pytest.MonkeyPatch) -> None:
    """Before the timed read after the move, the reader has read the position `LOOKS` times, each picture with
    its own noise, as a game's reader has when a move comes; after it, the still frames."""
    monkeypatch.setattr("vision.reader.BoardReader", PictureLog)
    PictureLog.made.clear()
    games = [["7g7f", "3c3d", "2g2f"]]
    figures = time_reads_after_moves(None, games, ["kanji_light"], (320, 240), rng=np.random.default_rng(1), n=2)
    assert figures.samples == 2 and figures.reread == 3
    for reader in PictureLog.made:
        assert len(reader.pictures) == LOOKS + 3  # the position's looks, the move (timed), two still frames
        before, after = reader.pictures[:LOOKS], reader.pictures[LOOKS:]
        assert not any(np.array_equal(before[0], other) for other in before[1:])  # fresh noise each
        moved = np.abs(after[0].astype(int) - before[0].astype(int)).max()
        still = np.abs(before[1].astype(int) - before[0].astype(int)).max()
        assert moved > 60 > still  # the move changed pieces; between still frames only the noise differs
