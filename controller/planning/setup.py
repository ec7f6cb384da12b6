"""Board setup: transfers that turn the pieces as they are into a target position (e.g. back to the start).

Owns: `plan_setup`. Pieces are matched to target places by base kind (pieces already in a right place stay;
the rest are paired greedily by distance), then carried in an order that never puts a piece onto an occupied
square: a piece whose target is still taken waits; when every waiting piece waits on another (a cycle), one of
the blockers is parked on a free buffer square (or a free stand slot) first. Pieces that are in place but show
the wrong face or point the wrong way are put right in place (flip station, rotation axis, or a person).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from controller.planning.errors import PlanningError
from controller.planning.model import Location, Piece, SlotLoc, SquareLoc, Transfer, TransferKind
from controller.planning.planner import Capabilities, Carrier, Plan, human_task
from controller.planning.state import ALL_SQUARES, PhysicalState
from hardware.geometry import Side, parse_square


@dataclass(frozen=True)
class _Job:
    """A piece that must go to `target` (a square), or to the stand of `want.facing` when target is None."""

    src: Location
    target: SquareLoc | None
    want: Piece


def plan_setup(state: PhysicalState, target_sfen: str, caps: Capabilities) -> Plan:
    """Transfers from `state` to the position `target_sfen` (board and hands); `state` is updated.

    Raises:
        PlanningError: the target needs other pieces than the ones there are (counts by kind differ).
    """
    target = PhysicalState.from_sfen(target_sfen)
    _check_counts(state, target)
    carrier = Carrier(state, caps)
    jobs = _match(state, target, caps)
    _run_jobs(carrier, jobs)
    _fix_in_place(carrier, target)
    return Plan(tuple(carrier.transfers))


def _check_counts(state: PhysicalState, target: PhysicalState) -> None:
    have = Counter(p.kind for _, p in state.items())
    need = Counter(p.kind for _, p in target.items())
    if have != need:
        kinds = sorted(set(have) | set(need))
        diff = ", ".join(f"{k}: have {have[k]}, need {need[k]}" for k in kinds if have[k] != need[k])
        raise PlanningError(f"the target position needs other pieces than the board holds ({diff})")


def _match(state: PhysicalState, target: PhysicalState, caps: Capabilities) -> list[_Job]:
    """Pair every misplaced piece with a free target place of its kind."""
    open_targets: list[tuple[Location, Piece]] = []
    placed: set[Location] = set()
    for loc, want in target.items():
        have = state.at(loc) if isinstance(loc, SquareLoc) else None
        if have is not None and have.kind == want.kind:
            placed.add(loc)
        elif isinstance(loc, SquareLoc):
            open_targets.append((loc, want))
    stand_need = target.hands()
    for loc, piece in state.items():
        if isinstance(loc, SlotLoc) and stand_need[(loc.side, piece.kind)] > 0:
            stand_need[(loc.side, piece.kind)] -= 1
            placed.add(loc)
    for (side, kind), count in stand_need.items():
        open_targets += [(SlotLoc(side, kind, -1), Piece(kind, False, side))] * count
    movers = [(loc, p) for loc, p in state.items() if loc not in placed]
    jobs: list[_Job] = []
    for loc, want in sorted(open_targets, key=lambda t: str(t[0])):
        candidates = [m for m in movers if m[1].kind == want.kind]
        best = min(candidates, key=lambda m: _distance(m[0], loc) + _fix_cost(m[1], want, loc, caps))
        movers.remove(best)
        jobs.append(_Job(best[0], loc if isinstance(loc, SquareLoc) else None, want))
    return jobs


def _run_jobs(carrier: Carrier, jobs: list[_Job]) -> None:
    pending = list(jobs)
    while pending:
        ready = [j for j in pending if j.target is None or carrier.state.at(j.target) is None]
        if ready:
            job = ready[0]
            pending.remove(job)
            _carry_job(carrier, job)
            continue
        pending = _break_cycle(carrier, pending)


def _carry_job(carrier: Carrier, job: _Job) -> None:
    if job.target is None:
        slot = carrier.state.free_slot(job.want.facing, job.want.kind)
        carrier.carry(job.src, slot, TransferKind.STORE, want_promoted=None, want_facing=None)
    else:
        kind = TransferKind.DROP if isinstance(job.src, SlotLoc) else TransferKind.MOVE
        carrier.carry(job.src, job.target, kind, want_promoted=job.want.promoted_face, want_facing=job.want.facing)


def _break_cycle(carrier: Carrier, pending: list[_Job]) -> list[_Job]:
    """Every pending target is taken by a pending piece: park one blocker on a free place and retarget it."""
    job = pending[0]
    assert job.target is not None
    blocker = next(j for j in pending if j.src == job.target)
    targets = {j.target for j in pending}
    free = [
        SquareLoc(sq) for sq in ALL_SQUARES if carrier.state.at(SquareLoc(sq)) is None and SquareLoc(sq) not in targets
    ]
    piece = carrier.state.at(blocker.src)
    assert piece is not None
    if free:
        buffer: Location = min(free, key=lambda loc: _distance(blocker.src, loc))
        carrier.carry(blocker.src, buffer, TransferKind.MOVE, want_promoted=None, want_facing=None)
    else:
        buffer = carrier.state.free_slot(piece.facing, piece.kind)
        carrier.carry(blocker.src, buffer, TransferKind.STORE, want_promoted=None, want_facing=None)
    return [_Job(buffer, j.target, j.want) if j is blocker else j for j in pending]


def _fix_in_place(carrier: Carrier, target: PhysicalState) -> None:
    """Pieces on their target squares that show the wrong face or point the wrong way."""
    for loc, want in target.items():
        if not isinstance(loc, SquareLoc):
            continue
        have = carrier.state.at(loc)
        if have is None or have == want:
            continue
        flip = have.promoted_face != want.promoted_face
        turn = have.facing is not want.facing
        machine_flip = flip and carrier.caps.flip_station
        if machine_flip or (turn and carrier.caps.rotation_axis):
            kind = TransferKind.MOVE if machine_flip else TransferKind.ROTATE
            carrier.carry(loc, loc, kind, want_promoted=want.promoted_face, want_facing=want.facing, fix_after=True)
        else:
            task = human_task(flip, turn)
            assert task is not None
            carrier.emit(Transfer(have.label, loc, loc, TransferKind.HUMAN_ACTION, task=task))


def _fix_cost(piece: Piece, want: Piece, loc: Location, caps: Capabilities) -> float:
    """Prefer pieces that need no person: a turn or flip a person must do costs as much as 8 squares."""
    if not isinstance(loc, SquareLoc):
        return 0.0
    cost = 0.0
    if piece.facing is not want.facing and not caps.rotation_axis:
        cost += 8.0
    if piece.promoted_face != want.promoted_face and not caps.flip_station:
        cost += 8.0
    return cost


def _distance(a: Location, b: Location) -> float:
    (ax, ay), (bx, by) = _coarse(a), _coarse(b)
    return abs(ax - bx) + abs(ay - by)


def _coarse(loc: Location) -> tuple[float, float]:
    """Rough position in square units (board 0..8, sente's stand to the right, gote's to the left)."""
    if isinstance(loc, SquareLoc):
        file, rank = parse_square(loc.square)
        return (9 - file, rank - 1)
    if isinstance(loc, SlotLoc):
        return (11.0, 6.0) if loc.side is Side.BLACK else (-3.0, 2.0)
    return (4.0, -2.0)
