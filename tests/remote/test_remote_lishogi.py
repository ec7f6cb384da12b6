"""The lishogi Board API client against a local server that follows the spec: a full game, a stream that breaks
mid-game, resignation, draw, chat, and the token rules."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest
from lishogi_server import LishogiTestServer

from controller.remote.events import RemoteEnd, RemoteMove, Resynced
from controller.remote.lishogi_api import LishogiApi, LishogiError, Token, TokenFileError
from controller.remote.lishogi_game import LishogiGame
from controller.rules.types import Color, Termination

SAMPLE = (Path(__file__).parents[2] / "controller/data/sample_game.usi").read_text().split()[2:]
TOKEN = "lip_testtoken123"


async def _play(server: LishogiTestServer, script: list[str], resign_after: int | None = None) -> LishogiGame:
    api = LishogiApi(Token(TOKEN), server.base_url, timeout_s=5)
    challenge = await api.challenge("script", {"clock.limit": 600, "clock.increment": 0})
    events = api.events()
    start = await anext(events)
    assert start["type"] == "gameStart"
    game = LishogiGame(api, challenge["challenge"]["id"], backoff_s=0.05)
    await game.start()
    while True:
        board = game.board()
        ply = len(game.moves)
        if board.turn == 0 and ply < len(script) and ply != getattr(game, "_sent", -1):
            game._sent = ply  # type: ignore[attr-defined]
            if resign_after is not None and ply >= resign_after:
                await game.resign()
            else:
                await game.play(script[ply])
        event = await asyncio.wait_for(game.next_event(), 10)
        if isinstance(event, Resynced):
            game._sent = -1  # type: ignore[attr-defined]
        if isinstance(event, RemoteEnd):
            game.result = event.result  # type: ignore[attr-defined]
            return game


def test_full_game() -> None:
    """It should play a whole real game through the Board API and see the mate status at the end."""
    with LishogiTestServer(TOKEN, SAMPLE) as server:
        game = asyncio.run(_play(server, SAMPLE))
    assert game.moves == SAMPLE
    assert (game.result.termination, game.result.winner) == (Termination.CHECKMATE, Color.BLACK)  # type: ignore[attr-defined]


def test_stream_breaks_mid_game() -> None:
    """It should reopen a game stream that breaks, resynchronise from gameFull and finish the game."""
    with LishogiTestServer(TOKEN, SAMPLE[:31], cut_stream_after=10) as server:
        game = asyncio.run(_play(server, SAMPLE[:31]))
        opens = server.stream_opens
    assert game.moves == SAMPLE[:31]
    assert opens == 2
    assert game.result.termination is Termination.RESIGN  # type: ignore[attr-defined]


def test_resign() -> None:
    """It should resign through the API and report gote's win."""
    with LishogiTestServer(TOKEN, SAMPLE) as server:
        game = asyncio.run(_play(server, SAMPLE, resign_after=6))
    assert (game.result.termination, game.result.winner) == (Termination.RESIGN, Color.WHITE)  # type: ignore[attr-defined]


def test_illegal_move_is_refused_locally() -> None:
    """It should refuse to send an illegal move (the rules check first) and send nothing."""

    async def run(server: LishogiTestServer) -> None:
        api = LishogiApi(Token(TOKEN), server.base_url)
        challenge = await api.challenge("script", {})
        game = LishogiGame(api, challenge["challenge"]["id"])
        await game.start()
        with pytest.raises(ValueError, match="cannot move"):
            await game.play("7g7e")

    with LishogiTestServer(TOKEN, SAMPLE) as server:
        asyncio.run(run(server))
        assert not [r for r in server.requests if "/move/" in r]


def test_wrong_token_is_a_clear_error_without_the_token() -> None:
    """It should report HTTP 401 and never show the token."""

    async def run(server: LishogiTestServer) -> None:
        api = LishogiApi(Token("lip_wrong"), server.base_url)
        await api.challenge("script", {})

    with LishogiTestServer(TOKEN, SAMPLE) as server, pytest.raises(LishogiError) as info:
        asyncio.run(run(server))
    assert info.value.status == 401
    assert "lip_wrong" not in str(info.value)


def test_token_file_permissions(tmp_path: Path) -> None:
    """It should read a 0600 token file and refuse one others can read."""
    path = tmp_path / "token"
    path.write_text(TOKEN + "\n")
    os.chmod(path, 0o600)
    token = Token.from_file(path)
    assert token.value == TOKEN
    assert TOKEN not in repr(token) and TOKEN not in str(token)
    os.chmod(path, 0o644)
    with pytest.raises(TokenFileError, match="chmod 600"):
        Token.from_file(path)


def test_moves_arrive_as_remote_moves() -> None:
    """It should report the opponent's reply as a RemoteMove by gote."""

    async def run(server: LishogiTestServer) -> list[object]:
        api = LishogiApi(Token(TOKEN), server.base_url)
        challenge = await api.challenge("script", {})
        game = LishogiGame(api, challenge["challenge"]["id"])
        await game.start()
        await game.play(SAMPLE[0])
        return [await game.next_event(), await game.next_event()]

    with LishogiTestServer(TOKEN, SAMPLE) as server:
        events = asyncio.run(run(server))
    assert events == [RemoteMove(Color.BLACK, SAMPLE[0]), RemoteMove(Color.WHITE, SAMPLE[1])]


def test_a_seek_finds_the_game_and_its_clock() -> None:
    """`remote lishogi --seek`: the link seeks, learns its side from the event stream's gameStart, and reads the
    time control from gameFull."""
    from controller.remote.links import LishogiFind, LishogiLink

    async def start() -> tuple[object, list[str]]:
        with LishogiTestServer(TOKEN, SAMPLE[:4]) as server:
            link = LishogiLink(LishogiApi(Token(TOKEN), server.base_url, timeout_s=5), LishogiFind(seek=True))
            info = await asyncio.wait_for(link.start(), 10)
            await link.close()
            return info, list(server.requests)

    info, requests = asyncio.run(start())
    assert info.local_side is Color.BLACK and info.main_s == 600 and info.byoyomi_s == 10  # type: ignore[attr-defined]
    assert any(r.startswith("POST /api/board/seek") for r in requests)
