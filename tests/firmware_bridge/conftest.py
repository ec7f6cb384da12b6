"""Fixtures: a fake GRBL device on a real pty with fast motion, and a gantry/link connected through pyserial."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from firmware_bridge import (
    FAST_MOTION,
    FakeGrblConfig,
    FakeGrblServer,
    FaultConfig,
    GantryTimings,
    GrblGantry,
    LinkTimings,
)

FAST_LINK = LinkTimings(
    response_timeout_s=1.0, boot_timeout_s=1.0, settle_s=0.05, status_interval_s=0.05, status_timeout_s=1.0
)
FAST_GANTRY = GantryTimings(motion_timeout_s=5.0, homing_timeout_s=5.0, grip_dwell_s=0.01, release_dwell_s=0.01)


def fast_config(faults: FaultConfig | None = None, **kwargs: object) -> FakeGrblConfig:
    """A fast-moving fake with the given faults."""
    options: dict[str, Any] = {"settings": FAST_MOTION, "boot_delay_s": 0.05, "faults": faults or FaultConfig()}
    return FakeGrblConfig(**{**options, **kwargs})


@pytest.fixture
def config() -> Callable[..., FakeGrblConfig]:
    """The `fast_config` factory, as a fixture."""
    return fast_config


@pytest.fixture
def link_timings() -> LinkTimings:
    """Short link timeouts for tests."""
    return FAST_LINK


@pytest.fixture
def serve() -> Iterator[Callable[..., FakeGrblServer]]:
    """Start fake devices (stopped at the end of the test)."""
    servers: list[FakeGrblServer] = []

    def start(config: FakeGrblConfig | None = None) -> FakeGrblServer:
        server = FakeGrblServer(config or fast_config())
        server.start()
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()


@pytest.fixture
def connect() -> Iterator[Callable[..., GrblGantry]]:
    """Open gantries on device paths (closed at the end of the test)."""
    gantries: list[GrblGantry] = []

    def open_(path: str, **kwargs: Any) -> GrblGantry:
        gantry = GrblGantry.open(path, timings=FAST_GANTRY, link_timings=FAST_LINK, **kwargs)
        gantries.append(gantry)
        return gantry

    yield open_
    for gantry in gantries:
        gantry.close()
