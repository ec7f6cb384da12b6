"""The transitions the state machine's handlers share: starting a turn, committing the human's moves, starting
the opponent's move on the board, entering MISMATCH, keeping the reconciler's game in step with ours, judging a
declaration, and ending the game.

Owns: the order of commands around a committed move (the journal entry first, then whatever acts on it) and the
clock operations that go with each transition. Pure: every function takes a state and returns a new one with
the commands to carry out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from controller.game import rulings
from controller.game.commands import (
    Announce,
    AskEngine,
    Command,
    EndGame,
    ExecuteMove,
    ExpectMove,
    ExpectPosition,
    SaveJournal,
    StartClock,
    StopClock,
    StopEngine,
)
from controller.game.entries import MoveEntry, ResultEntry
from controller.game.settings import MoveSource, OpponentKind
from controller.game.state import GameState, Phase, PlayedMove
from controller.rules.referee import check_move, legal_usi_moves
from controller.rules.types import Color, GameResult

Step = tuple[GameState, list[Command]]


def enter_turn(state: GameState, now: float) -> Step:
    """Start the side to move's turn: its clock runs; the opponent is asked, or the human is awaited."""
    side = state.side_to_move
    clock = state.clock.cancel().start(side, now)
    state = replace(
        state,
        clock=clock,
        pending=None,
        retried=False,
        transfer_done=False,
        prompt=None,
        resume=None,
        messages=(),
        move_time_at=None,
    )
    commands: list[Command] = [StartClock(side)]
    if state.settings.is_opponent(side):
        commands.append(AskEngine(state.settings.start_sfen, state.usi_moves, clock.go_args(now)))
        return replace(state, phase=Phase.ENGINE_THINKING), commands
    return replace(state, phase=Phase.WAIT_HUMAN), commands


def illegal_reason(state: GameState, usi: str) -> str | None:
    """None when `usi` is legal now, else a sentence saying why not."""
    board = state.board()
    if usi in legal_usi_moves(board):
        return None
    explanation: str = check_move(board, usi).explanation
    return explanation


Committed = tuple[GameState, list[Command], GameResult | None]


def commit(state: GameState, usi: str, source: MoveSource, at: float) -> Committed:
    """Charge the mover's clock at `at`, append the (legal) move, and rule on the position it makes.

    The journal entry is the first command; a time-out found when charging ends the game without the move.
    """
    clock, spent = state.clock.stop(at)
    if spent.flagged and state.settings.opponent is not OpponentKind.REMOTE:
        return state, [], rulings.timeout(spent.side)
    state = replace(state, clock=clock, moves=(*state.moves, PlayedMove(usi, spent.spent_s, source)))
    entry = MoveEntry(len(state.moves), usi, source, spent.spent_s, state.snapshot())
    commands: list[Command] = [SaveJournal(entry), StopClock()]
    return state, commands, rulings.after_move(state.settings.start_sfen, state.usi_moves, state.settings.impasse)


def start_opponent_move(state: GameState) -> Step:
    """The opponent's committed move (`pending`) goes onto the board: by the gantry, or by the human (assist).

    Either way the reconciler is told to expect it, and it is confirmed when the board shows it.
    """
    usi = state.pending
    if usi is None:
        raise ValueError("no pending opponent move")
    if state.settings.gantry and not state.retried:
        commands: list[Command] = [ExpectMove(usi), ExecuteMove(usi, state.sfen(len(state.moves) - 1))]
        return replace(state, phase=Phase.ROBOT_MOVING, transfer_done=False), commands
    return replace(state, phase=Phase.ASSIST_WAIT), [ExpectMove(usi), Announce(assist_text(state))]


def assist_text(state: GameState) -> str:
    """Asking the human to play the opponent's pending move."""
    return f"Please play {state.pending} for the {state.settings.opponent.value}."


def mismatch(
    state: GameState, commands: list[Command], resume: Phase | None, messages: tuple[str, ...], *, sync: bool
) -> Step:
    """Enter MISMATCH: say what is wrong (not again while unchanged); `resume` is where to go next.

    `sync`: the reconciler's game differs from ours (it committed a move we refused): set it back to ours.
    """
    repeated = state.phase is Phase.MISMATCH and messages == state.messages
    state = replace(state, phase=Phase.MISMATCH, resume=resume, messages=messages, prompt=None)
    out = [*commands, *([] if repeated else [Announce(" ".join(messages))])]
    return state, out + ([state.expect_position()] if sync else [])


def engine_busy(state: GameState) -> bool:
    """True when the opponent may be searching (its answer must be abandoned if the game moves on)."""
    return state.phase is Phase.ENGINE_THINKING or (
        state.phase is Phase.MISMATCH and state.resume is Phase.ENGINE_THINKING
    )


def game_over(
    state: GameState, result: GameResult, commands: list[Command], *, stop_engine: bool | None = None
) -> Step:
    """End the game with `result`: stop clock and engine (when it may be searching, unless told), journal the
    result, tell everyone."""
    commands = list(commands)
    if engine_busy(state) if stop_engine is None else stop_engine:
        commands.append(StopEngine())
    if state.clock.running is not None:
        commands.append(StopClock())
    if not state.fresh:
        commands.append(SaveJournal(ResultEntry(result)))
    commands += [EndGame(result), Announce(rulings.describe(result))]
    state = replace(
        state,
        phase=Phase.GAME_OVER,
        clock=state.clock.cancel(),
        result=result,
        prompt=None,
        resume=None,
        move_time_at=None,
    )
    return state, commands


def synced(step: Step) -> Step:
    """`step`, telling the reconciler our game when it decided nothing itself (an ambiguity resolved here)."""
    state, commands = step
    if any(isinstance(c, ExpectPosition) for c in commands):
        return state, commands
    return state, [*commands, reconciler_position(state)]


def reconciler_position(state: GameState) -> ExpectPosition:
    """Where the reconciler's game must be: ours, minus the opponent's move while it is not yet on the board."""
    if state.pending is not None and state.phase in (Phase.ASSIST_WAIT, Phase.ROBOT_MOVING, Phase.MISMATCH):
        return state.expect_position(len(state.moves) - 1)
    return state.expect_position()


def human_moves(state: GameState, moves: Sequence[str], now: float) -> Step:
    """Commit a human's move (or two, in record mode), each ruled on; then start the next turn."""
    commands: list[Command] = []
    at = now if state.move_time_at is None else state.move_time_at
    for index, usi in enumerate(moves):
        if index > 0:
            if state.settings.is_opponent(state.side_to_move):
                text = f"One move at a time: {usi} was not expected; please take it back."
                return mismatch(state, commands, None, (text,), sync=True)
            state, started = enter_turn(state, at)
            commands += started
            at = now
        reason = illegal_reason(state, usi)
        if reason is not None:
            return mismatch(state, commands, Phase.WAIT_HUMAN, (reason,), sync=True)
        state, more, result = commit(state, usi, MoveSource.HUMAN, at)
        commands += more
        if result is not None:
            return game_over(state, result, commands)
    state, started = enter_turn(state, now)
    return state, commands + started


def declare_now(state: GameState, side: Color, now: float) -> Step:
    """Judge `side`'s declaration on its own turn (its clock is charged up to now)."""
    if state.clock.running is not None:
        state = replace(state, clock=state.clock.stop(now)[0])
    result = rulings.declaration(state.settings.start_sfen, state.usi_moves, side, state.settings.impasse)
    return game_over(state, result, [], stop_engine=False)
