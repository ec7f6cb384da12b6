"""A game against a remote player, set up from what the server announces.

Owns: turning a `RemoteStart` into the local game's settings (the remote side is the opponent; the start is the
server's position after any moves already played; the server's time control, shown by the local clock but judged
by the server), the record header's names, and the remote figures printed at the end.
"""

from __future__ import annotations

import statistics
from dataclasses import replace
from typing import Any

import cshogi

from controller.game.clock import ClockConfig
from controller.game.errors import ClockError
from controller.game.settings import GameSettings, Mode, OpponentKind
from controller.remote.links import RemoteStart
from controller.rules.types import Color
from controller.runner.remote_opponent import RemoteFigures


def start_position(start: RemoteStart) -> str:
    """The local game's start: the server's start with the moves already played (they are not replayed here)."""
    board = cshogi.Board(start.start_sfen)
    for usi in start.moves:
        board.push_usi(usi)
    sfen: str = board.sfen()
    return sfen


def server_clock(start: RemoteStart) -> ClockConfig:
    """The server's time control (untimed when it announces none or one this clock cannot show)."""
    if start.main_s <= 0 and start.byoyomi_s <= 0 and start.increment_s <= 0:
        return ClockConfig(untimed=True)
    try:
        return ClockConfig(main_s=start.main_s, byoyomi_s=start.byoyomi_s, increment_s=start.increment_s)
    except ClockError:
        return ClockConfig(untimed=True)


def remote_settings(base: GameSettings, start: RemoteStart) -> GameSettings:
    """Play mode against the remote side, from the server's position and clock (gantry and rules from `base`)."""
    return replace(
        base,
        mode=Mode.PLAY,
        opponent=OpponentKind.REMOTE,
        opponent_side=start.remote_side,
        start_sfen=start_position(start),
        clock=server_clock(start),
    )


def names(start: RemoteStart) -> dict[str, str]:
    """Player names by side value, as the web page shows them."""
    return {Color.BLACK.value: start.black_name, Color.WHITE.value: start.white_name}


def header(start: RemoteStart, server: str) -> dict[str, Any]:
    """What the journal records about the opponent: its name (the record's player name), ours, the server."""
    remote = start.white_name if start.remote_side is Color.WHITE else start.black_name
    local = start.black_name if start.remote_side is Color.WHITE else start.white_name
    return {"name": remote, "local_name": local, "server": server, "game_id": start.game_id}


def figure_lines(figures: RemoteFigures) -> list[str]:
    """The latency figures of the local moves, for the summary."""
    trips, delays = figures.round_trips_ms(), figures.send_delays_ms()
    if not trips:
        return ["  remote: no local move was confirmed by the server"]
    lines = [
        f"  remote: {len(trips)} local moves confirmed by the server; sent -> echoed median "
        f"{statistics.median(trips):.1f} ms, max {max(trips):.1f} ms"
    ]
    if delays:
        lines.append(f"  remote: committed on the board -> sent median {statistics.median(delays):.1f} ms")
    return lines
