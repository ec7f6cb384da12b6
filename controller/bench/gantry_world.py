"""The physical truth for gantry benchmarks and tests: pieces moved only by what the head really did.

Owns: World, which replays the fake GRBL device's head events (grip, release, reset) on the pieces: a grip at
pick height over a location lifts the piece there, a release at pick height over a location sets it down (the
flip station turns it over), a release anywhere else leaves the piece loose where it fell. Comparing the world
with the executor's belief is how a benchmark knows whether a piece's position is really known.
Events are read structurally (`kind.value`, `x_mm`, `y_mm`, `z_mm`), so this needs no firmware import.
"""

from __future__ import annotations

import math
import threading
from dataclasses import dataclass
from typing import Any

from controller.planning.model import FlipStationLoc, HumanTask, Location, Piece, SlotLoc, SquareLoc
from controller.planning.motion import location_xy
from controller.planning.state import ALL_SQUARES, PhysicalState, after_task
from hardware.geometry import HAND_KINDS, SLOTS_PER_KIND, BoardGeometry, Side


@dataclass(frozen=True)
class LoosePiece:
    """A piece that fell somewhere that is no location (or onto an occupied one)."""

    piece: Piece
    x_mm: float
    y_mm: float


class World:
    """Pieces where the head really put them; thread-safe (events arrive from the fake device's thread)."""

    def __init__(self, geometry: BoardGeometry, state: PhysicalState, tolerance_mm: float = 2.0) -> None:
        self._geometry, self._tolerance = geometry, tolerance_mm
        self._places: dict[Location, Piece] = dict(state.items())
        self._points = [(loc, location_xy(geometry, loc)) for loc in _all_locations(geometry)]
        self.held: Piece | None = None
        self.loose: list[LoosePiece] = []
        self._head = (0.0, 0.0, 0.0)
        self._lock = threading.Lock()

    def feed(self, event: Any) -> None:
        """Apply one head event."""
        with self._lock:
            kind = str(event.kind.value)
            self._head = (float(event.x_mm), float(event.y_mm), float(event.z_mm))
            if kind == "grip":
                self._grip()
            elif kind == "release" or (kind in ("reset", "disconnect") and self.held is not None):
                self._release()

    def power_lost(self) -> None:
        """The controller lost power (USB unplugged and replugged): a held piece falls."""
        with self._lock:
            if self.held is not None:
                self._release()

    def human(self, loc: Location, task: HumanTask | None) -> None:
        """A person turned the piece at `loc` as asked."""
        with self._lock:
            piece = self._places.get(loc)
            if piece is not None:
                self._places[loc] = after_task(piece, task)

    def snapshot(self) -> dict[Location, Piece]:
        """Every piece on a location."""
        with self._lock:
            return dict(self._places)

    def _location_here(self) -> Location | None:
        x, y, z = self._head
        if abs(z - self._geometry.pick_z_mm) > self._tolerance:
            return None
        for loc, (lx, ly) in self._points:
            if math.hypot(lx - x, ly - y) <= self._tolerance:
                return loc
        return None

    def _grip(self) -> None:
        loc = self._location_here()
        if self.held is None and loc is not None and loc in self._places:
            self.held = self._places.pop(loc)

    def _release(self) -> None:
        piece, self.held = self.held, None
        if piece is None:
            return
        loc = self._location_here()
        if loc is None or loc in self._places:
            self.loose.append(LoosePiece(piece, self._head[0], self._head[1]))
            return
        if isinstance(loc, FlipStationLoc):
            piece = Piece(piece.kind, not piece.promoted_face, piece.facing)
        self._places[loc] = piece


def _all_locations(geometry: BoardGeometry) -> list[Location]:
    locations: list[Location] = [SquareLoc(sq) for sq in ALL_SQUARES]
    for side in Side:
        for kind in HAND_KINDS:
            locations += [SlotLoc(side, kind, i) for i in range(SLOTS_PER_KIND[kind])]
    if geometry.flip_station_uv is not None:
        locations.append(FlipStationLoc())
    return locations
