"""The async USI client (GUI side): one engine, one conversation, every exchange under a timeout.

Owns: the `usi` handshake (id, options, `usiok`), `setoption` checked against what the engine advertises,
`isready`, `usinewgame`, searches (`position` + `go`, with ponder, `ponderhit` and `stop`), `go mate`, `gameover`
and `quit`. It reads the engine's lines itself while a command waits: `info` lines go to the running search,
unknown lines are logged and skipped, a malformed or illegal `bestmove` is an `EngineProtocolError`. End of file
on the engine's stdout is an `EngineDied` at once; silence past a deadline is an `EngineTimeout`. Restarting
after those is `controller.engines.supervisor`'s job.
"""

from __future__ import annotations

import asyncio
import enum
import logging
from collections.abc import Sequence
from pathlib import Path

from controller.engines.errors import (
    EngineDied,
    EngineError,
    EngineOptionError,
    EngineTimeout,
    EngineUnsupported,
)
from controller.engines.options import EngineOption, parse_option
from controller.engines.position import EnginePosition
from controller.engines.process import EngineProcess
from controller.engines.protocol import GoLimits
from controller.engines.quirks import OPTION_ALIASES, EngineQuirks, quirks_for
from controller.engines.search import MateSearch, RunningSearch, Search, SearchResult
from controller.engines.spec import OptionValue, Timeouts
from controller.engines.state import EngineState

_log = logging.getLogger(__name__)

_PONDER_OPTIONS = ("USI_Ponder", "Ponder")
_IMPLIED_OPTIONS = ("USI_Hash", "USI_Ponder")
"""Options USI lets a GUI send unadvertised; when an engine offers neither them nor an alias they are skipped."""


class GameOver(enum.StrEnum):
    """`gameover` results, from the engine's point of view."""

    WIN = "win"
    LOSE = "lose"
    DRAW = "draw"


