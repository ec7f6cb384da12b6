"""The state of a game after a sequence of moves: ongoing, mate, repetition, perpetual check or an illegal move.

Owns: game-end detection from a move list. Repetition (sennichite) is counted here (cshogi's `is_draw` fires
on the first repetition): the same board, hands and side to move occurring for the fourth time is a draw, unless
one side gave check with every one of its moves since the first of those occurrences: that side loses. When both
sides checked throughout, it is a draw (as lishogi and the CSA server rule).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

import cshogi

from controller.rules.errors import IllegalMoveError
from controller.rules.game import position_key, push_checked
from controller.rules.impasse import ImpasseRule, declare
from controller.rules.positions import board_from_sfen
from controller.rules.types import Color

REPETITIONS_FOR_SENNICHITE = 4


class OutcomeKind(enum.StrEnum):
    """The states `rules outcome` reports."""

    ONGOING = "ongoing"
    CHECKMATE = "checkmate"
    NO_LEGAL_MOVES = "no_legal_moves"
    REPETITION = "repetition"
    PERPETUAL_CHECK = "perpetual_check"
    ILLEGAL_MOVE = "illegal_move"


@dataclass(frozen=True)
class Outcome:
    """Where a game stands.

    Attributes:
        kind: the state.
        winner: the winning side, or None (ongoing or a draw).
        ply: the number of moves played up to the deciding point (all of them when ongoing).
        detail: a sentence for a player.
    """

    kind: OutcomeKind
    winner: Color | None
    ply: int
    detail: str


class RepetitionTracker:
    """Counts position occurrences and remembers which moves gave check, to rule on sennichite."""

    def __init__(self, board: cshogi.Board) -> None:
        self._keys: list[str] = [position_key(board)]
        self._checks: list[bool] = []
        self._movers: list[Color] = []

    def record(self, board: cshogi.Board, mover: Color) -> None:
        """Note the position after `mover` played on `board`."""
        self._keys.append(position_key(board))
        self._checks.append(bool(board.is_check()))
        self._movers.append(mover)

    def verdict(self) -> tuple[OutcomeKind, Color | None] | None:
        """None unless the latest position occurs for the fourth time; else the kind and the winner."""
        latest = self._keys[-1]
        occurrences = [i for i, key in enumerate(self._keys) if key == latest]
        if len(occurrences) < REPETITIONS_FOR_SENNICHITE:
            return None
        first = occurrences[-REPETITIONS_FOR_SENNICHITE]
        span = range(first, len(self._checks))
        checkers = [
            side
            for side in Color
            if all(self._checks[i] for i in span if self._movers[i] is side)
            and any(self._movers[i] is side for i in span)
        ]
        if len(checkers) == 1:
            return OutcomeKind.PERPETUAL_CHECK, checkers[0].opponent
        return OutcomeKind.REPETITION, None


def game_outcome(sfen: str, moves: list[str], impasse_rule: ImpasseRule = ImpasseRule.POINTS_27) -> Outcome:
    """Play `moves` from `sfen` and report the first decisive event, or the state at the end."""
    board = board_from_sfen(sfen)
    tracker = RepetitionTracker(board)
    for ply, usi in enumerate(moves, start=1):
        mover = Color.from_cshogi(board.turn)
        try:
            push_checked(board, usi, ply)
        except IllegalMoveError as exc:
            return Outcome(OutcomeKind.ILLEGAL_MOVE, mover.opponent, ply, str(exc))
        tracker.record(board, mover)
        verdict = tracker.verdict()
        if verdict is not None:
            kind, winner = verdict
            return Outcome(kind, winner, ply, _repetition_detail(kind, winner, ply, len(moves)))
    return _final_state(board, len(moves), impasse_rule)


def _repetition_detail(kind: OutcomeKind, winner: Color | None, ply: int, total: int) -> str:
    if kind is OutcomeKind.PERPETUAL_CHECK and winner is not None:
        text = f"perpetual check: {winner.opponent.name.lower()} checked with every move and loses"
    else:
        text = "sennichite: the same position occurred for the fourth time, a draw"
    extra = f" ({total - ply} later moves ignored)" if total > ply else ""
    return f"{text} at ply {ply}{extra}."


def _final_state(board: cshogi.Board, ply: int, rule: ImpasseRule) -> Outcome:
    to_move = Color.from_cshogi(board.turn)
    if not any(True for _ in board.legal_moves):
        if board.is_check():
            return Outcome(OutcomeKind.CHECKMATE, to_move.opponent, ply, f"{_name(to_move)} is checkmated.")
        return Outcome(
            OutcomeKind.NO_LEGAL_MOVES,
            to_move.opponent,
            ply,
            f"{_name(to_move)} has no legal move and loses.",
        )
    detail = f"{_name(to_move)} to move."
    if declare(board, rule).result == "win":
        detail += f" {_name(to_move)} may declare an entering-king win ({int(rule)}-point rule)."
    return Outcome(OutcomeKind.ONGOING, None, ply, detail)


def _name(color: Color) -> str:
    return "sente" if color is Color.BLACK else "gote"
