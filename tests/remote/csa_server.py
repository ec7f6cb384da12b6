"""A CSA protocol server written for the tests: pairs two logins by game name, sends the Game_Summary, takes
AGREE, relays moves with times, ends games (resignation, time-up, illegal move, sennichite, perpetual check) and
lets a dropped player log in again and resume from the moves so far (the summary's Position block carries them).

Speaks the protocol as shogi-server does (see shared/notes/shogi-ecosystem.md §3); loopback only.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass, field

import cshogi

from controller.rules.outcome import OutcomeKind, RepetitionTracker
from controller.rules.types import Color

STARTPOS_P = [
    "P1-KY-KE-GI-KI-OU-KI-GI-KE-KY",
    "P2 * -HI *  *  *  *  * -KA * ",
    "P3-FU-FU-FU-FU-FU-FU-FU-FU-FU",
    "P4 *  *  *  *  *  *  *  *  * ",
    "P5 *  *  *  *  *  *  *  *  * ",
    "P6 *  *  *  *  *  *  *  *  * ",
    "P7+FU+FU+FU+FU+FU+FU+FU+FU+FU",
    "P8 * +KA *  *  *  *  * +HI * ",
    "P9+KY+KE+GI+KI+OU+KI+GI+KE+KY",
    "+",
]


@dataclass
class Player:
    """One logged-in connection."""

    name: str
    writer: asyncio.StreamWriter
    agreed: asyncio.Event = field(default_factory=asyncio.Event)

    async def send(self, *lines: str) -> None:
        with contextlib.suppress(OSError, RuntimeError):
            self.writer.write("".join(line + "\n" for line in lines).encode("ascii"))
            await self.writer.drain()


@dataclass
class Game:
    """A game between two players, with the server's board and clocks."""

    game_id: str
    names: dict[Color, str]
    total_s: int
    byoyomi_s: int
    players: dict[Color, Player] = field(default_factory=dict)
    board: cshogi.Board = field(default_factory=cshogi.Board)
    history: list[str] = field(default_factory=list)
    spent: dict[Color, int] = field(default_factory=lambda: {Color.BLACK: 0, Color.WHITE: 0})
    turn_started: float = 0.0
    over: bool = False
    started: bool = False
    tracker: RepetitionTracker | None = None
    timer: asyncio.Task[None] | None = None

    def side_of(self, name: str) -> Color:
        return Color.BLACK if self.names[Color.BLACK] == name else Color.WHITE

    def summary(self, side: Color) -> list[str]:
        lines = [
            "BEGIN Game_Summary",
            "Protocol_Version:1.2",
            "Protocol_Mode:Server",
            "Format:Shogi 1.0",
            "Declaration:Jishogi 1.1",
            f"Game_ID:{self.game_id}",
            f"Name+:{self.names[Color.BLACK]}",
            f"Name-:{self.names[Color.WHITE]}",
            f"Your_Turn:{'+' if side is Color.BLACK else '-'}",
            "Rematch_On_Draw:NO",
            f"To_Move:{'+' if self.board.turn == cshogi.BLACK else '-'}",
            "Max_Moves:256",
            "BEGIN Time",
            "Time_Unit:1sec",
            f"Total_Time:{self.total_s}",
            f"Byoyomi:{self.byoyomi_s}",
            "Increment:0",
            "Least_Time_Per_Move:0",
            "END Time",
            "BEGIN Position",
            *STARTPOS_P,
            *self.history,
            "END Position",
            "END Game_Summary",
        ]
        return lines


@dataclass
class ServerFaults:
    """Faults to inject: close a player's connection after that many moves of the game."""

    drop: dict[str, int] = field(default_factory=dict)


