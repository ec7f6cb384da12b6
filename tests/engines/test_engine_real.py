"""The client against Debian's real engines, fairy-stockfish and gpsusi (short thinking times).

gpsusi takes a few seconds to start, so one instance (driven through SyncEngine) serves the whole module.
"""

from __future__ import annotations

import asyncio
import os
import signal
from collections.abc import Iterator

import cshogi
import pytest

from controller.engines import (
    EngineLimits,
    EnginePosition,
    EngineSpec,
    EngineState,
    EngineUnsupported,
    GameOver,
    GoLimits,
    MateStatus,
    SearchResult,
    SupervisedEngine,
    SyncEngine,
    Timeouts,
    UsiEngine,
    resolve_engine_path,
)

pytestmark = pytest.mark.engine

QUICK = GoLimits(btime_ms=0, wtime_ms=0, byoyomi_ms=100)
MATE_IN_ONE = EnginePosition("4k4/9/4P4/9/9/9/9/9/4K4 b G 1")
"""Black drops a gold on 5b, protected by the pawn on 5c: mate."""
PATIENT = Timeouts(launch_s=30.0, ready_s=60.0, bestmove_margin_s=8.0)
"""gpsusi overshoots short byoyomi (about 1 s for 100 ms) and starts slowly; the machine may be loaded."""


@pytest.fixture(scope="module")
def gps() -> Iterator[SyncEngine]:
    """One gpsusi for the module."""
    with SyncEngine(EngineSpec("gpsusi", timeouts=PATIENT)) as engine:
        yield engine


@pytest.fixture(scope="module")
def fairy() -> Iterator[SyncEngine]:
    """One fairy-stockfish for the module."""
    with SyncEngine(EngineSpec("fairy-stockfish", options={"USI_Hash": 16}, timeouts=PATIENT)) as engine:
        yield engine


def _assert_legal(position: EnginePosition, result: SearchResult) -> None:
    board = position.board()
    assert result.move in {cshogi.move_to_usi(m) for m in board.legal_moves}


def test_fairy_stockfish_options_map_usi_names(fairy: SyncEngine) -> None:
    """fairy-stockfish advertises Hash/Ponder; USI_Hash and USI_Ponder resolve to them and ponder is offered."""
    engine = fairy.engine
    assert engine.name.startswith("Fairy-Stockfish")
    hash_option = engine.resolve_option("USI_Hash")
    assert hash_option is not None and hash_option.name == "Hash"
    assert engine.supports_ponder


def test_fairy_stockfish_plays_a_legal_move(fairy: SyncEngine) -> None:
    """A byoyomi search returns a legal move with a score and a principal variation."""
    position = EnginePosition().push("7g7f")
    result = fairy.play(position, QUICK)
    _assert_legal(position, result)
    assert result.score is not None and result.pv


def test_fairy_stockfish_ponderhit(fairy: SyncEngine) -> None:
    """go ponder on the predicted reply, then ponderhit: the answer is legal in the pondered position."""
    first = fairy.play(EnginePosition(), QUICK)
    assert first.move is not None and first.bestmove.ponder is not None
    pondered = EnginePosition().push(first.move, first.bestmove.ponder)

    async def ponder() -> SearchResult:
        engine = fairy.engine
        await engine.set_option("USI_Ponder", True)
        search = await engine.start_search(pondered, QUICK, ponder=True)
        await asyncio.sleep(0.2)
        await search.ponderhit()
        return await search.wait()

    _assert_legal(pondered, fairy.run(ponder()))


def test_fairy_stockfish_infinite_then_stop(fairy: SyncEngine) -> None:
    """go infinite searches until stop, then answers a legal bestmove."""

    async def infinite() -> SearchResult:
        search = await fairy.engine.start_search(EnginePosition(), GoLimits(infinite=True))
        await asyncio.sleep(0.2)
        assert not search.done
        return await search.stop()

    _assert_legal(EnginePosition(), fairy.run(infinite()))


def test_fairy_stockfish_go_mate_answered_by_bestmove(fairy: SyncEngine) -> None:
    """fairy-stockfish answers go mate with bestmove; the mate comes from its mate score and pv."""
    result = fairy.go_mate(MATE_IN_ONE, 500)
    assert result.status is MateStatus.CHECKMATE and result.moves[0] == "G*5b"


