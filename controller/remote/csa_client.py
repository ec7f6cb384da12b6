"""A CSA protocol client over TCP (asyncio): login, game summary, agreement, moves, results, keep-alive and
reconnection with backoff.

Owns: the connection to one CSA server and one game on it. It tracks the position from the server's echoes
(every move is checked with the rules) and follows the server's clocks. It does not decide moves.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass

import cshogi

from controller.remote.csa_protocol import (
    AGREE,
    DECLARE,
    KEEPALIVE,
    LOGOUT,
    OUTCOMES,
    RESIGN,
    CsaProtocolError,
    GameEnd,
    GameSummary,
    MoveEcho,
    csa_to_usi,
    login,
    parse_move,
    parse_summary,
    usi_to_csa,
)
from controller.remote.events import RemoteMove, Resynced
from controller.rules.game import push_checked
from controller.rules.types import Color

log = logging.getLogger(__name__)


class CsaConnectionLostError(ConnectionError):
    """The server closed the connection or stopped answering."""


class CsaDesyncError(RuntimeError):
    """After reconnecting, the server's move list disagrees with the game this client knows."""


@dataclass(frozen=True)
class CsaSettings:
    """Where and how to connect.

    Attributes:
        host, port: the server.
        user, password: LOGIN names (Floodgate passwords look like `floodgate-300-10F,trip`).
        keepalive_s: send an empty line when nothing was sent for this long (the spec asks for >= 30 s).
        read_timeout_s: give up on a silent server after this long without any line.
        reconnect_attempts: how many times to reconnect after a lost connection.
        backoff_s: the first wait before reconnecting; doubled each attempt up to `backoff_max_s`.
    """

    host: str
    port: int = 4081
    user: str = ""
    password: str = ""
    keepalive_s: float = 30.0
    read_timeout_s: float = 300.0
    reconnect_attempts: int = 5
    backoff_s: float = 1.0
    backoff_max_s: float = 30.0


