"""The game's state machine as a pure step function: `step(state, event, now) -> (state, commands)`.

Owns: which event means what in which phase. States are `controller.game.state.Phase`; events come from
`controller.game.events`, commands go out as `controller.game.commands`. Nothing here reads a clock, a camera or
a file: `now` is passed in, and the shell carries out the commands in order (journal first).

Flow: SETUP_CHECK (board = start) -> WAIT_HUMAN / ENGINE_THINKING by side to move. A human's move (from the
reconciler) is journaled and ruled on, then the opponent is asked (play) or the other human waits (record). The
opponent's move is journaled, then played by the gantry (ROBOT_MOVING: done, then confirmed by the camera; one
retry, then the human is asked) or by the human (ASSIST_WAIT). Ambiguous reads, promotions and play-mode
takebacks ask (PROMPT); a wrong board waits (MISMATCH). Any running clock that flags ends the game, except
against a remote opponent, whose server judges time and ends the game (`controller.game.remote`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from controller.game import rulings
from controller.game.clock import GameClock
from controller.game.commands import (
    Announce,
    Command,
    ReadBoard,
    StartJournal,
    StopEngine,
)
from controller.game.errors import SettingsError
from controller.game.events import (
    Abort,
    AmbiguousSeen,
    BoardConfirmed,
    BoardMoveSeen,
    Button,
    ButtonPressed,
    Declare,
    EngineMoved,
    Event,
    MismatchSeen,
    NewGame,
    PromptAnswered,
    RemoteEnded,
    RemoteMoved,
    Resign,
    ServerClocks,
    TakebackAsked,
    TakebackSeen,
    Tick,
    TransferDone,
    TransferFailed,
)
from controller.game.journal import ResumedGame
from controller.game.opponent import engine_moved, opponent_move_seen, remote_moved, transfer_done, transfer_failed
from controller.game.prompts import answer, apply_takeback, ask_ambiguous, ask_takeback
from controller.game.remote import refuse_takeback, remote_ended, server_clocks, server_judges
from controller.game.settings import GameSettings, MoveSource
from controller.game.state import GameState, Phase, PlayedMove
from controller.game.turns import (
    Step,
    assist_text,
    declare_now,
    engine_busy,
    enter_turn,
    game_over,
    human_moves,
    mismatch,
    reconciler_position,
    start_opponent_move,
    synced,
)
from controller.rules.types import GameResult, Termination

IN_PLAY = frozenset(
    {Phase.WAIT_HUMAN, Phase.ENGINE_THINKING, Phase.ROBOT_MOVING, Phase.ASSIST_WAIT, Phase.PROMPT, Phase.MISMATCH}
)


def initial(settings: GameSettings) -> Step:
    """A new game waiting for the board to show the start position."""
    state = GameState(settings, clock=GameClock.new(settings.clock))
    return state, [state.expect_position(), Announce("Set up the starting position.")]


def resumed(settings: GameSettings, moves: Sequence[PlayedMove], clock: GameClock) -> Step:
    """A game resumed from its journal, waiting for the board to show the journal's position."""
    state = GameState(settings, moves=tuple(moves), clock=clock.cancel(), fresh=False)
    text = f"Resuming after move {len(moves)}: set the board to the last position"
    if moves and moves[-1].source is not MoveSource.HUMAN:
        text += f" (with the {settings.opponent.value}'s move {moves[-1].usi} played)"
    return state, [state.expect_position(), Announce(text + ".")]


def resume_game(game: ResumedGame) -> Step:
    """`resumed` for a game read back from its journal (`controller.game.journal.resume`).

    Raises:
        SettingsError: when the journal's game had already ended (there is nothing to resume).
    """
    if game.result is not None:
        raise SettingsError(f"the journal's game is over ({game.result.termination.value}): nothing to resume")
    moves = [PlayedMove(m.usi, m.seconds, src) for m, src in zip(game.record.moves, game.sources, strict=True)]
    return resumed(game.settings, moves, game.clock)


def step(state: GameState, event: Event, now: float) -> Step:
    """React to `event` at time `now` (seconds, monotonic)."""
    if state.phase in IN_PLAY and not server_judges(state):
        at = now if state.move_time_at is None else min(now, state.move_time_at)
        flagged = state.clock.flagged(at)
        if flagged is not None:
            return game_over(state, rulings.timeout(flagged), [])
    handler: Callable[[GameState, Any, float], Step] = _HANDLERS[type(event)]
    return handler(state, event, now)


