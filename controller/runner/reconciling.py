"""The reconciler as the game loop uses it, and the commands that address it.

Owns: `ReconcilerPort` (the part of `controller.reconcile.Reconciler` the loop needs) and `apply_to_reconciler`,
which carries out `ExpectPosition`, `ExpectMove` and `ReadBoard` on it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from controller.game.commands import Command, ExpectMove, ExpectPosition, ReadBoard
from controller.reconcile.types import Observation, Result


class ReconcilerPort(Protocol):
    """`controller.reconcile.reconciler.Reconciler`, as far as the loop uses it."""

    def observe(self, obs: Observation) -> Result:
        """Take one observation."""
        ...

    def set_position(self, sfen: str, moves: Iterable[str] = ()) -> None:
        """Resynchronise with the game."""
        ...

    def expect(self, move: str | None) -> None:
        """Announce the opponent's move."""
        ...

    def decide_now(self) -> None:
        """A move-done button: decide on the next stable frame."""
        ...


def apply_to_reconciler(reconciler: ReconcilerPort, command: Command) -> bool:
    """Carry out `command` if it addresses the reconciler; True when it did."""
    if isinstance(command, ExpectPosition):
        reconciler.set_position(command.start_sfen, command.moves)
    elif isinstance(command, ExpectMove):
        reconciler.expect(command.usi)
    elif isinstance(command, ReadBoard):
        reconciler.decide_now()
    else:
        return False
    return True
