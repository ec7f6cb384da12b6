"""Questions to the players and takebacks: ambiguous reads, promotion choices and play-mode takeback offers.

Owns: building the PROMPT state and its `Prompt` command, reading the answer, and applying a takeback (journal
entry first, clock charge of the interrupted move dropped).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from controller.game.commands import Announce, Command, Prompt, SaveJournal, StopEngine
from controller.game.entries import TakebackEntry
from controller.game.state import GameState, Phase, PromptContext, PromptKind
from controller.game.turns import Step, engine_busy, enter_turn, mismatch

TAKEBACK_OPTIONS = ("take back", "keep playing")
PROMOTION_OPTIONS = ("promote", "do not promote")


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
        options = tuple(" ".join(c) for c in candidates)
        question = "Which move was played?"
        context = PromptContext(PromptKind.MOVE, options, tuple(candidates), seen_at=seen_at)
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
    if text not in prompt.options:
        return Answered(state, [Announce(f"Please answer one of: {', '.join(prompt.options)}.")])
    index = prompt.options.index(text)
    state = replace(state, prompt=None)
    if prompt.kind in (PromptKind.MOVE, PromptKind.PROMOTION):
        return Answered(replace(state, phase=Phase.WAIT_HUMAN), [], prompt.moves[index])
    if index == 0:
        return Answered(*apply_takeback(state, prompt.plies, now))
    text = "Then please set the board back to the game's position."
    return Answered(*mismatch(state, [], prompt.back_to, (text,), sync=False))


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
