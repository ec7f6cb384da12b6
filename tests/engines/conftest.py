"""Fixtures for the engine-client tests: fake engines (Python scripts run with this interpreter) and fast timeouts."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from controller.engines import EngineSpec, Timeouts

FAKE = Path(__file__).parent / "fakes" / "fake_engine.py"

FAST = Timeouts(launch_s=3.0, ready_s=1.0, bestmove_margin_s=0.5, unbounded_search_s=2.0, stop_s=0.5, quit_grace_s=0.3)
"""Short timeouts so that hangs are detected quickly in tests."""


@pytest.fixture
def fake_argv(tmp_path: Path) -> Callable[..., list[str]]:
    """argv of the fake engine in a mode; it logs every command it receives to tmp_path/commands.log."""

    def make(mode: str = "normal") -> list[str]:
        return [sys.executable, str(FAKE), mode, "--log", str(tmp_path / "commands.log"), "--state", str(tmp_path / "state")]

    return make


@pytest.fixture
def fake_spec(tmp_path: Path) -> Callable[..., EngineSpec]:
    """An EngineSpec that runs the fake engine in a mode, with fast timeouts."""

    def make(mode: str = "normal", **kwargs: object) -> EngineSpec:
        args = (str(FAKE), mode, "--log", str(tmp_path / "commands.log"), "--state", str(tmp_path / "state"))
        return EngineSpec(engine=sys.executable, args=args, timeouts=FAST, **kwargs)  # type: ignore[arg-type]

    return make


@pytest.fixture
def command_log(tmp_path: Path) -> Callable[[], list[str]]:
    """The commands the fake engine(s) received, as 'pid command' lines."""

    def read() -> list[str]:
        path = tmp_path / "commands.log"
        return path.read_text(encoding="utf-8").splitlines() if path.exists() else []

    return read
