"""Shared helpers of the planning tests (imported as `planning_fakes`): an in-memory gantry that records every call
and raises an injected fault at a chosen call."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Pos:
    x_mm: float
    y_mm: float
    z_mm: float


@dataclass(frozen=True)
class Snapshot:
    confirmed_position: Pos | None
    last_reported_position: Pos | None
    target: Pos | None
    gripper_on: bool | None
    position_trusted: bool


class FakeFaultError(Exception):
    """What the fake raises; carries a head snapshot like the firmware bridge's errors."""

    def __init__(self, message: str, snapshot: Snapshot) -> None:
        super().__init__(message)
        self.snapshot = snapshot


@dataclass
class FakeGantry:
    """Satisfies controller.ports.Gantry. `fail_at` is the 0-based index of the call that raises."""

    fail_at: int | None = None
    fail_call: str | None = None
    """Only fail on a call of this name (with `fail_at` counting those calls)."""
    gripper_after_fault: bool | None = True
    """What the snapshot says about the gripper (False: the controller dropped the magnet)."""
    calls: list[tuple[str, tuple[float, ...]]] = field(default_factory=list)
    position: Pos = Pos(0.0, 0.0, 0.0)
    target: Pos = Pos(0.0, 0.0, 0.0)
    gripper: bool = False
    fail_release: bool = False
    homed: int = 0

    def _call(self, name: str, *args: float) -> None:
        matching = [c for c in self.calls if self.fail_call is None or c[0] == self.fail_call]
        due = self.fail_at is not None and (self.fail_call in (None, name)) and len(matching) == self.fail_at
        self.calls.append((name, args))
        if due:
            self.fail_at = None
            snap = Snapshot(self.position, self.position, self.target, self.gripper_after_fault, True)
            raise FakeFaultError(f"injected fault on {name}", snap)

    def home(self) -> None:
        self._call("home")
        self.homed += 1
        self.position = self.target = Pos(0.0, 0.0, 0.0)

    def move_to(self, x_mm: float, y_mm: float, z_mm: float | None = None) -> None:
        z = self.target.z_mm if z_mm is None else z_mm
        self._call("move_to", x_mm, y_mm, z)
        self.target = Pos(x_mm, y_mm, z)

    def wait_idle(self) -> None:
        self.position = self.target  # the head arrives; a fault here is a lost answer after it stopped
        self._call("wait_idle")

    def grip(self) -> None:
        self._call("grip")
        self.gripper = True

    def release(self) -> None:
        if self.fail_release:
            raise FakeFaultError("release refused", Snapshot(None, None, None, None, False))
        self._call("release")
        self.gripper = False
