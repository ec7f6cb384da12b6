"""Questions to the players and takebacks: ambiguous reads, promotion choices and play-mode takeback offers.

Owns: building the PROMPT state and its `Prompt` command, reading the answer, and applying a takeback (journal
entry first, clock charge of the interrupted move dropped). A move question always has a way out: besides the
candidates it offers `ANOTHER_MOVE`, and a move or promotion question takes the move(s) really played, typed or
said in USI (one, or in record mode two for two moves between reads); the referee checks them first: an illegal
answer is refused with its reason and the question stays open, nothing committed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import cshogi

from controller.game.commands import Announce, Command, Prompt, SaveJournal, StopEngine
from controller.game.entries import TakebackEntry
from controller.game.state import GameState, Phase, PromptContext, PromptKind
from controller.game.turns import Step, engine_busy, enter_turn, mismatch
from controller.rules.referee import Reason, check_move, legal_usi_moves

TAKEBACK_OPTIONS = ("take back", "keep playing")
PROMOTION_OPTIONS = ("promote", "do not promote")
ANOTHER_MOVE = "another move"
"""The move question's way out: none of the candidates was played; the player then gives the move(s)."""
TYPED_HINT = "Please give the move played in USI, like 7g7f, P*5e or 8h2b+"


@dataclass(frozen=True)
class Answered:
    """What an answer leads to: a new state and commands, and for a move question the moves to commit."""

    state: GameState
    commands: list[Command]
    moves: tuple[str, ...] | None = None


def ask_ambiguous(state: GameState, candidates: Sequence[tuple[str, ...]], now: float) -> Step:
    """Ask which candidate was played (or, for a move read with and without promotion, whether it promoted).

    The mover's time stops at the moment the board was seen.
    """
    seen_at = now if state.move_time_at is None else state.move_time_at
    pair = _promotion_pair(candidates)
    if pair is not None:
        question = f"Did {pair[1][-1]} promote?"
        context = PromptContext(PromptKind.PROMOTION, PROMOTION_OPTIONS, pair, seen_at=seen_at)
    else:
        options = (*(" ".join(c) for c in candidates), ANOTHER_MOVE)
        question = "Which move was played?"
        context = PromptContext(PromptKind.MOVE, options, (*candidates, ()), seen_at=seen_at)
    state = replace(state, phase=Phase.PROMPT, prompt=context, move_time_at=seen_at)
    return state, [Prompt(question, context.options)]


def _promotion_pair(candidates: Sequence[tuple[str, ...]]) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """(promoted, unpromoted) when the two candidates differ only by the last move's promotion."""
    if len(candidates) != 2:
        return None
    a, b = candidates
    if len(a) != len(b) or a[:-1] != b[:-1]:
        return None
    if a[-1] == b[-1] + "+":
        return a, b
    if b[-1] == a[-1] + "+":
        return b, a
    return None


def ask_takeback(state: GameState, plies: int, now: float) -> Step:
    """Play mode: ask before taking back `plies` moves; a search in progress is abandoned."""
    commands: list[Command] = []
    back_to = state.resume if state.phase is Phase.MISMATCH else state.phase
    if engine_busy(state):
        commands.append(StopEngine())
        state = replace(state, clock=state.clock.cancel())
        back_to = None
    context = PromptContext(PromptKind.TAKEBACK, TAKEBACK_OPTIONS, plies=plies, seen_at=now, back_to=back_to)
    state = replace(state, phase=Phase.PROMPT, prompt=context, resume=None)
    moves = "move" if plies == 1 else "moves"
    return state, [*commands, Prompt(f"Take back {plies} {moves}?", TAKEBACK_OPTIONS)]


def answer(state: GameState, text: str, now: float) -> Answered:
    """Apply an answer to the open prompt (an unknown answer repeats the options)."""
    prompt = state.prompt
    if prompt is None:
        return Answered(state, [])
    asks_move = prompt.kind in (PromptKind.MOVE, PromptKind.PROMOTION)
    if asks_move and (text == ANOTHER_MOVE or text not in prompt.options):
        return _typed_moves(state, text)
    if text not in prompt.options:
        return Answered(state, [Announce(f"Please answer one of: {', '.join(prompt.options)}.")])
    index = prompt.options.index(text)
    state = replace(state, prompt=None)
    if asks_move:
        return Answered(replace(state, phase=Phase.WAIT_HUMAN), [], prompt.moves[index])
    if index == 0:
        return Answered(*apply_takeback(state, prompt.plies, now))
    text = "Then please set the board back to the game's position."
    return Answered(*mismatch(state, [], prompt.back_to, (text,), sync=False))


def _typed_moves(state: GameState, text: str) -> Answered:
    """A move question answered with the move(s) really played: committed when the referee finds them legal in
    turn (one move in play mode, at most two in record mode); otherwise the question stays open, with the reason."""
    assert state.prompt is not None
    options = ", ".join(state.prompt.options)
    moves = tuple(text.split())
    if text == ANOTHER_MOVE or not moves:
        hint = " (two moves between reads: both, in order)" if state.settings.opponent_side is None else ""
        return Answered(state, [Announce(f"{TYPED_HINT}{hint}.")])
    most = 1 if state.settings.opponent_side is not None else 2
    if len(moves) > most:
        problem = "Only one move can be given" if most == 1 else "At most two moves can be given"
        return Answered(state, [Announce(f"{problem}: please answer one of: {options}, or the move played.")])
    board = state.board()
    for usi in moves:
        if usi not in legal_usi_moves(board):
            text = f"{_refusal(board, usi)} Please answer one of: {options}, or the move played."
            return Answered(state, [Announce(text)])
        board.push_usi(usi)
    return Answered(replace(state, prompt=None, phase=Phase.WAIT_HUMAN), [], moves)


def _refusal(board: cshogi.Board, usi: str) -> str:
    """The referee's sentence on why `usi` cannot be the move played on `board`."""
    verdict = check_move(board, usi)
    if verdict.reason is Reason.MALFORMED:
        return verdict.explanation
    return f"{usi} is not legal here: {verdict.explanation}"


def apply_takeback(state: GameState, plies: int, now: float) -> Step:
    """Take back `plies` moves (journaled first) and start the turn of the side then to move."""
    commands: list[Command] = [StopEngine()] if engine_busy(state) else []
    state = replace(state, clock=state.clock.cancel(), moves=state.moves[:-plies], prompt=None, pending=None)
    moves = "move" if plies == 1 else "moves"
    commands += [
        SaveJournal(TakebackEntry(plies, state.snapshot())),
        Announce(f"Took back {plies} {moves}."),
        state.expect_position(),
    ]
    state, started = enter_turn(state, now)
    return state, commands + started
