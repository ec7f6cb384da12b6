"""Restart-and-continue: the supervisor relaunches a dead or hung engine, re-sends options and the position,
and retries the search; the blocking facade does the same for code without an event loop."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

import pytest

from controller.engines import (
    EngineDied,
    EngineLimits,
    EngineOptionError,
    EnginePosition,
    EngineSpec,
    EngineTimeout,
    GameOver,
    GoLimits,
    SupervisedEngine,
    SyncEngine,
)

Spec = Callable[..., EngineSpec]
QUICK = GoLimits(btime_ms=0, wtime_ms=0, byoyomi_ms=100)
POSITION = EnginePosition().push("7g7f", "3c3d")


def _commands_by_pid(lines: list[str]) -> dict[str, list[str]]:
    by_pid: dict[str, list[str]] = {}
    for line in lines:
        pid, _, command = line.partition(" ")
        by_pid.setdefault(pid, []).append(command)
    return by_pid


def test_dead_engine_is_restarted_and_the_search_retried(fake_spec: Spec, command_log: Callable[[], list[str]]) -> None:
    """When the engine dies mid-search, a new process gets the options, isready, usinewgame, the same position
    and go, and its legal answer is returned."""

    async def run() -> tuple[str | None, int, float]:
        engine = SupervisedEngine(fake_spec("die-once", options={"USI_Hash": 64}))
        await engine.start()
        await engine.new_game()
        started = time.monotonic()
        result = await engine.play(POSITION, QUICK)
        elapsed = time.monotonic() - started
        await engine.quit()
        return result.move, engine.restarts, elapsed

    move, restarts, elapsed = asyncio.run(run())
    assert move is not None and restarts == 1
    assert elapsed < 3.0
    first, second = _commands_by_pid(command_log()).values()
    assert first[-1].startswith("go ")
    expected = ["usi", "setoption name USI_Hash value 64", "isready", "usinewgame", POSITION.command()]
    assert second[:5] == expected
    assert second[5].startswith("go btime 0")


def test_hung_engine_is_restarted(fake_spec: Spec) -> None:
    """An engine that never answers `go` times out, is killed, and the retry on a fresh one times out too:
    after max_restarts the EngineTimeout reaches the caller."""

    async def run() -> int:
        engine = SupervisedEngine(fake_spec("hang-go"), max_restarts=1)
        await engine.start()
        try:
            with pytest.raises(EngineTimeout):
                await engine.play(POSITION, QUICK)
        finally:
            await engine.quit()
        return engine.restarts

    assert asyncio.run(run()) == 1


def test_engine_that_always_dies_gives_up(fake_spec: Spec) -> None:
    """An engine that dies on every search raises EngineDied after max_restarts restarts."""

    async def run() -> int:
        engine = SupervisedEngine(fake_spec("die-go"), max_restarts=2)
        await engine.start()
        with pytest.raises(EngineDied):
            await engine.play(POSITION, QUICK)
        await engine.gameover(GameOver.DRAW)
        await engine.quit()
        return engine.restarts

    assert asyncio.run(run()) == 2


def test_spec_limits_are_used_by_default(fake_spec: Spec, command_log: Callable[[], list[str]]) -> None:
    """Without explicit limits the spec's fixed limit (here nodes) is sent."""

    async def run() -> None:
        engine = SupervisedEngine(fake_spec(limits=EngineLimits(nodes=500)))
        await engine.start()
        await engine.play(POSITION)
        await engine.quit()

    asyncio.run(run())
    assert any(line.endswith("go nodes 500") for line in command_log())


def test_skill_level_on_engine_without_one_is_refused(fake_spec: Spec) -> None:
    """A skill level for an engine with no skill option fails at start-up with EngineOptionError."""

    async def run() -> None:
        engine = SupervisedEngine(fake_spec(limits=EngineLimits(skill_level=3)))
        with pytest.raises(EngineOptionError, match="Skill Level"):
            await engine.start()

    asyncio.run(run())


def test_sync_engine_plays_and_restarts(fake_spec: Spec) -> None:
    """SyncEngine works from plain code: it plays, survives a crash by restarting, and closes cleanly."""
    with SyncEngine(fake_spec("die-once")) as engine:
        engine.new_game()
        result = engine.play(POSITION, QUICK)
        assert result.move is not None
        assert engine.restarts == 1
        assert engine.engine.name == "FakeEngine 1.0"
    with pytest.raises(RuntimeError, match="closed"):
        engine.play(POSITION, QUICK)
