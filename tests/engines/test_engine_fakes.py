"""The client against fake engines that hang, die, talk garbage or answer illegal moves.

Each test runs its own event loop (asyncio.run); the fake is tests/engines/fakes/fake_engine.py.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import replace

import pytest
from engine_fakes import FAST

from controller.engines import (
    BestMoveKind,
    EngineDied,
    EngineOptionError,
    EnginePosition,
    EngineProtocolError,
    EngineState,
    EngineTimeout,
    GameOver,
    GoLimits,
    MateStatus,
    UsiEngine,
)

Argv = Callable[..., list[str]]
QUICK = GoLimits(btime_ms=0, wtime_ms=0, byoyomi_ms=100)


async def _launch(argv: list[str]) -> UsiEngine:
    engine = await UsiEngine.launch(argv, timeouts=FAST)
    await engine.is_ready()
    return engine


def test_handshake_reads_id_and_every_option_type(fake_argv: Argv) -> None:
    """The `usi` handshake collects id name/author and options of all six types."""

    async def run() -> None:
        engine = await _launch(fake_argv())
        try:
            assert (engine.name, engine.author) == ("FakeEngine 1.0", "tests")
            kinds = {option.type.value for option in engine.options.values()}
            assert kinds == {"spin", "check", "combo", "button", "filename", "string"}
            assert engine.supports_ponder
        finally:
            await engine.quit()

    asyncio.run(run())


def test_set_option_validates_and_sends(fake_argv: Argv, command_log: Callable[[], list[str]]) -> None:
    """Valid options are sent in USI form; an unknown name or a bad value raises EngineOptionError."""

    async def run() -> None:
        engine = await _launch(fake_argv())
        try:
            await engine.set_option("Hash", 64)
            await engine.set_option("Style", "Risky")
            await engine.set_option("Clear Hash")
            with pytest.raises(EngineOptionError, match="no option 'Threads'"):
                await engine.set_option("Threads", 2)
            with pytest.raises(EngineOptionError, match="outside"):
                await engine.set_option("USI_Hash", 99999)
            await engine.is_ready()
        finally:
            await engine.quit()

    asyncio.run(run())
    sent = [line.split(" ", 1)[1] for line in command_log()]
    assert "setoption name USI_Hash value 64" in sent
    assert "setoption name Style value Risky" in sent
    assert "setoption name Clear Hash" in sent
    assert not any("99999" in line or "Threads" in line for line in sent)


def test_search_returns_legal_bestmove_with_info(fake_argv: Argv) -> None:
    """A search returns the engine's move, checked legal, with its score from the info lines."""

    async def run() -> None:
        engine = await _launch(fake_argv())
        try:
            result = await engine.go(EnginePosition().push("7g7f"), QUICK)
            assert result.bestmove.kind is BestMoveKind.MOVE and result.move == "1a1b"
            assert result.score is not None and result.score.cp == 12
            assert engine.state is EngineState.IDLE
        finally:
            await engine.quit()

    asyncio.run(run())


def test_hang_before_usiok_is_a_timeout(fake_argv: Argv) -> None:
    """An engine that never sends `usiok` fails launch with EngineTimeout after launch_s, and is ended."""

    timeouts = replace(FAST, launch_s=1.5)

    async def run() -> float:
        started = time.monotonic()
        with pytest.raises(EngineTimeout, match="usiok"):
            await UsiEngine.launch(fake_argv("hang-usi"), timeouts=timeouts)
        return time.monotonic() - started

    elapsed = asyncio.run(run())
    assert timeouts.launch_s <= elapsed < timeouts.launch_s + 2.0


def test_hang_before_readyok_is_a_timeout(fake_argv: Argv) -> None:
    """An engine that never answers `isready` raises EngineTimeout naming readyok."""

    async def run() -> None:
        engine = await UsiEngine.launch(fake_argv("hang-ready"), timeouts=FAST)
        try:
            with pytest.raises(EngineTimeout, match="readyok"):
                await engine.is_ready()
            assert engine.state is EngineState.BROKEN
        finally:
            await engine.kill()

    asyncio.run(run())


