"""Narrow exceptions of the USI engine client.

Owns: every error `controller.engines` raises. `EngineError` is the one base; the runtime failures of an engine
(it died, it hung, it said something that breaks the protocol) are caught by the supervisor, which restarts the
engine. Configuration mistakes (no such engine, an option it does not offer, a limit it cannot handle) also
subclass ValueError so that the CLI reports them as user errors.
"""

from __future__ import annotations


class EngineError(Exception):
    """Base class of every engine-client error."""


class EngineDied(EngineError):  # noqa: N818 (the names the project uses)
    """The engine process exited or closed its output.

    Attributes:
        returncode: the exit status when known (negative: killed by that signal).
        stderr_tail: the last lines the engine wrote to stderr (often says why it died).
    """

    def __init__(self, message: str, *, returncode: int | None = None, stderr_tail: str = "") -> None:
        detail = f" (exit status {returncode})" if returncode is not None else ""
        tail = f"; stderr: {stderr_tail.strip()}" if stderr_tail.strip() else ""
        super().__init__(f"{message}{detail}{tail}")
        self.returncode = returncode
        self.stderr_tail = stderr_tail


class EngineTimeout(EngineError):  # noqa: N818 (the names the project uses)
    """The engine did not answer a command in time (it is hung or far too slow).

    Attributes:
        command: what was sent (`usi`, `isready`, `go ...`).
        waited_for: the reply that did not come (`usiok`, `readyok`, `bestmove`).
        seconds: the time allowed.
    """

    def __init__(self, command: str, waited_for: str, seconds: float) -> None:
        super().__init__(f"no {waited_for!r} within {seconds:.1f} s after {command!r}")
        self.command = command
        self.waited_for = waited_for
        self.seconds = seconds


class EngineProtocolError(EngineError):
    """The engine sent a line that breaks the protocol where it matters (an illegal or malformed bestmove).

    Attributes:
        line: the offending line as received.
    """

    def __init__(self, message: str, *, line: str) -> None:
        super().__init__(f"{message}: {line!r}")
        self.line = line


class EngineConfigError(EngineError, ValueError):
    """A configuration the engine cannot be used with: the base of the user-facing errors below."""


class EngineNotFound(EngineConfigError):  # noqa: N818 (the names the project uses)
    """No engine executable under that name or path."""


class EngineOptionError(EngineConfigError):
    """An option the engine does not advertise, or a value outside what it advertises.

    Attributes:
        name: the option as the caller named it.
    """

    def __init__(self, message: str, *, name: str) -> None:
        super().__init__(message)
        self.name = name


class EngineUnsupported(EngineConfigError):  # noqa: N818 (the names the project uses)
    """A request the engine is known not to handle (for example `go ponder` or `go nodes` on gpsusi)."""
