"""`shogi-robot rules check|outcome|declare|count`: the referee's answers, as sentences or `--json`."""

from __future__ import annotations

import argparse
import json
from typing import Any

from controller.rules.game import replay
from controller.rules.impasse import ImpasseRule, count, declare
from controller.rules.outcome import game_outcome
from controller.rules.positions import board_from_sfen, resolve_start
from controller.rules.referee import check_move


def register(subparsers: Any) -> None:
    """Add `rules` and its four questions."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "rules", help="ask the referee about moves and positions", description=__doc__
    )
    questions = parser.add_subparsers(dest="question", metavar="QUESTION", required=True)
    check = _add(questions, "check", "is a move legal (and if not, why)?", run_check)
    check.add_argument("--move", required=True, help="the move in USI notation")
    outcome = _add(questions, "outcome", "the state of the game after the moves", run_outcome)
    outcome.add_argument("--impasse-rule", type=int, choices=(24, 27), default=27)
    declare_p = _add(questions, "declare", "the side to move declares an entering-king win", run_declare)
    declare_p.add_argument("--rule", type=int, choices=(24, 27), required=True)
    count_p = _add(questions, "count", "count points when both kings have entered", run_count)
    count_p.add_argument("--rule", type=int, choices=(24, 27), required=True)


def _add(questions: Any, name: str, text: str, func: Any) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = questions.add_parser(name, help=text, description=text)
    parser.add_argument("--sfen", default="startpos", help="start position (SFEN, 'startpos' or a handicap name)")
    parser.add_argument("--moves", nargs="*", default=[], metavar="M", help="USI moves played from the start")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.set_defaults(func=func)
    return parser


def _emit(args: argparse.Namespace, payload: dict[str, Any], sentence: str) -> int:
    print(json.dumps(payload, ensure_ascii=False) if args.json else sentence)
    return 0


def run_check(args: argparse.Namespace) -> int:
    """Answer `rules check`."""
    board = replay(board_from_sfen(resolve_start(args.sfen)), args.moves)
    verdict = check_move(board, args.move)
    reason = None if verdict.reason is None else str(verdict.reason)
    return _emit(args, {"legal": verdict.legal, "reason": reason}, verdict.explanation)


def run_outcome(args: argparse.Namespace) -> int:
    """Answer `rules outcome`."""
    result = game_outcome(resolve_start(args.sfen), args.moves, ImpasseRule(args.impasse_rule))
    winner = None if result.winner is None else str(result.winner)
    payload = {"outcome": str(result.kind), "winner": winner, "ply": result.ply, "detail": result.detail}
    return _emit(args, payload, f"{result.kind} after {result.ply} plies: {result.detail}")


def run_declare(args: argparse.Namespace) -> int:
    """Answer `rules declare`."""
    board = replay(board_from_sfen(resolve_start(args.sfen)), args.moves)
    result = declare(board, ImpasseRule(args.rule))
    payload = {"result": result.result, "points": result.points, "conditions": result.conditions}
    failed = [name.replace("_", " ") for name, ok in result.conditions.items() if not ok]
    why = f" (not met: {', '.join(failed)})" if failed else ""
    return _emit(args, payload, f"declaration: {result.result} with {result.points} points{why}.")


def run_count(args: argparse.Namespace) -> int:
    """Answer `rules count`."""
    board = replay(board_from_sfen(resolve_start(args.sfen)), args.moves)
    result = count(board, ImpasseRule(args.rule))
    payload: dict[str, Any] = {"points": result.points, "result": result.result}
    if result.handicap_credit:
        payload["handicap_credit"] = result.handicap_credit
    text = f"sente {result.points['b']}, gote {result.points['w']}: {result.result.replace('_', ' ')}."
    return _emit(args, payload, text)
