"""The simulated board's physical truth: every piece, the face it shows, where it lies and who holds it.

Owns: `VirtualBoard`. Pieces change place only through physical actions: the gantry's head events
(`on_head_event`: a grip lifts the piece under the head, a release sets it down where the head is, slightly off
centre; the flip station turns a piece over; a release over nothing valid leaves a lost piece on the table) and
a person's hand (`lift`, `carry`, `set_down`, `to_stand`, `from_stand`, `turn_over`, `turn_over_all`, `knock`,
used by `SimulatedHuman`).
`scene()` draws exactly what is there for the virtual camera; `ground_truth()` says what the rules would read.
Thread-safe: head events arrive from the fake GRBL device's thread while the camera renders.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, replace

import numpy as np

from controller.planning.model import SlotLoc, SquareLoc
from controller.planning.state import PhysicalState
from controller.reconcile.labels import EMPTY, square_index
from controller.rules.positions import STARTPOS_SFEN
from controller.sim.errors import SimError
from controller.sim.places import (
    AtFlipStation,
    Frames,
    InGripper,
    InHand,
    Loose,
    OnSquare,
    OnStand,
    Place,
    Spot,
)
from hardware.geometry import SLOTS_PER_KIND, BoardGeometry, Side
from vision.render import Arm, PlacedPiece, Scene

GRIPPER_HEIGHT_MM = 25.0
"""How high a piece in the gripper is drawn above the board."""
HAND_HEIGHT_MM = 45.0
"""How high a piece in a person's fingers is drawn."""


@dataclass(frozen=True)
class SimPiece:
    """One physical piece: the SFEN label it shows (`+p`: gote's tokin face up, pointing at sente) and where."""

    label: str
    place: Place


@dataclass(frozen=True)
class LostPiece:
    """A piece the gantry let go of somewhere that is no free location."""

    label: str
    x_mm: float
    y_mm: float
    why: str


def flipped(label: str) -> str:
    """The label after turning the piece face over (kings and golds have no promoted face: unchanged)."""
    if label.startswith("+"):
        return label[1:]
    return label if label.upper() in ("K", "G") else "+" + label


def turned_around(label: str) -> str:
    """The label after turning the piece's point 180 degrees (it now looks like the other player's)."""
    return label.swapcase()


def side_of(label: str) -> Side:
    """The player a label's piece points away from."""
    return Side.BLACK if label.lstrip("+").isupper() else Side.WHITE


def base_kind(label: str) -> str:
    """Sente-spelt base kind (`+p` -> `P`)."""
    return label.lstrip("+").upper()