class UsiEngine:
    """A running USI engine. Create with `await UsiEngine.launch(argv)`; end with `await engine.quit()`.

    Attributes:
        name: the engine's `id name` (the executable's name until the handshake).
        author: the engine's `id author`.
        options: advertised options by exact name.
        quirks: known deviations of this engine (see `controller.engines.quirks`).
    """

    def __init__(self, process: EngineProcess, timeouts: Timeouts) -> None:
        self._process = process
        self.timeouts = timeouts
        self.name = process.name
        self.author = ""
        self.options: dict[str, EngineOption] = {}
        self.quirks: EngineQuirks = quirks_for("")
        self.state = EngineState.STARTING
        self._search: RunningSearch | None = None

    @classmethod
    async def launch(cls, argv: Sequence[str], *, timeouts: Timeouts | None = None) -> UsiEngine:
        """Start the engine and complete the `usi` handshake within `timeouts.launch_s`.

        Raises:
            EngineNotFound: the executable cannot be started.
            EngineDied, EngineTimeout: it exited or stayed silent before `usiok` (the process is ended).
        """
        timeouts = timeouts or Timeouts()
        process = await EngineProcess.start(argv, cwd=Path(argv[0]).parent, logger=_log)
        engine = cls(process, timeouts)
        try:
            await engine._handshake()
        except BaseException:
            await process.close(grace_s=0.2)
            raise
        return engine

    @property
    def pid(self) -> int:
        """The engine's process id."""
        return self._process.pid

    @property
    def alive(self) -> bool:
        """False once the engine's output has closed or it has been quit."""
        return self.state not in (EngineState.DEAD, EngineState.CLOSED) and not self._process.eof

    @property
    def supports_ponder(self) -> bool:
        """True when `go ponder` may be sent: the engine offers USI_Ponder (or Ponder) and does not crash on it."""
        return self.quirks.go_ponder and any(name in self.options for name in _PONDER_OPTIONS)

    async def _handshake(self) -> None:
        await self.send("usi")
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.timeouts.launch_s
        while True:
            line = await self.expect(
                ("id", "option", "usiok"),
                command="usi",
                timeout_s=deadline - loop.time(),
                total_s=self.timeouts.launch_s,
            )
            if line == "usiok":
                break
            if line.startswith("id name "):
                self.name = line[len("id name ") :].strip()
            elif line.startswith("id author "):
                self.author = line[len("id author ") :].strip()
            elif line.startswith("option"):
                self._add_option(line)
        self.quirks = quirks_for(self.name)
        self.state = EngineState.IDLE
        _log.info(
            "engine %r ready for options (%d offered, quirks: %s)", self.name, len(self.options), self.quirks.family
        )

    def _add_option(self, line: str) -> None:
        try:
            option = parse_option(line)
        except ValueError as exc:
            _log.warning("%s: skipping malformed option line: %s", self.name, exc)
            return
        self.options[option.name] = option

    async def send(self, line: str) -> None:
        """Write one raw command line (the typed methods below are preferred)."""
        if self.state in (EngineState.DEAD, EngineState.CLOSED):
            raise EngineDied(f"engine {self.name} is no longer running", returncode=self._process.returncode)
        try:
            await self._process.send(line)
        except EngineDied:
            self.state = EngineState.DEAD
            raise

    async def expect(
        self,
        words: tuple[str, ...],
        *,
        command: str,
        timeout_s: float,
        total_s: float | None = None,
        search: RunningSearch | None = None,
    ) -> str:
        """Read lines until one starts with one of `words`; return it.

        `info` lines go to `search` when given; other lines are logged and skipped.

        Raises:
            EngineTimeout: nothing suitable within `timeout_s` (reported as `total_s` when given).
            EngineDied: the engine closed its output.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout_s
        while True:
            try:
                line = await self._process.readline(deadline - loop.time())
            except TimeoutError:
                self.state = EngineState.BROKEN
                raise EngineTimeout(command, "/".join(words), total_s or timeout_s) from None
            if line is None:
                self.state = EngineState.DEAD
                raise await self._process.died(
                    f"engine {self.name} exited while {command!r} waited for {'/'.join(words)}"
                )
            word = line.split(maxsplit=1)[0] if line.strip() else ""
            if word in words:
                return line.strip()
            if word == "info" and search is not None:
                search.add_info(line)
            elif word:
                _log.info("%s: ignored line while waiting for %s: %r", self.name, "/".join(words), line)

    def resolve_option(self, name: str) -> EngineOption | None:
        """The advertised option `name` or its alias (`USI_Hash` -> `Hash`), or None."""
        for candidate in (name, *OPTION_ALIASES.get(name, ())):
            if candidate in self.options:
                return self.options[candidate]
        return None

    async def set_option(self, name: str, value: OptionValue = None) -> None:
        """Send `setoption`, after checking the name and value against what the engine advertised.

        `USI_Hash`/`USI_Ponder` map to `Hash`/`Ponder` (fairy-stockfish); when the engine offers neither form
        (gpsusi) they are skipped with a warning.

        Raises:
            EngineOptionError: unknown option or bad value.
        """
        option = self.resolve_option(name)
        if option is None:
            if name in _IMPLIED_OPTIONS:
                _log.warning("%s offers no %s option; not sent", self.name, name)
                return
            offered = ", ".join(sorted(self.options)) or "none"
            raise EngineOptionError(f"engine {self.name} has no option {name!r} (offered: {offered})", name=name)
        try:
            text = option.check_value(value)
        except ValueError as exc:
            raise EngineOptionError(f"engine {self.name}: {exc}", name=name) from None
        await self.send(f"setoption name {option.name}" + ("" if text is None else f" value {text}"))

    async def is_ready(self) -> None:
        """`isready` and wait for `readyok` (within `timeouts.ready_s`)."""
        await self._finish_search()
        await self.send("isready")
        await self.expect(("readyok",), command="isready", timeout_s=self.timeouts.ready_s)

    async def new_game(self) -> None:
        """`usinewgame` (after `is_ready`, before the first position of a game)."""
        await self._finish_search()
        await self.send("usinewgame")

    async def start_search(self, position: EnginePosition, limits: GoLimits, *, ponder: bool = False) -> Search:
        """Send `position` and `go` (or `go ponder`) and return the running search.

        A search still running (typically a ponder search after a miss) is stopped first and its answer dropped.

        Raises:
            IllegalMoveError, PositionError: the position itself is not legal (nothing is sent).
            EngineUnsupported: ponder, or a limit, that this engine cannot take.
        """
        board = position.board()
        self._check_usable()
        if ponder and not self.supports_ponder:
            raise EngineUnsupported(f"engine {self.name} does not offer USI_Ponder; `go ponder` not sent")
        adapted = self.quirks.adapt(limits)
        await self._finish_search()
        await self.send(position.command())
        await self.send(adapted.go_command(ponder=ponder))
        self.state = EngineState.SEARCHING
        self._search = Search(self, position, board, adapted, ponder=ponder)
        return self._search

    async def go(self, position: EnginePosition, limits: GoLimits) -> SearchResult:
        """Search `position` under `limits` and return the checked answer (see `Search.wait`)."""
        search = await self.start_search(position, limits)
        return await search.wait()

    async def go_mate(self, position: EnginePosition, time_ms: int | None = None) -> MateSearch:
        """Start `go mate <time_ms>` (`go mate infinite` when None); await `.wait()` on the result."""
        board = position.board()
        self._check_usable()
        await self._finish_search()
        await self.send(position.command())
        await self.send(f"go mate {'infinite' if time_ms is None else time_ms}")
        self.state = EngineState.SEARCHING
        mate = MateSearch(self, position, board, time_ms)
        self._search = mate
        return mate

    def search_finished(self, search: RunningSearch) -> None:
        """Called by a search once its answer has been read."""
        if self._search is search:
            self._search = None
            if self.state is EngineState.SEARCHING:
                self.state = EngineState.IDLE

    def _check_usable(self) -> None:
        if self.state is EngineState.BROKEN:
            raise EngineError(
                f"engine {self.name} is in an unknown state (after a timeout, a protocol error or "
                "go mate on an engine that needs it): restart it"
            )

    async def _finish_search(self) -> None:
        search = self._search
        if search is not None and not search.done:
            _log.info("%s: stopping the running search (%s) before the next command", self.name, search.kind)
            await search.stop()
        self._search = None

    async def gameover(self, result: GameOver) -> None:
        """`gameover win|lose|draw` (stopping any search first)."""
        await self._finish_search()
        await self.send(f"gameover {result}")

    async def quit(self) -> int | None:
        """`quit`, then wait `timeouts.quit_grace_s` for the exit, then terminate / kill. Returns the exit status."""
        if self.state is not EngineState.CLOSED:
            try:
                if self._search is not None and not self._search.done and self.state is EngineState.SEARCHING:
                    await self._process.send("stop")
                await self._process.send("quit")
            except EngineError:
                pass
        self.state = EngineState.CLOSED
        return await self._process.close(self.timeouts.quit_grace_s)

    async def kill(self) -> int | None:
        """End the process now, without `quit` (for an engine that is hung or misbehaving)."""
        self.state = EngineState.CLOSED
        return await self._process.close(grace_s=0.001)