class CsaLine:
    """Line I/O on one TCP connection (LF-terminated ASCII)."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._reader = reader
        self._writer = writer
        self.last_sent = 0.0

    @classmethod
    async def open(cls, host: str, port: int, timeout_s: float) -> CsaLine:
        """Connect, or raise CsaConnectionLostError."""
        try:
            reader, writer = await asyncio.wait_for(asyncio.open_connection(host, port), timeout_s)
        except (OSError, TimeoutError) as exc:
            raise CsaConnectionLostError(f"cannot connect to CSA server {host}:{port}: {exc}") from exc
        return cls(reader, writer)

    async def send(self, line: str) -> None:
        """Send one line (LF added)."""
        try:
            self._writer.write((line + "\n").encode("ascii"))
            await self._writer.drain()
        except (OSError, RuntimeError) as exc:
            raise CsaConnectionLostError(f"send failed: {exc}") from exc
        self.last_sent = asyncio.get_running_loop().time()

    async def read(self, timeout_s: float) -> str:
        """The next line without its line end; CsaConnectionLostError on EOF or timeout."""
        try:
            raw = await asyncio.wait_for(self._reader.readline(), timeout_s)
        except TimeoutError as exc:
            raise CsaConnectionLostError(f"no line from the server for {timeout_s:.0f} s") from exc
        except OSError as exc:
            raise CsaConnectionLostError(f"read failed: {exc}") from exc
        if not raw:
            raise CsaConnectionLostError("the server closed the connection")
        try:
            return raw.decode("ascii").rstrip("\r\n")
        except UnicodeDecodeError as exc:
            raise CsaProtocolError(f"non-ASCII line from the server: {raw!r}") from exc

    async def close(self) -> None:
        """Close quietly."""
        self._writer.close()
        with contextlib.suppress(OSError, RuntimeError):
            await self._writer.wait_closed()


class CsaClient:
    """One game on a CSA server, as the local board's remote opponent."""

    def __init__(self, settings: CsaSettings) -> None:
        self.settings = settings
        self.summary: GameSummary | None = None
        self.board: cshogi.Board | None = None
        self.moves: list[str] = []
        self.spent: dict[Color, int] = {Color.BLACK: 0, Color.WHITE: 0}
        self._line: CsaLine | None = None
        self._keepalive: asyncio.Task[None] | None = None

    async def start(self) -> GameSummary:
        """Connect, log in, read the summary, agree and wait for START."""
        await self._connect_and_login()
        summary = await self._read_summary()
        self._adopt(summary)
        await self._agree(summary)
        return summary

    async def play(self, usi: str) -> None:
        """Send this client's move (its echo comes back through `next_event`).

        A connection lost while sending is noticed by `next_event`, which reconnects and returns `Resynced`.
        """
        text = usi_to_csa(self._board(), usi)
        try:
            await self._send(text)
        except CsaConnectionLostError as exc:
            log.warning("move %s not sent: %s", usi, exc)

    async def resign(self) -> None:
        """Send %TORYO."""
        await self._send(RESIGN)

    async def declare(self) -> None:
        """Send %KACHI (an entering-king declaration)."""
        await self._send(DECLARE)

    async def next_event(self) -> RemoteMove | GameEnd | Resynced:
        """The next confirmed move (either side's), the end of the game, or `Resynced` after a reconnection."""
        while True:
            try:
                line = await self._read()
            except CsaConnectionLostError as exc:
                log.warning("CSA connection lost (%s); reconnecting", exc)
                await self._reconnect()
                return Resynced(tuple(self.moves))
            event = await self._interpret(line)
            if event is not None:
                return event

    def remaining_s(self, side: Color) -> float:
        """The side's main time left by the server's count (seconds; byoyomi not included)."""
        summary = self._summary()
        return max(0.0, summary.times.total_s - self.spent[side])

    async def close(self) -> None:
        """Log out (best effort) and close."""
        if self._keepalive is not None:
            self._keepalive.cancel()
        if self._line is not None:
            with contextlib.suppress(CsaConnectionLostError):
                await self._line.send(LOGOUT)
            await self._line.close()
            self._line = None

    async def _interpret(self, line: str) -> RemoteMove | GameEnd | None:
        echo = parse_move(line)
        if echo is not None:
            return self._apply(echo)
        if line in RESULT_LINES or line.startswith("%"):
            return None if line.startswith("%") else await self._read_end(line)
        if line in OUTCOMES:
            return GameEnd("", line)
        if line.strip() == "":
            return None
        log.info("CSA server line ignored: %r", line)
        return None

    async def _read_end(self, reason: str) -> GameEnd:
        while True:
            line = await self._read()
            if line in OUTCOMES:
                return GameEnd(reason, line)

    def _apply(self, echo: MoveEcho) -> RemoteMove:
        board = self._board()
        usi = csa_to_usi(board, echo.side, echo.csa)
        push_checked(board, usi, len(self.moves) + 1)
        self.moves.append(usi)
        self.spent[echo.side] += echo.seconds
        return RemoteMove(echo.side, usi, echo.seconds)

    def _adopt(self, summary: GameSummary) -> None:
        self.summary = summary
        self.board = cshogi.Board(summary.start_sfen)
        self.moves = []
        for usi in summary.moves:
            push_checked(self.board, usi)
            self.moves.append(usi)

    async def _agree(self, summary: GameSummary) -> None:
        await self._send(f"{AGREE} {summary.game_id}")
        while True:
            line = await self._read()
            if line.startswith("START:"):
                return
            if line.startswith("REJECT:"):
                raise CsaProtocolError(f"the game was rejected: {line}")

    async def _connect_and_login(self) -> None:
        s = self.settings
        self._line = await CsaLine.open(s.host, s.port, timeout_s=10.0)
        await self._line.send(login(s.user, s.password))
        answer = await self._read()
        if answer != f"LOGIN:{s.user} OK":
            raise CsaProtocolError(f"login refused: {answer}")
        self._keepalive = asyncio.create_task(self._keep_alive())

    async def _read_summary(self) -> GameSummary:
        while (line := await self._read()) != "BEGIN Game_Summary":
            log.info("before the game summary: %r", line)
        lines = []
        while (line := await self._read()) != "END Game_Summary":
            lines.append(line)
        return parse_summary(lines)

    async def _reconnect(self) -> None:
        s = self.settings
        delay = s.backoff_s
        for attempt in range(1, s.reconnect_attempts + 1):
            await self._drop_line()
            await asyncio.sleep(delay)
            try:
                await self._connect_and_login()
                summary = await self._read_summary()
            except CsaConnectionLostError as exc:
                log.warning("reconnect %d/%d failed: %s", attempt, s.reconnect_attempts, exc)
                delay = min(delay * 2, s.backoff_max_s)
                continue
            self._resync(summary)
            await self._agree(summary)
            return
        raise CsaConnectionLostError(f"could not reconnect after {s.reconnect_attempts} attempts")

    def _resync(self, summary: GameSummary) -> None:
        known = self.moves
        theirs = list(summary.moves)
        if self.summary is not None and summary.game_id != self.summary.game_id:
            raise CsaDesyncError(f"the server offered another game ({summary.game_id}) after reconnecting")
        if theirs[: len(known)] != known:
            diverge = next(i for i, (a, b) in enumerate(zip(known, theirs, strict=False)) if a != b) + 1
            raise CsaDesyncError(f"the server's moves differ from ours from ply {diverge}")
        self._adopt(summary)

    async def _drop_line(self) -> None:
        if self._keepalive is not None:
            self._keepalive.cancel()
            self._keepalive = None
        if self._line is not None:
            await self._line.close()
            self._line = None

    async def _keep_alive(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(self.settings.keepalive_s / 4)
            line = self._line
            if line is not None and loop.time() - line.last_sent >= self.settings.keepalive_s:
                with contextlib.suppress(CsaConnectionLostError):
                    await line.send(KEEPALIVE)

    async def _send(self, text: str) -> None:
        if self._line is None:
            raise CsaConnectionLostError("not connected")
        await self._line.send(text)

    async def _read(self) -> str:
        if self._line is None:
            raise CsaConnectionLostError("not connected")
        return await self._line.read(self.settings.read_timeout_s)

    def _board(self) -> cshogi.Board:
        if self.board is None:
            raise CsaProtocolError("no game has started")
        return self.board

    def _summary(self) -> GameSummary:
        if self.summary is None:
            raise CsaProtocolError("no game has started")
        return self.summary


RESULT_LINES = frozenset(
    {"#RESIGN", "#TIME_UP", "#ILLEGAL_MOVE", "#SENNICHITE", "#OUTE_SENNICHITE", "#JISHOGI", "#MAX_MOVES", "#CHUDAN"}
)