def test_hang_in_search_is_a_timeout_after_budget_and_margin(fake_argv: Argv) -> None:
    """No `bestmove` within byoyomi + margin is an EngineTimeout, detected at that deadline."""

    async def run() -> float:
        engine = await _launch(fake_argv("hang-go"))
        try:
            started = time.monotonic()
            with pytest.raises(EngineTimeout, match="bestmove"):
                await engine.go(EnginePosition(), QUICK)
            return time.monotonic() - started
        finally:
            await engine.kill()

    elapsed = asyncio.run(run())
    budget = 0.1 + FAST.bestmove_margin_s
    assert budget <= elapsed < budget + 1.0


def test_death_mid_search_is_detected_at_once(fake_argv: Argv) -> None:
    """An engine that exits during a search raises EngineDied with its exit status and stderr, long before
    the search deadline."""

    async def run() -> tuple[float, EngineDied]:
        engine = await _launch(fake_argv("die-go"))
        started = time.monotonic()
        with pytest.raises(EngineDied) as caught:
            await engine.go(EnginePosition(), GoLimits(btime_ms=0, wtime_ms=0, byoyomi_ms=10_000))
        elapsed = time.monotonic() - started
        assert not engine.alive
        await engine.quit()
        return elapsed, caught.value

    elapsed, error = asyncio.run(run())
    assert elapsed < 2.0
    assert error.returncode == 3
    assert "simulated crash" in error.stderr_tail


def test_commands_to_a_dead_engine_raise_engine_died(fake_argv: Argv) -> None:
    """After the engine died, the next command raises EngineDied instead of hanging."""

    async def run() -> None:
        engine = await _launch(fake_argv("die-go"))
        with pytest.raises(EngineDied):
            await engine.go(EnginePosition(), QUICK)
        with pytest.raises(EngineDied):
            await engine.is_ready()
        await engine.quit()

    asyncio.run(run())


def test_garbage_lines_are_skipped(fake_argv: Argv) -> None:
    """Noise lines and malformed info lines are logged and skipped; the search still succeeds."""

    async def run() -> None:
        engine = await _launch(fake_argv("garbage"))
        try:
            result = await engine.go(EnginePosition(), QUICK)
            assert result.move == "1g1f"
            assert len(result.infos) == 1
        finally:
            await engine.quit()

    asyncio.run(run())


def test_illegal_bestmove_is_a_protocol_error(fake_argv: Argv) -> None:
    """A bestmove that is not legal in the position raises EngineProtocolError carrying the line."""

    async def run() -> None:
        engine = await _launch(fake_argv("illegal"))
        try:
            with pytest.raises(EngineProtocolError, match="illegal move 5e5d") as caught:
                await engine.go(EnginePosition(), QUICK)
            assert caught.value.line == "bestmove 5e5d"
            assert engine.state is EngineState.BROKEN
        finally:
            await engine.quit()

    asyncio.run(run())


def test_malformed_bestmove_is_a_protocol_error(fake_argv: Argv) -> None:
    """`bestmove xyz` raises EngineProtocolError with the line."""

    async def run() -> None:
        engine = await _launch(fake_argv("malformed"))
        try:
            with pytest.raises(EngineProtocolError, match="malformed") as caught:
                await engine.go(EnginePosition(), QUICK)
            assert caught.value.line == "bestmove xyz"
        finally:
            await engine.quit()

    asyncio.run(run())


