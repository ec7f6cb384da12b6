"""The states of one engine conversation (shared by the client and its running searches)."""

from __future__ import annotations

import enum


class EngineState(enum.Enum):
    """Where the conversation with one engine stands."""

    STARTING = "starting"
    """Launched; the `usi` handshake has not finished."""
    IDLE = "idle"
    SEARCHING = "searching"
    BROKEN = "broken"
    """A timeout or protocol error left the engine in an unknown state: restart it."""
    DEAD = "dead"
    """The process exited or closed its output."""
    CLOSED = "closed"
    """`quit` was sent or the process was killed by us."""