def _board_confirmed(state: GameState, _event: BoardConfirmed, now: float) -> Step:
    if state.phase in (Phase.SETUP_CHECK, Phase.RESET):
        commands: list[Command] = [StartJournal(state.settings)] if state.fresh else []
        state, started = enter_turn(replace(state, fresh=False), now)
        return state, [*commands, Announce("Play starts."), *started]
    if state.phase is Phase.MISMATCH:
        return _resume(state, now)
    return state, []


def _resume(state: GameState, now: float) -> Step:
    target = state.resume
    state = replace(state, resume=None, messages=())
    if target is None:
        return enter_turn(state, now)
    if target in (Phase.ROBOT_MOVING, Phase.ASSIST_WAIT):
        return start_opponent_move(state)
    return replace(state, phase=target), [Announce("The board is right again.")]


def _board_move(state: GameState, event: BoardMoveSeen, now: float) -> Step:
    moves = event.moves
    if not moves:
        return state, []
    if state.phase is Phase.WAIT_HUMAN or (state.phase is Phase.MISMATCH and state.resume is Phase.WAIT_HUMAN):
        return human_moves(replace(state, phase=Phase.WAIT_HUMAN), moves, now)
    if state.phase in (Phase.ASSIST_WAIT, Phase.ROBOT_MOVING):
        return opponent_move_seen(state, moves, now)
    if state.phase is Phase.ENGINE_THINKING:
        text = f"It is the {state.settings.opponent.value}'s turn: please take back {moves[0]}."
        return mismatch(state, [], Phase.ENGINE_THINKING, (text,), sync=True)
    if state.phase is Phase.PROMPT and state.prompt is not None and tuple(moves) in state.prompt.moves:
        chosen = state.prompt.options[state.prompt.moves.index(tuple(moves))]
        outcome = answer(state, chosen, now)
        return human_moves(outcome.state, moves, now)
    if state.phase in (Phase.SETUP_CHECK, Phase.RESET):
        text = f"The board is not at the starting position ({moves[0]} seems played): please set it back."
        announce = [] if state.messages == (text,) else [Announce(text)]
        return replace(state, messages=(text,)), [*announce, reconciler_position(state)]
    if state.phase in (Phase.MISMATCH, Phase.PROMPT):
        return state, [reconciler_position(state)]
    return state, []


def _mismatch_seen(state: GameState, event: MismatchSeen, _now: float) -> Step:
    messages = tuple(event.messages) or ("The board does not match the game.",)
    if state.phase in (Phase.WAIT_HUMAN, Phase.ENGINE_THINKING):
        return mismatch(state, [], state.phase, messages, sync=False)
    if state.phase is Phase.ROBOT_MOVING and state.transfer_done:
        state = replace(state, phase=Phase.ASSIST_WAIT, messages=messages)
        return state, [Announce(" ".join(messages)), Announce(assist_text(state))]
    if state.phase in (Phase.MISMATCH, Phase.ASSIST_WAIT, Phase.SETUP_CHECK, Phase.RESET):
        if messages == state.messages:
            return state, []
        return replace(state, messages=messages), [Announce(" ".join(messages))]
    return state, []


def _takeback_seen(state: GameState, event: TakebackSeen, now: float) -> Step:
    allowed = state.phase in (Phase.WAIT_HUMAN, Phase.ENGINE_THINKING) or (
        state.phase is Phase.MISMATCH and state.resume in (Phase.WAIT_HUMAN, Phase.ENGINE_THINKING)
    )
    if not allowed:
        return state, []
    if not 1 <= event.plies <= len(state.moves):
        return state, [Announce(f"Cannot take back {event.plies} moves: {len(state.moves)} were played.")]
    if state.settings.opponent_side is None:
        return apply_takeback(state, event.plies, now)
    if server_judges(state):
        return refuse_takeback(state, event.plies)
    return ask_takeback(state, event.plies, now)


def _takeback_asked(state: GameState, event: TakebackAsked, now: float) -> Step:
    """Take back the asking player's last move (and the opponent's reply after it); in record mode, the last
    move. The pieces must then go back by hand: the reconciler waits for the earlier position."""
    if state.phase not in IN_PLAY or state.phase in (Phase.PROMPT, Phase.ROBOT_MOVING):
        return state, [Announce("A takeback is possible during a game, with no question open and the arm at rest.")]
    asker = event.side if state.settings.opponent_side is not None else None
    last = next((i for i in reversed(range(len(state.moves))) if asker in (None, state.mover(i))), None)
    if last is None:
        return state, [Announce("There is no move to take back.")]
    plies = len(state.moves) - last
    if server_judges(state):
        return refuse_takeback(state, plies)
    state, commands = apply_takeback(state, plies, now)
    return state, [*commands, Announce("Set the pieces back as the board diagram shows.")]