def test_fairy_stockfish_skill_level_from_spec() -> None:
    """A skill level in the spec is sent as `Skill Level` and the engine still plays legally."""
    spec = EngineSpec("fairy-stockfish", limits=EngineLimits(nodes=2000, skill_level=-5))
    with SyncEngine(spec) as engine:
        result = engine.play(EnginePosition())
    _assert_legal(EnginePosition(), result)


def test_gpsusi_refuses_ponder_and_nodes_without_crashing(gps: SyncEngine) -> None:
    """gpsusi aborts on go ponder/nodes, so they are refused before sending; the engine stays alive."""

    async def refused() -> None:
        engine: UsiEngine = gps.engine
        assert not engine.supports_ponder
        with pytest.raises(EngineUnsupported, match="USI_Ponder"):
            await engine.start_search(EnginePosition(), QUICK, ponder=True)
        with pytest.raises(EngineUnsupported, match="nodes"):
            await engine.start_search(EnginePosition(), GoLimits(nodes=100))
        await engine.is_ready()
        assert engine.alive and engine.state is EngineState.IDLE

    gps.run(refused())


def test_gpsusi_movetime_is_sent_as_byoyomi(gps: SyncEngine) -> None:
    """A fixed time per move reaches gpsusi as byoyomi (it aborts on movetime) and gives a legal move."""
    position = EnginePosition().push("2g2f")
    _assert_legal(position, gps.play(position, GoLimits(movetime_ms=100)))
    assert gps.restarts == 0


def test_gpsusi_mate_score_is_a_mate(gps: SyncEngine) -> None:
    """gpsusi's huge cp for a mate is read as a mate score, and its move is the mating drop."""
    result = gps.play(MATE_IN_ONE, QUICK)
    assert result.move == "G*5b"
    assert result.score is not None and result.score.is_mate and result.score.mate_sign == 1


def test_gpsusi_go_mate_checkmate_then_restart(gps: SyncEngine) -> None:
    """gpsusi answers go mate with `checkmate G*5b`; since it then never answers another `go`, the supervisor
    restarts it before the next search, which gives a legal move."""
    before = gps.restarts
    result = gps.go_mate(MATE_IN_ONE, 1000)
    assert (result.status, result.moves) == (MateStatus.CHECKMATE, ("G*5b",))
    position = EnginePosition().push("7g7f")
    _assert_legal(position, gps.play(position, QUICK))
    assert gps.restarts == before + 1


def test_a_few_plies_between_fairy_stockfish_and_gpsusi(fairy: SyncEngine, gps: SyncEngine) -> None:
    """Six plies of fairy-stockfish (sente) against gpsusi (gote): every bestmove legal, no restart."""
    position = EnginePosition()
    restarts = fairy.restarts + gps.restarts
    fairy.new_game()
    gps.new_game()
    for ply in range(6):
        player = fairy if ply % 2 == 0 else gps
        result = player.play(position, GoLimits(btime_ms=1000, wtime_ms=1000, byoyomi_ms=100))
        assert result.move is not None
        _assert_legal(position, result)
        position = position.push(result.move)
    fairy.gameover(GameOver.DRAW)
    gps.gameover(GameOver.DRAW)
    assert len(position.moves) == 6 and fairy.restarts + gps.restarts == restarts


def test_default_engine_found_without_path() -> None:
    """Both Debian engines resolve with an empty PATH (they live in /usr/games)."""
    assert resolve_engine_path("fairy-stockfish", "").parent.name == "games"
    assert resolve_engine_path("gpsusi", "").name == "gpsusi"


def test_killed_fairy_stockfish_is_restarted_mid_search() -> None:
    """fairy-stockfish killed with SIGKILL during a 5 s search is detected at once, restarted, and the search
    retried on the new process: the game gets a legal move well before the original budget."""
    position = EnginePosition().push("7g7f", "3c3d")

    async def run() -> tuple[SearchResult, int, float]:
        engine = SupervisedEngine(EngineSpec("fairy-stockfish", timeouts=PATIENT))
        await engine.start()
        first_pid = engine.engine.pid
        loop = asyncio.get_running_loop()
        loop.call_later(0.3, os.kill, first_pid, signal.SIGKILL)
        started = loop.time()
        result = await engine.play(position, GoLimits(btime_ms=0, wtime_ms=0, byoyomi_ms=1000))
        elapsed = loop.time() - started
        assert engine.engine.pid != first_pid
        await engine.quit()
        return result, engine.restarts, elapsed

    result, restarts, elapsed = asyncio.run(run())
    _assert_legal(position, result)
    assert restarts == 1
    assert elapsed < 0.3 + 1.0 + 3.0
