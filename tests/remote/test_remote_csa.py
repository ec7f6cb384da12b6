"""The CSA client against the test server over loopback: full games, time-up, resignation, repetition, and a
dropped connection that is resumed."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from csa_server import CsaTestServer, ServerFaults

from controller.remote.csa_client import CsaClient, CsaSettings, Resynced
from controller.remote.csa_protocol import GameEnd
from controller.remote.events import RemoteMove
from controller.rules.types import Color, Termination

SAMPLE = (Path(__file__).parents[2] / "controller/data/sample_game.usi").read_text().split()[2:]
SHUFFLE = ["5i5h", "5a5b", "5h5i", "5b5a"]


async def _player(client: CsaClient, script: list[str], when_done: str) -> GameEnd:
    """Play `script` for this client's side; then resign, or wait for the clock."""
    summary = await client.start()
    sent_at = -1
    while True:
        assert client.board is not None
        my_turn = Color.from_cshogi(client.board.turn) is summary.my_side
        ply = len(client.moves)
        if my_turn and sent_at != ply:
            sent_at = ply
            if ply < len(script):
                await client.play(script[ply])
            elif when_done == "resign":
                await client.resign()
        event = await client.next_event()
        if isinstance(event, Resynced):
            sent_at = -1
        if isinstance(event, GameEnd):
            await client.close()
            return event


async def _match(
    script: list[str], game: str, *, faults: ServerFaults | None = None, when_done: str = "resign"
) -> tuple[GameEnd, GameEnd, CsaClient, CsaClient, CsaTestServer]:
    server = CsaTestServer(faults)
    port = await server.start()
    settings = {"host": "127.0.0.1", "port": port, "backoff_s": 0.05, "read_timeout_s": 10.0}
    alice = CsaClient(CsaSettings(user="alice", password=f"{game},x", **settings))  # type: ignore[arg-type]
    bob = CsaClient(CsaSettings(user="bob", password=f"{game},y", **settings))  # type: ignore[arg-type]
    task_a = asyncio.create_task(_player(alice, script, when_done))
    await asyncio.sleep(0.05)
    end_b = await asyncio.wait_for(_player(bob, script, when_done), 30)
    end_a = await asyncio.wait_for(task_a, 30)
    await server.stop()
    return end_a, end_b, alice, bob, server


def test_full_game_ends_by_resignation() -> None:
    """It should play a real 75-ply game move by move; the mated side resigns."""
    end_a, end_b, alice, bob, _ = asyncio.run(_match(SAMPLE, "g-600-10"))
    assert alice.moves == bob.moves == SAMPLE
    assert (end_a.reason, end_a.outcome, end_b.outcome) == ("#RESIGN", "#WIN", "#LOSE")
    result = end_b.result(Color.WHITE)
    assert (result.termination, result.winner) == (Termination.RESIGN, Color.BLACK)


def test_time_up() -> None:
    """It should report a time-up loss for the side that let its clock run out."""
    end_a, end_b, alice, _, _ = asyncio.run(_match(["7g7f"], "t-1-0", when_done="wait"))
    assert (end_b.reason, end_b.outcome, end_a.outcome) == ("#TIME_UP", "#LOSE", "#WIN")
    assert alice.moves == ["7g7f"]


def test_repetition_is_a_draw() -> None:
    """It should end in sennichite, a draw for both, on the fourth occurrence."""
    end_a, end_b, alice, _, _ = asyncio.run(_match(SHUFFLE * 3, "r-600-10"))
    assert (end_a.reason, end_a.outcome, end_b.outcome) == ("#SENNICHITE", "#DRAW", "#DRAW")
    assert len(alice.moves) == 12
    assert end_a.result(Color.BLACK).termination is Termination.REPETITION


@pytest.mark.parametrize("victim", ["alice", "bob"])
def test_dropped_connection_resumes(victim: str) -> None:
    """It should reconnect after the server drops it, resynchronise and finish the same game."""
    end_a, end_b, alice, bob, server = asyncio.run(
        _match(SAMPLE[:20], "d-600-10", faults=ServerFaults(drop={victim: 5}))
    )
    assert alice.moves == bob.moves == SAMPLE[:20]
    assert {end_a.outcome, end_b.outcome} == {"#WIN", "#LOSE"}
    assert [reason for _, reason in server.results] == ["#RESIGN"]
    assert server.dropped == {victim}
    assert server.logins.count(victim) == 2


async def _round_trips(plies: int) -> list[float]:
    """Seconds from one client sending a move to the other client receiving it, over loopback."""
    server = CsaTestServer()
    port = await server.start()
    settings = {"host": "127.0.0.1", "port": port, "read_timeout_s": 10.0}
    clients = [CsaClient(CsaSettings(user=u, password=f"lat-600-10,{u}", **settings)) for u in ("alice", "bob")]  # type: ignore[arg-type]
    first = asyncio.create_task(clients[0].start())
    await asyncio.sleep(0.05)
    await clients[1].start()
    await first
    loop = asyncio.get_running_loop()
    times = []
    for ply in range(plies):
        mover, other = clients[ply % 2], clients[(ply + 1) % 2]
        start = loop.time()
        await mover.play(SAMPLE[ply])
        while not isinstance(await other.next_event(), RemoteMove):
            pass
        times.append(loop.time() - start)
        await mover.next_event()
    assert clients[0].moves == clients[1].moves == SAMPLE[:plies]
    for client in clients:
        await client.close()
    await server.stop()
    return times


def test_move_round_trip_latency() -> None:
    """It should carry each move to the other side over loopback (figure printed for the issue note)."""
    times = sorted(asyncio.run(_round_trips(20)))
    median, worst = times[10] * 1000, times[-1] * 1000
    print(f"CSA move latency, client -> server -> other client: median {median:.1f} ms, max {worst:.1f} ms")
    assert len(times) == 20
