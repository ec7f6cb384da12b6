"""Turn one shogi move (USI) in a position into physical transfers.

Owns: `plan_move` and the `Carrier` that every planner (moves and board setups) uses to carry a piece from one
location to another in the state it needs to arrive in: face up or down (the flip station, else a person turns
it over) and pointing the right way (the rotation axis, else a person turns it around).

Rules followed: a capture first carries the captured piece to the capturer's stand slot for its base kind
(a dragon is stored as a rook, showing its unpromoted face when the flip station exists), then moves the
capturer; a drop takes the highest-index occupied slot of that kind; a promoting piece ends face down.
Pieces in a stand may still point at their former owner (no rotation axis) or show a promoted face (no flip
station); they are put right when they are next dropped, by a HUMAN_ACTION before the drop.
"""

from __future__ import annotations

from dataclasses import dataclass

import cshogi

from controller.planning.errors import PlanningError
from controller.planning.model import (
    FlipStationLoc,
    HumanTask,
    Location,
    SquareLoc,
    Transfer,
    TransferKind,
)
from controller.planning.state import PhysicalState
from controller.rules.errors import PositionError
from controller.rules.positions import board_from_sfen
from hardware.geometry import BoardGeometry, RotationMethod, Side, parse_square


@dataclass(frozen=True)
class Capabilities:
    """What the machine can do to a piece besides carrying it."""

    flip_station: bool
    rotation_axis: bool

    @classmethod
    def of(cls, geometry: BoardGeometry) -> Capabilities:
        """The capabilities a geometry configures."""
        return cls(geometry.flip_station_uv is not None, geometry.rotation is RotationMethod.AXIS)


@dataclass(frozen=True)
class Plan:
    """Transfers in execution order (the state they lead to is the caller's copy, updated)."""

    transfers: tuple[Transfer, ...]


class Carrier:
    """Appends transfers to a list while applying them to a state (so collisions are caught when planned)."""

    def __init__(self, state: PhysicalState, caps: Capabilities) -> None:
        self.state, self.caps = state, caps
        self.transfers: list[Transfer] = []

    def emit(self, transfer: Transfer) -> None:
        """Record a transfer and apply it."""
        self.state.apply(transfer)
        self.transfers.append(transfer)

    def carry(
        self,
        src: Location,
        dst: Location,
        kind: TransferKind,
        *,
        want_promoted: bool | None,
        want_facing: Side | None,
        fix_after: bool = False,
    ) -> None:
        """Carry the piece at `src` to `dst`, arriving in the wanted state where a machine or person can do it.

        `want_*` None means "whatever it is". A person fixes the piece before the carry, at `src`, or after it,
        at `dst` when `fix_after` (a promotion: the piece is turned over on its new square).
        """
        piece = self.state.at(src)
        if piece is None:
            raise PlanningError(f"no piece at {src} to carry to {dst}")
        flip = want_promoted is not None and piece.promoted_face != want_promoted
        turn = want_facing is not None and piece.facing is not want_facing
        if flip and self.caps.flip_station:
            self.emit(Transfer(piece.label, src, FlipStationLoc(), TransferKind.FLIP))
            src, flip = FlipStationLoc(), False
        half_turn = turn and self.caps.rotation_axis
        turn = turn and not half_turn
        task = human_task(flip, turn)
        if task is not None and not fix_after:
            self.emit(Transfer(self._label(src), src, src, TransferKind.HUMAN_ACTION, task=task))
        self.emit(Transfer(self._label(src), src, dst, kind, half_turn=half_turn))
        if task is not None and fix_after:
            self.emit(Transfer(self._label(dst), dst, dst, TransferKind.HUMAN_ACTION, task=task))

    def _label(self, loc: Location) -> str:
        piece = self.state.at(loc)
        return piece.label if piece is not None else "?"


def human_task(flip: bool, turn: bool) -> HumanTask | None:
    """What a person must do to turn a piece over (`flip`) and/or around (`turn`); None for nothing."""
    if flip and turn:
        return HumanTask.TURN_OVER_AND_AROUND
    if flip:
        return HumanTask.TURN_OVER
    return HumanTask.TURN_AROUND if turn else None


def plan_move(state: PhysicalState, position: str | cshogi.Board, usi: str, caps: Capabilities) -> Plan:
    """Transfers that play `usi` in `position` (an SFEN or a cshogi board); `state` (the pieces as they are) is
    updated.

    Raises:
        PlanningError: the move is malformed or illegal, or the physical state does not hold the pieces it needs.
    """
    board = _board(position) if isinstance(position, str) else position
    move = board.move_from_usi(usi) if _well_formed(usi) else 0
    if not move or not board.is_legal(move):
        raise PlanningError(f"illegal or malformed move {usi!r} in {board.sfen()!r}")
    me = Side.BLACK if board.turn == cshogi.BLACK else Side.WHITE
    carrier = Carrier(state, caps)
    if "*" in usi:
        kind, dst = usi[0], SquareLoc(usi[2:4])
        slot = state.last_occupied_slot(me, kind)
        carrier.carry(slot, dst, TransferKind.DROP, want_promoted=False, want_facing=me)
        return Plan(tuple(carrier.transfers))
    src, dst = SquareLoc(usi[0:2]), SquareLoc(usi[2:4])
    captured = state.at(dst)
    if captured is not None:
        slot = state.free_slot(me, captured.kind)
        want = False if caps.flip_station else None
        facing = me if caps.rotation_axis else None
        carrier.carry(dst, slot, TransferKind.CAPTURE_TO_STAND, want_promoted=want, want_facing=facing)
    want_promoted = True if usi.endswith("+") else None
    carrier.carry(src, dst, TransferKind.MOVE, want_promoted=want_promoted, want_facing=None, fix_after=True)
    return Plan(tuple(carrier.transfers))


def _well_formed(usi: str) -> bool:
    try:
        if len(usi) == 4 and usi[1] == "*":
            return usi[0] in "RBGSNLP" and bool(parse_square(usi[2:4]))
        if len(usi) in (4, 5):
            return bool(parse_square(usi[0:2])) and bool(parse_square(usi[2:4])) and usi[4:] in ("", "+")
    except ValueError:
        return False
    return False


def _board(sfen: str) -> cshogi.Board:
    try:
        return board_from_sfen(sfen)
    except PositionError as exc:
        raise PlanningError(str(exc)) from exc