def _ambiguous_seen(state: GameState, event: AmbiguousSeen, now: float) -> Step:
    candidates = tuple(tuple(c) for c in event.candidates if c)
    if not candidates:
        return state, []
    if len(candidates) == 1:
        return synced(_board_move(state, BoardMoveSeen(candidates[0]), now))
    if state.phase in (Phase.ASSIST_WAIT, Phase.ROBOT_MOVING):
        matching = [c for c in candidates if c[0] == state.pending]
        if matching:
            return synced(opponent_move_seen(state, min(matching, key=len), now))
        return state, [Announce(assist_text(state))] if state.phase is Phase.ASSIST_WAIT else []
    if state.phase is Phase.WAIT_HUMAN or (state.phase is Phase.MISMATCH and state.resume is Phase.WAIT_HUMAN):
        return ask_ambiguous(replace(state, phase=Phase.WAIT_HUMAN), candidates, now)
    return state, []


def _prompt_answered(state: GameState, event: PromptAnswered, now: float) -> Step:
    if state.phase is not Phase.PROMPT or state.prompt is None:
        return state, []
    outcome = answer(state, event.answer, now)
    if outcome.moves is None:
        return outcome.state, outcome.commands
    return synced(human_moves(outcome.state, outcome.moves, now))


def _button(state: GameState, event: ButtonPressed, now: float) -> Step:
    if state.phase is Phase.PROMPT and state.prompt is not None and event.button in (Button.YES, Button.NO):
        options = state.prompt.options
        index = 0 if event.button is Button.YES else 1
        if index < len(options):
            return _prompt_answered(state, PromptAnswered(options[index]), now)
        return state, []
    if event.button not in (Button.CLOCK, Button.MOVE_DONE) or state.phase is not Phase.WAIT_HUMAN:
        return state, []
    if event.side is not None and event.side is not state.side_to_move:
        return state, []
    if state.settings.clock_button and state.move_time_at is None:
        state = replace(state, move_time_at=now)
    return state, [ReadBoard()]


def _resign(state: GameState, event: Resign, _now: float) -> Step:
    """A resignation on the resigner's own turn (records write it so: KIF `投了`, CSA `%TORYO`)."""
    if state.phase not in IN_PLAY:
        return state, []
    if event.side is not state.side_to_move:
        return state, [Announce(f"{rulings.name(event.side).capitalize()} can resign only on their own turn.")]
    return game_over(state, rulings.resignation(event.side), [])


def _declare(state: GameState, event: Declare, now: float) -> Step:
    human_turn = state.phase is Phase.WAIT_HUMAN or (state.phase is Phase.MISMATCH and state.resume is Phase.WAIT_HUMAN)
    if not human_turn or event.side is not state.side_to_move:
        return state, [Announce(f"{rulings.name(event.side).capitalize()} can declare only on their own turn.")]
    return declare_now(state, event.side, now)


def _tick(state: GameState, _event: Tick, _now: float) -> Step:
    return state, []


def _new_game(state: GameState, event: NewGame, _now: float) -> Step:
    commands: list[Command] = []
    if state.phase is not Phase.GAME_OVER and not state.fresh:
        state, commands = game_over(state, GameResult(Termination.ABORT, None, "a new game was started"), [])
    elif engine_busy(state):
        commands.append(StopEngine())
    settings = event.settings or state.settings
    fresh = GameState(settings, phase=Phase.RESET, clock=GameClock.new(settings.clock))
    return fresh, [*commands, fresh.expect_position(), Announce("Set up the pieces for a new game.")]


def _abort(state: GameState, event: Abort, _now: float) -> Step:
    if state.phase is Phase.GAME_OVER:
        return state, []
    detail = event.reason or "the game was stopped"
    return game_over(state, GameResult(Termination.ABORT, None, detail), [])


_HANDLERS: dict[type, Callable[[GameState, Any, float], Step]] = {
    BoardConfirmed: _board_confirmed,
    BoardMoveSeen: _board_move,
    EngineMoved: engine_moved,
    RemoteMoved: remote_moved,
    RemoteEnded: remote_ended,
    ServerClocks: server_clocks,
    TransferDone: transfer_done,
    TransferFailed: transfer_failed,
    MismatchSeen: _mismatch_seen,
    TakebackSeen: _takeback_seen,
    AmbiguousSeen: _ambiguous_seen,
    PromptAnswered: _prompt_answered,
    ButtonPressed: _button,
    Resign: _resign,
    Declare: _declare,
    TakebackAsked: _takeback_asked,
    Tick: _tick,
    NewGame: _new_game,
    Abort: _abort,
}
