"""One engine process and its pipes.

Owns: starting the executable (argv, working directory = the engine's own directory, because engines load
their evaluation files relative to it), a reader task that moves stdout lines into a queue as they arrive (so a
pondering engine never blocks on a full pipe), a short tail of stderr for error messages, writing commands, and
ending the process (wait, then terminate, then kill). It knows nothing of USI beyond "lines of text".
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
from collections.abc import Sequence
from pathlib import Path

from controller.engines.errors import EngineDied, EngineNotFound

_LINE_LIMIT = 1 << 20
"""Longest line accepted from an engine (fairy-stockfish's variant option line is about 1.5 kB)."""
_STDERR_LINES = 20


class EngineProcess:
    """A running engine executable, line-oriented.

    Create with `await EngineProcess.start(argv)`. `readline` returns None once the engine closed its output
    (it died or quit); after that `returncode` and `stderr_tail` say why.
    """

    def __init__(self, proc: asyncio.subprocess.Process, name: str, logger: logging.Logger) -> None:
        self._proc = proc
        self.name = name
        self._log = logger
        self._lines: asyncio.Queue[str | None] = asyncio.Queue()
        self._stderr: collections.deque[str] = collections.deque(maxlen=_STDERR_LINES)
        self.eof = False
        """True once stdout reached end of file (the reader has queued the final None)."""
        self._tasks = [
            asyncio.create_task(self._read_stdout(), name=f"{name}-stdout"),
            asyncio.create_task(self._read_stderr(), name=f"{name}-stderr"),
        ]

    @classmethod
    async def start(
        cls, argv: Sequence[str], *, cwd: Path | None = None, logger: logging.Logger | None = None
    ) -> EngineProcess:
        """Start the engine.

        Raises:
            EngineNotFound: the executable cannot be started.
        """
        executable = Path(argv[0])
        log = logger or logging.getLogger(__name__)
        try:
            proc = await asyncio.create_subprocess_exec(
                *argv,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
                cwd=cwd if cwd is not None else (executable.parent if executable.parent != Path() else None),
                limit=_LINE_LIMIT,
                start_new_session=True,
            )
        except OSError as exc:
            raise EngineNotFound(f"cannot start engine {argv[0]!r}: {exc}") from exc
        log.debug("started %s (pid %d)", argv, proc.pid)
        return cls(proc, executable.name, log)

    @property
    def pid(self) -> int:
        """The process id."""
        return self._proc.pid

    @property
    def returncode(self) -> int | None:
        """Exit status once the process has ended (negative: the signal that killed it)."""
        return self._proc.returncode

    @property
    def stderr_tail(self) -> str:
        """The last lines the engine wrote to stderr."""
        return "\n".join(self._stderr)

    async def _read_stdout(self) -> None:
        assert self._proc.stdout is not None
        try:
            while True:
                raw = await self._proc.stdout.readline()
                if not raw:
                    break
                line = raw.decode("utf-8", errors="replace").rstrip("\r\n")
                self._log.debug("%s > %s", self.name, line)
                self._lines.put_nowait(line)
        except (ValueError, OSError) as exc:
            self._log.warning("%s: stdout unreadable: %s", self.name, exc)
        finally:
            self.eof = True
            self._lines.put_nowait(None)

    async def _read_stderr(self) -> None:
        assert self._proc.stderr is not None
        with contextlib.suppress(ValueError, OSError):
            while raw := await self._proc.stderr.readline():
                line = raw.decode("utf-8", errors="replace").rstrip("\r\n")
                self._log.debug("%s stderr: %s", self.name, line)
                self._stderr.append(line)

    async def readline(self, timeout_s: float) -> str | None:
        """The next stdout line, or None at end of file.

        Raises:
            TimeoutError: nothing arrived within `timeout_s`.
        """
        try:
            return self._lines.get_nowait()
        except asyncio.QueueEmpty:
            if timeout_s <= 0:
                raise TimeoutError from None
        return await asyncio.wait_for(self._lines.get(), timeout=timeout_s)

    async def send(self, line: str) -> None:
        """Write one command line.

        Raises:
            EngineDied: the engine's input is closed (it has exited).
        """
        stdin = self._proc.stdin
        assert stdin is not None
        self._log.debug("%s < %s", self.name, line)
        try:
            stdin.write(f"{line}\n".encode())
            await stdin.drain()
        except (BrokenPipeError, ConnectionResetError) as exc:
            raise await self.died(f"engine {self.name} closed its input while sending {line!r}") from exc

    async def died(self, message: str) -> EngineDied:
        """An `EngineDied` for this process, with its exit status (waited for briefly) and stderr tail."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._proc.wait(), timeout=1.0)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.gather(*self._tasks, return_exceptions=True), timeout=0.5)
        return EngineDied(message, returncode=self.returncode, stderr_tail=self.stderr_tail)

    async def close(self, grace_s: float) -> int | None:
        """Make sure the process has ended: wait `grace_s`, terminate, wait again, kill. Returns the exit status."""
        for action in (None, self._proc.terminate, self._proc.kill):
            if self._proc.returncode is not None:
                break
            if action is not None:
                self._log.info("%s: %s", self.name, "terminating" if action == self._proc.terminate else "killing")
                with contextlib.suppress(ProcessLookupError):
                    action()
            wait_s = max(grace_s, 2.0) if action == self._proc.kill else grace_s
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._proc.wait(), timeout=wait_s)
        if self._proc.stdin is not None:
            self._proc.stdin.close()
        _done, pending = await asyncio.wait(self._tasks, timeout=1.0)
        for task in pending:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        return self._proc.returncode
