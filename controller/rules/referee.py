"""The referee: is a USI move legal in a position, and if not, why (in a code and in a sentence).

Owns: move legality with reasons. Legality itself is decided by `cshogi.Board.legal_moves` (exact; cshogi's
`push_usi`/`is_legal` accept dead drops and pawn non-promotions to the last rank). The reason for an illegal
move is then worked out here, from the move's geometry and the position it would leave.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

import cshogi

from controller.rules.positions import board_from_sfen
from controller.rules.sfen import Placement, parse_usi

KIND_NAMES = {
    "K": "king", "R": "rook", "B": "bishop", "G": "gold", "S": "silver", "N": "knight", "L": "lance",
    "P": "pawn", "+R": "dragon", "+B": "horse", "+S": "promoted silver", "+N": "promoted knight",
    "+L": "promoted lance", "+P": "tokin",
}  # fmt: skip
SIDE_NAMES = {"b": "sente", "w": "gote"}


class Reason(enum.StrEnum):
    """Why a move is illegal."""

    NIFU = "nifu"
    UCHIFUZUME = "uchifuzume"
    DEAD_DROP = "dead_drop"
    FORCED_PROMOTION = "forced_promotion"
    SELF_CHECK = "self_check"
    OCCUPIED = "occupied"
    UNREACHABLE = "unreachable"
    NOT_IN_HAND = "not_in_hand"
    MALFORMED = "malformed"


@dataclass(frozen=True)
class Verdict:
    """The referee's answer for one move.

    Attributes:
        legal: whether the move may be played.
        reason: why not (None when legal).
        explanation: one sentence for a player.
    """

    legal: bool
    reason: Reason | None
    explanation: str


_STEPS = {
    "P": [(0, -1)],
    "N": [(-1, -2), (1, -2)],
    "S": [(0, -1), (-1, -1), (1, -1), (-1, 1), (1, 1)],
    "G": [(0, -1), (-1, -1), (1, -1), (-1, 0), (1, 0), (0, 1)],
    "K": [(df, dr) for df in (-1, 0, 1) for dr in (-1, 0, 1) if (df, dr) != (0, 0)],
    "+R": [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    "+B": [(0, -1), (-1, 0), (1, 0), (0, 1)],
}
_SLIDES = {
    "L": [(0, -1)],
    "R": [(0, -1), (-1, 0), (1, 0), (0, 1)],
    "B": [(-1, -1), (1, -1), (-1, 1), (1, 1)],
}
_SLIDES["+R"], _SLIDES["+B"] = _SLIDES["R"], _SLIDES["B"]
for _gold_like in ("+P", "+L", "+N", "+S"):
    _STEPS[_gold_like] = _STEPS["G"]


def legal_usi_moves(board: cshogi.Board) -> set[str]:
    """Every legal move of the side to move, as USI strings."""
    return {cshogi.move_to_usi(m) for m in board.legal_moves}


def check_move(board: cshogi.Board, usi: str) -> Verdict:
    """Judge `usi` in the position on `board` (the board is not changed)."""
    if usi in legal_usi_moves(board):
        return Verdict(True, None, f"{usi} is legal.")
    parts = parse_usi(usi)
    if parts is None:
        return Verdict(False, Reason.MALFORMED, f"{usi!r} is not a move in USI notation (like 7g7f, 8h2b+, P*5e).")
    placement = Placement.from_sfen(board.sfen())
    src, dst, drop_kind, promote = parts
    if drop_kind is not None:
        return _judge_drop(placement, drop_kind, dst)
    assert src is not None
    return _judge_board_move(placement, src, dst, promote)


def check_move_in(sfen: str, moves: list[str], usi: str) -> Verdict:
    """Judge `usi` after playing `moves` from `sfen` (each of those must be legal: IllegalMoveError otherwise)."""
    from controller.rules.game import replay

    return check_move(replay(board_from_sfen(sfen), moves), usi)


def _rank_of(square: str) -> int:
    return "abcdefghi".index(square[1]) + 1


def _relative_rank(square: str, side: str) -> int:
    """1 is the far rank for the side (rank a for sente, rank i for gote)."""
    rank = _rank_of(square)
    return rank if side == "b" else 10 - rank


def _judge_drop(placement: Placement, kind: str, dst: str) -> Verdict:
    side = placement.side
    name = KIND_NAMES[kind]
    if placement.hands[side][kind] == 0:
        return Verdict(False, Reason.NOT_IN_HAND, f"{SIDE_NAMES[side]} has no {name} in hand to drop.")
    if dst in placement.squares:
        return Verdict(
            False,
            Reason.OCCUPIED,
            f"square {dst} is occupied: a piece can only be dropped on an empty square.",
        )
    far = _relative_rank(dst, side)
    if (kind in "PL" and far == 1) or (kind == "N" and far <= 2):
        return Verdict(False, Reason.DEAD_DROP, f"a {name} dropped on {dst} could never move again.")
    own_pawn = "P" if side == "b" else "p"
    if kind == "P" and any(placement.squares.get(f"{dst[0]}{r}") == own_pawn for r in "abcdefghi"):
        return Verdict(False, Reason.NIFU, f"nifu: {SIDE_NAMES[side]} already has a pawn on file {dst[0]}.")
    return _judge_by_result(placement, f"{kind}*{dst}", name, dst)


def _judge_board_move(placement: Placement, src: str, dst: str, promote: bool) -> Verdict:
    side = placement.side
    piece = placement.squares.get(src)
    if piece is None or placement.owner_of(src) != side:
        whose = "empty" if piece is None else f"holds a {SIDE_NAMES[placement.owner_of(src) or side]} piece"
        return Verdict(False, Reason.UNREACHABLE, f"square {src} is {whose}: {SIDE_NAMES[side]} has no piece there.")
    kind = piece.upper()
    name = KIND_NAMES[kind]
    if placement.owner_of(dst) == side:
        return Verdict(
            False, Reason.OCCUPIED, f"the {name} on {src} cannot move to {dst}: your own piece stands there."
        )
    if not _reaches(placement, src, dst, kind, side):
        return Verdict(False, Reason.UNREACHABLE, f"the {name} on {src} cannot move to {dst}.")
    in_zone = _relative_rank(src, side) <= 3 or _relative_rank(dst, side) <= 3
    if promote and (kind not in ("R", "B", "S", "N", "L", "P") or not in_zone):
        why = (
            "it has no promoted side"
            if kind in ("K", "G") or kind.startswith("+")
            else "it neither starts nor ends in the promotion zone"
        )
        return Verdict(False, Reason.UNREACHABLE, f"the {name} on {src} cannot promote: {why}.")
    far = _relative_rank(dst, side)
    if not promote and ((kind in ("P", "L") and far == 1) or (kind == "N" and far <= 2)):
        return Verdict(
            False,
            Reason.FORCED_PROMOTION,
            f"the {name} must promote on {dst}: unpromoted it could never move again.",
        )
    return _judge_by_result(placement, f"{src}{dst}{'+' if promote else ''}", name, dst)


def _reaches(placement: Placement, src: str, dst: str, kind: str, side: str) -> bool:
    sign = 1 if side == "b" else -1
    sf, sr = int(src[0]), _rank_of(src)
    df, dr = int(dst[0]) - sf, _rank_of(dst) - sr
    for step_f, step_r in _STEPS.get(kind, []):
        if (df, dr) == (step_f * sign, step_r * sign):
            return True
    for step_f, step_r in _SLIDES.get(kind, []):
        f, r = sf + step_f * sign, sr + step_r * sign
        while 1 <= f <= 9 and 1 <= r <= 9:
            if (f - sf, r - sr) == (df, dr):
                return True
            if f"{f}{'abcdefghi'[r - 1]}" in placement.squares:
                break
            f, r = f + step_f * sign, r + step_r * sign
    return False


def _judge_by_result(placement: Placement, usi: str, name: str, dst: str) -> Verdict:
    """Look at the position the move leaves: the mover's king attacked, or a pawn-drop mate."""
    mover = placement.side
    after = Placement(dict(placement.squares), {s: h.copy() for s, h in placement.hands.items()}, mover)
    after.apply(usi)
    after.side = mover
    if board_from_sfen(after.to_sfen()).is_check():
        return Verdict(False, Reason.SELF_CHECK, f"{usi} would leave {SIDE_NAMES[mover]}'s king in check.")
    after.side = "w" if mover == "b" else "b"
    reply = board_from_sfen(after.to_sfen())
    if usi.startswith("P*") and reply.is_check() and not any(True for _ in reply.legal_moves):
        return Verdict(
            False,
            Reason.UCHIFUZUME,
            f"uchifuzume: the pawn dropped on {dst} would give checkmate, which is illegal.",
        )
    return Verdict(False, Reason.UNREACHABLE, f"the {name} cannot play {usi} here.")
