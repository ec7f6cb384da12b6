"""`bench vision`'s read-after-move timing: only the reader's own work is timed."""

from __future__ import annotations

from dataclasses import dataclass, field

from controller.bench.move_read import timed_read


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
