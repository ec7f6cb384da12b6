"""Game-end rulings for the state machine, all through `controller.rules`: mate, repetition, perpetual check,
impasse declarations under the game's rule, time-outs, illegal moves and resignations, and their wording.

Owns: turning a position or an event into a `GameResult` (or None while the game goes on) and a sentence for
the players.
"""

from __future__ import annotations

from controller.game.settings import ImpasseSetting
from controller.rules.game import replay
from controller.rules.impasse import count, declare
from controller.rules.outcome import OutcomeKind, game_outcome
from controller.rules.positions import board_from_sfen
from controller.rules.types import Color, GameResult, Termination

_OUTCOME_TERMINATION = {
    OutcomeKind.CHECKMATE: Termination.CHECKMATE,
    OutcomeKind.NO_LEGAL_MOVES: Termination.NO_LEGAL_MOVES,
    OutcomeKind.REPETITION: Termination.REPETITION,
    OutcomeKind.PERPETUAL_CHECK: Termination.PERPETUAL_CHECK,
    OutcomeKind.ILLEGAL_MOVE: Termination.ILLEGAL_MOVE,
}


def name(side: Color) -> str:
    """`sente` or `gote`."""
    return "sente" if side is Color.BLACK else "gote"


def after_move(start_sfen: str, moves: tuple[str, ...], rule: ImpasseSetting) -> GameResult | None:
    """The result when the last move ended the game (mate, no legal move, sennichite, perpetual check)."""
    outcome = game_outcome(start_sfen, list(moves), rule.points)
    if outcome.kind is OutcomeKind.ONGOING:
        return None
    return GameResult(_OUTCOME_TERMINATION[outcome.kind], outcome.winner, outcome.detail)


def declaration(start_sfen: str, moves: tuple[str, ...], side: Color, rule: ImpasseSetting) -> GameResult:
    """Judge `side`'s entering-king declaration (it must be `side`'s turn) under `rule`."""
    board = replay(board_from_sfen(start_sfen), moves)
    if rule.counting:
        verdict = count(board, rule.points)
        points = f"sente {verdict.points['b']}, gote {verdict.points['w']} points"
        if verdict.result == "draw":
            return GameResult(Termination.IMPASSE_DRAW, None, f"impasse count ({rule.value}): {points}, a draw")
        winner = Color.BLACK if verdict.result == "b_wins" else Color.WHITE
        kind = Termination.IMPASSE_WIN if winner is side else Termination.IMPASSE_LOSE
        return GameResult(kind, winner, f"impasse count ({rule.value}): {points}, {name(winner)} wins")
    judged = declare(board, rule.points)
    if judged.result == "win":
        detail = f"{name(side)} declares with {judged.points} points ({rule.value}-point rule) and wins"
        return GameResult(Termination.IMPASSE_WIN, side, detail)
    if judged.result == "draw":
        detail = f"{name(side)} declares with {judged.points} points ({rule.value}-point rule): a draw"
        return GameResult(Termination.IMPASSE_DRAW, None, detail)
    failed = ", ".join(key.replace("_", " ") for key, ok in judged.conditions.items() if not ok)
    detail = f"{name(side)}'s declaration fails ({failed}) and loses"
    return GameResult(Termination.IMPASSE_LOSE, side.opponent, detail)


def timeout(side: Color) -> GameResult:
    """`side` ran out of time."""
    return GameResult(Termination.TIMEOUT, side.opponent, f"{name(side)} ran out of time")


def resignation(side: Color) -> GameResult:
    """`side` resigned."""
    return GameResult(Termination.RESIGN, side.opponent, f"{name(side)} resigns")


def illegal(side: Color, explanation: str) -> GameResult:
    """`side` (an engine or remote player) played an illegal move and loses."""
    return GameResult(Termination.ILLEGAL_MOVE, side.opponent, f"{name(side)} played an illegal move: {explanation}")


def describe(result: GameResult) -> str:
    """A sentence announcing the end."""
    head = "Draw" if result.winner is None else f"{name(result.winner).capitalize()} wins"
    if result.termination is Termination.ABORT:
        head = "Game aborted"
    detail = result.detail.rstrip(".")
    return f"{head}: {detail}." if detail else f"{head} ({result.termination.value})."