class VirtualBoard:
    """The pieces of one simulated board, their places, a person's arm over it, and the gantry head."""

    def __init__(
        self,
        geometry: BoardGeometry,
        sfen: str = STARTPOS_SFEN,
        *,
        seed: int = 0,
        tolerance_mm: float = 3.0,
        z_tolerance_mm: float = 2.0,
    ) -> None:
        self.frames = Frames(geometry)
        self._rng = np.random.default_rng([abs(int(seed)), 0xB0A2D])
        self._tolerance, self._z_tolerance = tolerance_mm, z_tolerance_mm
        self._lock = threading.RLock()
        self._pieces: dict[int, SimPiece] = {}
        self._next_id = 0
        self.arm: Arm | None = None
        """A person's arm over the board (set by the simulated human; drawn as an occluder)."""
        self.head: tuple[float, float, float] = (*geometry.park_xy(), geometry.travel_z_mm)
        self.misses: list[str] = []
        """Grips that found no piece under the head (described)."""
        self.lost: list[LostPiece] = []
        """Pieces released where no free location was."""
        self._setup(sfen)

    # --- set-up and queries --------------------------------------------------------------------------------

    def _setup(self, sfen: str) -> None:
        for loc, piece in PhysicalState.from_sfen(_full_sfen(sfen)).items():
            if isinstance(loc, SquareLoc):
                self._add(piece.label, self._jittered(square_index(loc.square)))
            elif isinstance(loc, SlotLoc):
                self._add(piece.label, OnStand(loc.side, loc.kind, loc.index))

    def _add(self, label: str, place: Place) -> int:
        self._pieces[self._next_id] = SimPiece(label, place)
        self._next_id += 1
        return self._next_id - 1

    def _jittered(self, square: int, spread: float = 0.045, du: float = 0.0, dv: float = 0.0) -> OnSquare:
        dx, dy = np.clip(self._rng.normal(0.0, spread, 2) + np.array([du, dv]), -0.14, 0.14)
        angle = float(np.clip(self._rng.normal(0.0, 2.5), -8.0, 8.0))
        return OnSquare(square, float(dx), float(dy), angle)

    def pieces(self) -> dict[int, SimPiece]:
        """A snapshot of every piece by id."""
        with self._lock:
            return dict(self._pieces)

    def piece_at(self, square: int) -> int | None:
        """Id of the piece resting on a square (SFEN index), or None."""
        with self._lock:
            for pid, piece in self._pieces.items():
                if isinstance(piece.place, OnSquare) and piece.place.square == square:
                    return pid
            return None

    def _at_spot(self, spot: Spot) -> int | None:
        if isinstance(spot, OnSquare):
            return self.piece_at(spot.square)
        for pid, piece in self._pieces.items():
            if piece.place == spot:
                return pid
        return None

    def stand_slots(self, side: Side, kind: str) -> dict[int, int]:
        """Occupied slots of a stand row: slot index -> piece id."""
        with self._lock:
            return {
                p.place.index: pid
                for pid, p in self._pieces.items()
                if isinstance(p.place, OnStand) and p.place.side is side and p.place.kind == kind
            }

    def ground_truth(self) -> tuple[tuple[str, ...], dict[str, int]]:
        """81 SFEN-order labels of the resting pieces (`empty` for none) and the stands' counts by SFEN letter
        (`P`: on sente's stand, `p`: on gote's), counting every piece on a stand as its base kind."""
        with self._lock:
            labels = [EMPTY] * 81
            hands: dict[str, int] = {}
            for piece in self._pieces.values():
                if isinstance(piece.place, OnSquare):
                    labels[piece.place.square] = piece.label
                elif isinstance(piece.place, OnStand):
                    kind = piece.place.kind
                    letter = kind if piece.place.side is Side.BLACK else kind.lower()
                    hands[letter] = hands.get(letter, 0) + 1
            return tuple(labels), hands

    def scene(self, arm: Arm | None = None) -> Scene:
        """What the camera sees: resting pieces, pieces in hand or gripper (lifted), loose ones, the stands
        (regular pieces as the renderer's stand counts, a turned or promoted one drawn where it lies), the arm
        (`arm`, else the person's arm over the board if any)."""
        with self._lock:
            drawn: list[PlacedPiece] = []
            hands: dict[str, int] = {}
            for piece in self._pieces.values():
                place = piece.place
                if isinstance(place, OnStand) and piece.label == _stand_label(place):
                    hands[piece.label] = hands.get(piece.label, 0) + 1
                else:
                    drawn.append(self._drawn(piece))
            return Scene(tuple(drawn), hands, arm if arm is not None else self.arm)

    def _drawn(self, piece: SimPiece) -> PlacedPiece:
        place, label = piece.place, piece.label
        if isinstance(place, OnSquare):
            return PlacedPiece(label, place.square, place.dx, place.dy, place.angle_deg)
        if isinstance(place, InGripper):
            at = self.frames.render_of_xy(self.head[0], self.head[1])
            return PlacedPiece(label, None, lifted=True, at_mm=at, height_mm=GRIPPER_HEIGHT_MM)
        if isinstance(place, InHand):
            return PlacedPiece(label, None, lifted=True, at_mm=place.at_mm, height_mm=HAND_HEIGHT_MM)
        if isinstance(place, Loose):
            return PlacedPiece(label, None, angle_deg=place.angle_deg, at_mm=place.at_mm)
        assert isinstance(place, OnStand | AtFlipStation)
        return PlacedPiece(label, None, at_mm=self.frames.render_of_spot(place))

    # --- a person's hand -----------------------------------------------------------------------------------

    def lift(self, pid: int, at_mm: tuple[float, float]) -> None:
        """A person picks up a piece and holds it at `at_mm`."""
        with self._lock:
            self._pieces[pid] = replace(self._pieces[pid], place=InHand(at_mm))

    def carry(self, at_mm: tuple[float, float]) -> None:
        """Every piece in a person's fingers moves with the hand to `at_mm`."""
        with self._lock:
            for pid, piece in list(self._pieces.items()):
                if isinstance(piece.place, InHand):
                    self._pieces[pid] = replace(piece, place=InHand(at_mm))

    def set_down(self, pid: int, square: int, *, flip: bool = False, spread: float = 0.05) -> None:
        """A person sets a piece down on a square, a little off centre and turned (face over when `flip`).

        Raises:
            SimError: the square is occupied by another piece.
        """
        with self._lock:
            other = self.piece_at(square)
            if other is not None and other != pid:
                raise SimError(f"cannot set {self._pieces[pid].label} on square {square}: {self._pieces[other].label}")
            label = self._pieces[pid].label
            self._pieces[pid] = SimPiece(flipped(label) if flip else label, self._jittered(square, spread))

    def to_stand(self, pid: int, side: Side) -> None:
        """A person puts a piece on `side`'s stand, face down and pointing as that player's (a capture)."""
        with self._lock:
            kind = base_kind(self._pieces[pid].label)
            taken = self.stand_slots(side, kind)
            free = next((i for i in range(SLOTS_PER_KIND[kind]) if i not in taken), None)
            if free is None:
                raise SimError(f"no free {kind} slot on the {side.value} stand")
            label = kind if side is Side.BLACK else kind.lower()
            self._pieces[pid] = SimPiece(label, OnStand(side, kind, free))

    def from_stand(self, side: Side, kind: str) -> int:
        """Id of the piece a person takes off a stand row (the last one)."""
        slots = self.stand_slots(side, kind)
        if not slots:
            raise SimError(f"no {kind} on the {side.value} stand")
        return slots[max(slots)]

    def turn_over(self, square: int) -> str:
        """A person turns the piece on `square` face over where it lies (a promotion decided after the move, or
        the calibration's "turn every piece over"); returns the label it now shows. A king or gold has no
        promoted face: turning one over is refused rather than drawn as a blank back.

        Raises:
            SimError: no piece rests on the square, or it is a king or gold.
        """
        with self._lock:
            pid = self.piece_at(square)
            if pid is None:
                raise SimError(f"nothing to turn over on square {square}")
            piece = self._pieces[pid]
            if flipped(piece.label) == piece.label:
                raise SimError(f"a {base_kind(piece.label)} on square {square} has no other face")
            self._pieces[pid] = replace(piece, label=flipped(piece.label))
            return self._pieces[pid].label

    def turn_over_all(self) -> list[int]:
        """Turn every piece resting on the board that has another face over in place (kings and golds stay);
        returns the squares turned."""
        with self._lock:
            turned = []
            for pid, piece in list(self._pieces.items()):
                if isinstance(piece.place, OnSquare) and flipped(piece.label) != piece.label:
                    self._pieces[pid] = replace(piece, label=flipped(piece.label))
                    turned.append(piece.place.square)
            return sorted(turned)

    def knock(self, square: int, *, towards: tuple[float, float] = (0.45, 0.3), angle_deg: float = 60.0) -> int:
        """The piece on `square` is knocked half onto its neighbour and turned: it lies on no square."""
        with self._lock:
            pid = self.piece_at(square)
            if pid is None:
                raise SimError(f"nothing to knock over on square {square}")
            at = self.frames.render_of_spot(OnSquare(square, towards[0], towards[1]))
            self._pieces[pid] = replace(self._pieces[pid], place=Loose(at, angle_deg))
            return pid

    # --- the gantry ----------------------------------------------------------------------------------------

    def on_head_event(self, kind: str, x_mm: float, y_mm: float, z_mm: float) -> None:
        """Apply what the gantry head did at (x, y, z): grip, release, move, home, reset, alarm, disconnect,
        half_turn (the rotation axis turns the held piece's point)."""
        with self._lock:
            self.head = (float(x_mm), float(y_mm), float(z_mm))
            held = self._held()
            if kind == "grip":
                self._grip(held)
            elif kind == "release" or (kind in ("reset", "alarm", "disconnect") and held is not None):
                self._release(held, kind)
            elif kind in ("half_turn", "rotate") and held is not None:
                self.on_half_turn()

    def on_half_turn(self) -> None:
        """The rotation axis turned the held piece by 180 degrees."""
        with self._lock:
            held = self._held()
            if held is not None:
                self._pieces[held] = replace(self._pieces[held], label=turned_around(self._pieces[held].label))

    def _held(self) -> int | None:
        return next((pid for pid, p in self._pieces.items() if isinstance(p.place, InGripper)), None)

    def _spot_here(self) -> tuple[Spot, float, float] | None:
        x, y, z = self.head
        if abs(z - self.frames.geometry.pick_z_mm) > self._z_tolerance:
            return None
        return self.frames.spot_under(x, y, self._tolerance)

    def _grip(self, held: int | None) -> None:
        x, y, z = self.head
        if held is not None:
            self.misses.append(f"grip at ({x:.1f}, {y:.1f}, {z:.1f}) while already holding")
            return
        found = self._spot_here()
        pid = None if found is None else self._at_spot(found[0])
        if pid is None:
            self.misses.append(f"grip at ({x:.1f}, {y:.1f}, {z:.1f}) found no piece")
            return
        self._pieces[pid] = replace(self._pieces[pid], place=InGripper())

    def _release(self, held: int | None, kind: str) -> None:
        if held is None:
            return
        x, y, _ = self.head
        label = self._pieces[held].label
        found = self._spot_here()
        if found is None or self._at_spot(found[0]) is not None:
            why = f"{kind} over no location" if found is None else f"{kind} onto an occupied location"
            self.lost.append(LostPiece(label, x, y, why))
            self._pieces[held] = SimPiece(label, Loose(self.frames.render_of_xy(x, y), float(self._rng.normal(0, 20))))
            return
        spot, du, dv = found
        g = self.frames.geometry
        if isinstance(spot, OnSquare):
            place: Place = self._jittered(spot.square, 0.02, du / g.file_spacing_mm, dv / g.rank_spacing_mm)
        elif isinstance(spot, AtFlipStation):
            place, label = spot, flipped(label)
        else:
            place = spot
        self._pieces[held] = SimPiece(label, place)


def _stand_label(place: OnStand) -> str:
    """The label a regular piece on this stand shows."""
    return place.kind if place.side is Side.BLACK else place.kind.lower()


def _full_sfen(sfen: str) -> str:
    text = sfen.strip()
    if text.startswith("sfen "):
        text = text[5:]
    if text == "startpos":
        return STARTPOS_SFEN
    return text
