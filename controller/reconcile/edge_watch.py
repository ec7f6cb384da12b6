"""The board's edge as a sign of a hand: edge squares whose rim looks different from the rim when the position
was last confirmed.

Owns the rim picture of the last confirmed position (an opaque `RimLike` from the observation) and how long
each edge square's rim has differed on still frames. A hand at the board's edge holding a piece over a square
hides no square, yet its arm crosses the rim; something left on the rim for `lasting_seconds` (a cup, a sleeve
at rest) is no hand, and stops counting, as the reader's lasting false alarms on squares do.
"""

from __future__ import annotations

from controller.reconcile.types import RimLike


class EdgeWatch:
    """Edge squares (SFEN indices) a hand may be at, from the rim of each still frame."""

    def __init__(self, lasting_seconds: float) -> None:
        self._lasting = lasting_seconds
        self._reference: RimLike | None = None
        self._since: dict[int, float] = {}

    def confirm(self, rim: RimLike | None) -> None:
        """The position was confirmed on a frame with this rim: later rims are compared with it."""
        if rim is not None:
            self._reference = rim
        self._since.clear()

    def moving(self) -> None:
        """A frame with motion: a difference seen after it is a fresh one."""
        self._since.clear()

    def near(self, rim: RimLike | None, now: float) -> frozenset[int]:
        """The edge squares whose rim differs from the confirmed position's, for less than `lasting_seconds`."""
        if rim is None or self._reference is None:
            self._since.clear()
            return frozenset()
        changed = rim.changed_since(self._reference)
        self._since = {i: self._since.get(i, now) for i in changed}
        return frozenset(i for i, t in self._since.items() if now - t < self._lasting)
