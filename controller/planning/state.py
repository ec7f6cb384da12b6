"""Where every physical piece is: the 81 squares, both stands slot by slot, and the flip station.

Owns: PhysicalState, built from an SFEN or tracked transfer by transfer (`apply` checks that a piece is taken
from an occupied place and put onto a free one), and its logical reading (`board_field`, `hands`) to compare
with the rules' position.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from controller.planning.errors import CollisionError
from controller.planning.model import (
    FlipStationLoc,
    HumanLoc,
    HumanTask,
    Location,
    Piece,
    SlotLoc,
    SquareLoc,
    Transfer,
    TransferKind,
)
from hardware.geometry import HAND_KINDS, RANKS, SLOTS_PER_KIND, Side

ALL_SQUARES: tuple[str, ...] = tuple(f"{9 - col}{RANKS[rank]}" for rank in range(9) for col in range(9))
"""USI names in SFEN order (9a, 8a, ..., 1i)."""


class PhysicalState:
    """A mutable map from locations to pieces (copy before speculating)."""

    def __init__(self, places: dict[Location, Piece] | None = None) -> None:
        self._places: dict[Location, Piece] = dict(places or {})

    @classmethod
    def from_sfen(cls, sfen: str) -> PhysicalState:
        """Pieces on their squares as the SFEN shows them; pieces in hand in the first slots, facing their owner."""
        fields = sfen.split()
        places: dict[Location, Piece] = {}
        for square, label in zip(ALL_SQUARES, _labels(fields[0]), strict=True):
            if label:
                places[SquareLoc(square)] = Piece.from_label(label)
        for (side, kind), count in _parse_hands(fields[2] if len(fields) > 2 else "-").items():
            for index in range(count):
                places[SlotLoc(side, kind, index)] = Piece(kind, False, side)
        return cls(places)

    def copy(self) -> PhysicalState:
        """An independent copy."""
        return PhysicalState(self._places)

    def at(self, loc: Location) -> Piece | None:
        """The piece at a location, or None."""
        return self._places.get(loc)

    def items(self) -> Iterator[tuple[Location, Piece]]:
        """Every (location, piece)."""
        return iter(list(self._places.items()))

    def free_slot(self, side: Side, kind: str) -> SlotLoc:
        """The lowest free slot of `kind` on `side`'s stand."""
        for index in range(SLOTS_PER_KIND[kind]):
            slot = SlotLoc(side, kind, index)
            if slot not in self._places:
                return slot
        raise CollisionError(f"stand {side.value} has no free {kind} slot")

    def last_occupied_slot(self, side: Side, kind: str) -> SlotLoc:
        """The highest-index occupied slot of `kind` on `side`'s stand (where a drop takes its piece)."""
        for index in reversed(range(SLOTS_PER_KIND[kind])):
            slot = SlotLoc(side, kind, index)
            if slot in self._places:
                return slot
        raise CollisionError(f"stand {side.value} holds no {kind}")

    def apply(self, transfer: Transfer) -> None:
        """Update for a transfer; CollisionError when the source is empty or the destination taken."""
        piece = self._places.get(transfer.src)
        if piece is None:
            raise CollisionError(f"{transfer.describe()}: nothing at {transfer.src}")
        if transfer.kind is TransferKind.HUMAN_ACTION:
            self._places[transfer.src] = after_task(piece, transfer.task)
            return
        if transfer.dst != transfer.src and transfer.dst in self._places and not isinstance(transfer.dst, HumanLoc):
            occupant = self._places[transfer.dst].label
            raise CollisionError(f"{transfer.describe()}: {transfer.dst} is occupied by {occupant}")
        del self._places[transfer.src]
        if transfer.half_turn:
            piece = Piece(piece.kind, piece.promoted_face, _other(piece.facing))
        if transfer.kind is TransferKind.FLIP:
            piece = Piece(piece.kind, not piece.promoted_face, piece.facing)
        self._places[transfer.dst] = piece

    def take(self, loc: Location) -> Piece:
        """Remove and return the piece at `loc` (it left every known place, e.g. dropped by a fault)."""
        piece = self._places.pop(loc, None)
        if piece is None:
            raise CollisionError(f"nothing at {loc} to take")
        return piece

    def put(self, loc: Location, piece: Piece) -> None:
        """Place a piece at a free location (a piece found again after a fault)."""
        if loc in self._places:
            raise CollisionError(f"{loc} is occupied by {self._places[loc].label}")
        self._places[loc] = piece

    def board_field(self) -> str:
        """The SFEN board field the squares show."""
        rows = []
        for rank in range(9):
            row, gap = "", 0
            for square in ALL_SQUARES[rank * 9 : rank * 9 + 9]:
                piece = self._places.get(SquareLoc(square))
                if piece is None:
                    gap += 1
                    continue
                row += (str(gap) if gap else "") + piece.label
                gap = 0
            rows.append(row + (str(gap) if gap else ""))
        return "/".join(rows)

    def hands(self) -> Counter[tuple[Side, str]]:
        """Pieces in each stand by (side, base kind)."""
        return Counter((loc.side, loc.kind) for loc in self._places if isinstance(loc, SlotLoc))

    def flip_station_piece(self) -> Piece | None:
        """The piece in the flip station, if any."""
        return self._places.get(FlipStationLoc())


def _other(side: Side) -> Side:
    return Side.WHITE if side is Side.BLACK else Side.BLACK


def after_task(piece: Piece, task: HumanTask | None) -> Piece:
    """The piece after a person did `task` to it."""
    over = task in (HumanTask.TURN_OVER, HumanTask.TURN_OVER_AND_AROUND)
    around = task in (HumanTask.TURN_AROUND, HumanTask.TURN_OVER_AND_AROUND)
    return Piece(piece.kind, piece.promoted_face != over, _other(piece.facing) if around else piece.facing)


def _labels(board_field: str) -> list[str]:
    labels: list[str] = []
    prefix = ""
    for ch in board_field:
        if ch == "/":
            continue
        if ch == "+":
            prefix = "+"
        elif ch.isdigit():
            labels.extend([""] * int(ch))
        else:
            labels.append(prefix + ch)
            prefix = ""
    return labels


def _parse_hands(field: str) -> Counter[tuple[Side, str]]:
    hands: Counter[tuple[Side, str]] = Counter()
    count = ""
    for ch in "" if field == "-" else field:
        if ch.isdigit():
            count += ch
            continue
        side = Side.BLACK if ch.isupper() else Side.WHITE
        if ch.upper() not in HAND_KINDS:
            raise CollisionError(f"unknown piece {ch!r} in the hands field {field!r}")
        hands[(side, ch.upper())] += int(count or "1")
        count = ""
    return hands


def hands_field(hands: Counter[tuple[Side, str]]) -> str:
    """The SFEN hands field for counts by (side, kind), in SFEN order (sente's R..P then gote's)."""
    parts = []
    for side in (Side.BLACK, Side.WHITE):
        for kind in HAND_KINDS:
            n = hands.get((side, kind), 0)
            if n:
                letter = kind if side is Side.BLACK else kind.lower()
                parts.append((str(n) if n > 1 else "") + letter)
    return "".join(parts) or "-"
