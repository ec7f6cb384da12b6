"""The opponent's turn in the state machine: its answer (a move, `resign`, `win`), the move played on the board
by the gantry or by the human, and the camera's confirmation of it.

Owns: the handlers of `EngineMoved`, `RemoteMoved`, `TransferDone`, `TransferFailed`, and of a board move seen
while the opponent's move is awaited. The opponent is an abstraction: an engine or (later) a remote player; both
are asked with `AskEngine` and answer the same way, only the source recorded differs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from controller.game import rulings
from controller.game.commands import Announce, ExecuteMove, ExpectMove
from controller.game.events import EngineMoved, RemoteMoved, TransferDone, TransferFailed
from controller.game.settings import OpponentKind
from controller.game.state import GameState, Phase
from controller.game.turns import (
    Step,
    commit,
    declare_now,
    enter_turn,
    game_over,
    human_moves,
    illegal_reason,
    reconciler_position,
    start_opponent_move,
)


def opponent_move_seen(state: GameState, moves: Sequence[str], now: float) -> Step:
    """The board shows a move while the opponent's move is awaited: it must be that move (then maybe more).

    Seen by the camera, the move is confirmed even before the gantry reports done (a stable frame means the arm
    is out of the way); the human's clock starts now.
    """
    if state.pending is None:
        return state, []
    if moves[0] != state.pending:
        text = f"{moves[0]} is not the {state.settings.opponent.value}'s move: please play {state.pending} instead."
        return state, [Announce(text), reconciler_position(state), ExpectMove(state.pending)]
    state, commands = enter_turn(state, now)
    if len(moves) == 1:
        return state, commands
    state, more = human_moves(state, moves[1:], now)
    return state, commands + more


def opponent_moved(state: GameState, usi: str, kind: OpponentKind, now: float) -> Step:
    waiting = state.phase is Phase.ENGINE_THINKING or (
        state.phase is Phase.MISMATCH and state.resume is Phase.ENGINE_THINKING
    )
    if not waiting or state.settings.opponent is not kind:
        return state, []
    side = state.side_to_move
    if usi == "resign":
        return game_over(state, rulings.resignation(side), [], stop_engine=False)
    if usi == "win":
        return declare_now(state, side, now)
    reason = illegal_reason(state, usi)
    if reason is not None:
        return game_over(state, rulings.illegal(side, reason), [], stop_engine=False)
    state, commands, result = commit(state, usi, state.settings.opponent_source, now)
    commands.append(Announce(f"The {kind.value} plays {usi}."))
    state = replace(state, pending=usi, retried=False)
    if result is not None:
        if state.settings.gantry:
            commands.append(ExecuteMove(usi, state.sfen(len(state.moves) - 1)))
        return game_over(state, result, commands, stop_engine=False)
    if state.phase is Phase.MISMATCH:
        resume = Phase.ROBOT_MOVING if state.settings.gantry else Phase.ASSIST_WAIT
        return replace(state, resume=resume), [*commands, Announce("Set the board right first.")]
    state, more = start_opponent_move(state)
    return state, commands + more


def engine_moved(state: GameState, event: EngineMoved, now: float) -> Step:
    return opponent_moved(state, event.usi, OpponentKind.ENGINE, now)


def remote_moved(state: GameState, event: RemoteMoved, now: float) -> Step:
    return opponent_moved(state, event.usi, OpponentKind.REMOTE, now)


def transfer_done(state: GameState, _event: TransferDone, _now: float) -> Step:
    if state.phase is Phase.ROBOT_MOVING:
        return replace(state, transfer_done=True), []
    return state, []


def transfer_failed(state: GameState, event: TransferFailed, _now: float) -> Step:
    """A failed transfer is retried once (`ExecuteMove.attempt` 2: continue from where it stopped), then the
    human is asked to finish the move (ASSIST_WAIT)."""
    if state.phase is not Phase.ROBOT_MOVING or state.pending is None:
        return state, []
    if not state.retried:
        text = f"The robot's move failed ({event.detail}); retrying."
        retry = ExecuteMove(state.pending, state.sfen(len(state.moves) - 1), attempt=2)
        return replace(state, retried=True, transfer_done=False), [Announce(text), retry]
    state, commands = start_opponent_move(replace(state, retried=True))
    text = f"The robot could not play its move ({event.detail})."
    return state, [Announce(text), *commands]
