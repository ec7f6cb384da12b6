"""What a remote opponent's server decides in the state machine: the end of the game and the clocks.

Owns: the handlers of `RemoteEnded` and `ServerClocks`, and the rules that follow from the server being the
judge: against a remote opponent the local clock never flags (the server's time-up arrives as `RemoteEnded`), and
a takeback seen on the board is refused (the servers have no takeback: the pieces must go back).
"""

from __future__ import annotations

from dataclasses import replace

from controller.game.clock import SideTime
from controller.game.events import RemoteEnded, ServerClocks
from controller.game.settings import OpponentKind
from controller.game.state import GameState, Phase
from controller.game.turns import Step, game_over, mismatch


def server_judges(state: GameState) -> bool:
    """True when a remote server keeps the clocks and rules on time (the local clock only shows them)."""
    return state.settings.opponent is OpponentKind.REMOTE and state.settings.opponent_side is not None


def remote_ended(state: GameState, event: RemoteEnded, _now: float) -> Step:
    """The server's verdict ends the game, whatever the phase (a finished game stays as it is)."""
    if state.phase is Phase.GAME_OVER or not server_judges(state):
        return state, []
    return game_over(state, event.result, [])


def server_clocks(state: GameState, event: ServerClocks, _now: float) -> Step:
    """Adopt the server's main time left for both sides (periods, time used and the running side are kept)."""
    if not server_judges(state):
        return state, []
    black, white = state.clock.black, state.clock.white
    clock = replace(
        state.clock,
        black=SideTime(max(0.0, event.black_s), black.periods, black.used_s),
        white=SideTime(max(0.0, event.white_s), white.periods, white.used_s),
    )
    return replace(state, clock=clock), []


def refuse_takeback(state: GameState, plies: int) -> Step:
    """A takeback on the board against a remote opponent: say so and wait for the pieces to go back."""
    back_to = state.resume if state.phase is Phase.MISMATCH else state.phase
    moves = "move" if plies == 1 else "moves"
    text = (
        f"The remote server has no takeback: please put the {plies} {moves} back "
        f"(the game stays at move {len(state.moves)})."
    )
    return mismatch(state, [], back_to, (text,), sync=True)
