"""Fixtures for the engine-client tests: fake engines (Python scripts run with this interpreter) and fast timeouts."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from engine_fakes import FAKE, FAST

from controller.engines import EngineSpec


@pytest.fixture
def fake_argv(tmp_path: Path) -> Callable[..., list[str]]:
    """argv of the fake engine in a mode; it logs every command it receives to tmp_path/commands.log."""

    def make(mode: str = "normal") -> list[str]:
        return [
            sys.executable,
            str(FAKE),
            mode,
            "--log",
            str(tmp_path / "commands.log"),
            "--state",
            str(tmp_path / "state"),
        ]

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