class CsaTestServer:
    """The server; `await start()` returns the port on 127.0.0.1."""

    def __init__(self, faults: ServerFaults | None = None) -> None:
        self.faults = faults or ServerFaults()
        self.waiting: dict[str, Player] = {}
        self.games: dict[str, Game] = {}
        self.results: list[tuple[str, str]] = []
        self._server: asyncio.base_events.Server | None = None
        self.dropped: set[str] = set()
        self.logins: list[str] = []
        self._tasks: set[asyncio.Task[None]] = set()

    async def start(self) -> int:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        return int(self._server.sockets[0].getsockname()[1])

    async def stop(self) -> None:
        for game in self.games.values():
            if game.timer is not None:
                game.timer.cancel()
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        player: Player | None = None
        try:
            while raw := await reader.readline():
                line = raw.decode("ascii").rstrip("\n")
                if line.startswith("LOGIN "):
                    player = await self._login(line, writer)
                    continue
                game = None if player is None else self.player_game(player.name)
                if player is not None and game is not None:
                    await self._handle(game, player, line)
                elif line == "":
                    writer.write(b"\n")
        except (OSError, UnicodeDecodeError):
            pass
        finally:
            writer.close()

    async def _login(self, line: str, writer: asyncio.StreamWriter) -> Player:
        _, name, password = line.split(" ", 2)
        game_name = password.split(",")[0]
        player = Player(name, writer)
        self.logins.append(name)
        await player.send(f"LOGIN:{name} OK")
        for game in self.games.values():
            if name in game.names.values() and not game.over:
                side = game.side_of(name)
                game.players[side] = player
                await player.send(*game.summary(side))
                return player
        if game_name in self.waiting:
            first = self.waiting.pop(game_name)
            game = self._new_game(game_name, first.name, name)
            game.players[Color.BLACK] = first
            game.players[Color.WHITE] = player
            self._tasks.add(asyncio.get_running_loop().create_task(self._begin(game)))
            return player
        self.waiting[game_name] = player
        return player

    def _new_game(self, game_name: str, black: str, white: str) -> Game:
        _, total, byoyomi = game_name.rsplit("-", 2)
        game_id = f"{game_name}+{black}+{white}+{len(self.games)}"
        game = Game(game_id, {Color.BLACK: black, Color.WHITE: white}, int(total), int(byoyomi))
        game.tracker = RepetitionTracker(game.board)
        self.games[game_id] = game
        return game

    async def _begin(self, game: Game) -> None:
        for side, player in game.players.items():
            await player.send(*game.summary(side))
        await asyncio.gather(*(p.agreed.wait() for p in game.players.values()))
        await self._broadcast(game, f"START:{game.game_id}")
        game.started = True
        self._start_turn(game)

    def player_game(self, name: str) -> Game | None:
        for game in reversed(self.games.values()):
            if name in game.names.values():
                return game
        return None

    async def _handle(self, game: Game, player: Player, line: str) -> None:
        if line.startswith("AGREE"):
            player.agreed.set()
            if game.started:
                await player.send(f"START:{game.game_id}")
        elif line == "":
            await player.send("")
        elif line == "%TORYO":
            await self._end(game, "%TORYO", "#RESIGN", loser=game.side_of(player.name))
        elif line.startswith(("+", "-")):
            await self._move(game, game.side_of(player.name), line.split(",", maxsplit=1)[0])
        elif line == "LOGOUT":
            await player.send("LOGOUT:completed")

    async def _move(self, game: Game, side: Color, text: str) -> None:
        if game.over:
            return
        mover = Color.from_cshogi(game.board.turn)
        move = (
            game.board.move_from_csa(text[1:])
            if side is mover and text[0] == ("+" if side is Color.BLACK else "-")
            else 0
        )
        if move == 0 or move not in set(game.board.legal_moves):
            await self._end(game, None, "#ILLEGAL_MOVE", loser=side)
            return
        loop = asyncio.get_running_loop()
        used = int(loop.time() - game.turn_started)
        game.spent[side] += used
        game.board.push(move)
        echo = f"{text},T{used}"
        game.history.append(echo)
        await self._broadcast(game, echo)
        await self._after_move(game, side)

    async def _after_move(self, game: Game, side: Color) -> None:
        assert game.tracker is not None
        game.tracker.record(game.board, side)
        verdict = game.tracker.verdict()
        if verdict is not None:
            kind, winner = verdict
            if kind is OutcomeKind.PERPETUAL_CHECK and winner is not None:
                await self._end(game, None, "#OUTE_SENNICHITE", loser=winner.opponent)
            else:
                await self._end(game, None, "#SENNICHITE", loser=None)
            return
        for name, after in self.faults.drop.items():
            if len(game.history) == after and name not in self.dropped:
                self.dropped.add(name)
                game.players[game.side_of(name)].writer.close()
        self._start_turn(game)

    def _start_turn(self, game: Game) -> None:
        loop = asyncio.get_running_loop()
        game.turn_started = loop.time()
        if game.timer is not None:
            game.timer.cancel()
        side = Color.from_cshogi(game.board.turn)
        allowed = max(0, game.total_s - game.spent[side]) + game.byoyomi_s
        game.timer = loop.create_task(self._time_up(game, side, allowed + 0.5))

    async def _time_up(self, game: Game, side: Color, after_s: float) -> None:
        await asyncio.sleep(after_s)
        await self._end(game, None, "#TIME_UP", loser=side)

    async def _end(self, game: Game, special: str | None, reason: str, loser: Color | None) -> None:
        if game.over:
            return
        game.over = True
        if game.timer is not None and game.timer is not asyncio.current_task():
            game.timer.cancel()
        self.results.append((game.game_id, reason))
        for side, player in game.players.items():
            outcome = "#DRAW" if loser is None else ("#LOSE" if side is loser else "#WIN")
            lines = [line for line in (special, reason, outcome) if line]
            await player.send(*lines)

    async def _broadcast(self, game: Game, line: str) -> None:
        for player in game.players.values():
            await player.send(line)
