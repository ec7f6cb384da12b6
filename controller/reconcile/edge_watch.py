"""The board's edge as a sign of a hand: edge squares whose rim looks different from the rim when the position
was last confirmed.

Owns the rim picture of the last confirmed position (an opaque `RimLike` from the observation) and when the
frames last became still. A hand at the board's edge holding a piece over a square hides no square, yet its arm
crosses the rim. A difference counts only for `lasting_seconds` after the last frame with motion: a hand does
not stay still at the board that long, while something left by the board (a cup, a sleeve at rest, a piece set
down over the rim) does, and must not hold the game up. Per-segment timers were tried first: a difference that
came and went from frame to frame (cause not found) restarted its own timer on every return and held a move of
`bench game`'s game 16 until the replay gave up.
"""

from __future__ import annotations

from controller.reconcile.types import RimLike


class EdgeWatch:
    """Edge squares (SFEN indices) a hand may be at, from the rim of each still frame."""

    def __init__(self, lasting_seconds: float) -> None:
        self._lasting = lasting_seconds
        self._reference: RimLike | None = None
        self._still_since: float | None = None

    def confirm(self, rim: RimLike | None) -> None:
        """The position was confirmed on a frame with this rim: later rims are compared with it."""
        if rim is not None:
            self._reference = rim

    def moving(self) -> None:
        """A frame with motion: the still frames after it start a new count."""
        self._still_since = None

    def near(self, rim: RimLike | None, now: float) -> frozenset[int]:
        """The edge squares whose rim differs from the confirmed position's, within `lasting_seconds` of the first
        still frame after the last motion."""
        if self._still_since is None:
            self._still_since = now
        if rim is None or self._reference is None or now - self._still_since >= self._lasting:
            return frozenset()
        return rim.changed_since(self._reference)