@pytest.mark.parametrize(("mode", "kind"), [("resign", BestMoveKind.RESIGN), ("win", BestMoveKind.WIN)])
def test_resign_and_win_are_answers(fake_argv: Argv, mode: str, kind: BestMoveKind) -> None:
    """`bestmove resign` and `bestmove win` come back as such, with no move."""

    async def run() -> None:
        engine = await _launch(fake_argv(mode))
        try:
            result = await engine.go(EnginePosition(), QUICK)
            assert result.bestmove.kind is kind and result.move is None
            await engine.gameover(GameOver.LOSE if mode == "resign" else GameOver.WIN)
        finally:
            await engine.quit()

    asyncio.run(run())


def test_ponder_then_ponderhit(fake_argv: Argv, command_log: Callable[[], list[str]]) -> None:
    """`go ponder` waits; `ponderhit` turns it into the real search, whose bestmove is then read."""

    async def run() -> None:
        engine = await _launch(fake_argv())
        try:
            await engine.set_option("USI_Ponder", True)
            search = await engine.start_search(EnginePosition().push("7g7f", "3c3d"), QUICK, ponder=True)
            await asyncio.sleep(0.1)
            assert not search.done
            await search.ponderhit()
            result = await search.wait()
            assert result.move is not None
        finally:
            await engine.quit()

    asyncio.run(run())
    sent = [line.split(" ", 1)[1] for line in command_log()]
    assert "go ponder btime 0 wtime 0 byoyomi 100" in sent and "ponderhit" in sent


def test_ponder_miss_stops_and_discards(fake_argv: Argv, command_log: Callable[[], list[str]]) -> None:
    """A new search while pondering sends `stop`, drops that answer, and searches the real position."""

    async def run() -> None:
        engine = await _launch(fake_argv())
        try:
            await engine.start_search(EnginePosition().push("7g7f", "3c3d"), QUICK, ponder=True)
            result = await engine.go(EnginePosition().push("7g7f", "8c8d"), QUICK)
            assert result.move == "1g1f"
        finally:
            await engine.quit()

    asyncio.run(run())
    sent = [line.split(" ", 1)[1] for line in command_log()]
    assert sent.index("stop") < sent.index("position startpos moves 7g7f 8c8d")


def test_go_mate_reads_checkmate(fake_argv: Argv) -> None:
    """`go mate` returns the `checkmate` sequence, its first move checked legal."""

    async def run() -> None:
        engine = await _launch(fake_argv("mate"))
        try:
            mate = await engine.go_mate(EnginePosition("4k4/9/4P4/9/9/9/9/9/4K4 b G 1"), 500)
            result = await mate.wait()
            assert result.status is MateStatus.CHECKMATE and result.moves == ("G*5b",)
        finally:
            await engine.quit()

    asyncio.run(run())


def test_quit_kills_an_engine_that_ignores_it(fake_argv: Argv) -> None:
    """An engine that does not exit on `quit` is terminated after the grace period."""

    async def run() -> tuple[int | None, float]:
        engine = await _launch(fake_argv("slow-quit"))
        started = time.monotonic()
        code = await engine.quit()
        return code, time.monotonic() - started

    code, elapsed = asyncio.run(run())
    assert code is not None and code < 0
    assert elapsed < FAST.quit_grace_s * 2 + 1.0


def test_cancelled_search_is_stopped_before_the_next(fake_argv: Argv, command_log: Callable[[], list[str]]) -> None:
    """Cancelling the task awaiting a search (e.g. the player resigned) leaves the engine usable: the next
    command sends `stop` first and reads the stale answer away."""

    async def run() -> None:
        engine = await _launch(fake_argv())
        try:
            task = asyncio.create_task(engine.go(EnginePosition(), GoLimits(infinite=True)))
            await asyncio.sleep(0.1)
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            result = await engine.go(EnginePosition().push("7g7f"), QUICK)
            assert result.move == "1a1b"
        finally:
            await engine.quit()

    asyncio.run(run())
    sent = [line.split(" ", 1)[1] for line in command_log()]
    assert sent.index("go infinite") < sent.index("stop") < sent.index("position startpos moves 7g7f")
