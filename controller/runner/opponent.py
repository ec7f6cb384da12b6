"""The engine as the game's opponent: each `AskEngine` runs in a worker thread and its answer comes back to the
game loop as an `EngineMoved` event.

Owns: turning the machine's clock arguments into USI `go` limits (the engine's fixed limits, when configured,
take precedence: strength by time, nodes or depth), the search thread, and forgetting the answer of a search
the game abandoned (`StopEngine`): each request has a generation number and a stale answer is dropped. A dead or
hung engine is restarted by `controller.engines.SupervisedEngine`; when even that fails the failure is
reported through `on_error` (the game loop aborts the game with that message).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Protocol

from controller.engines.client import GameOver
from controller.engines.errors import EngineError
from controller.engines.position import EnginePosition
from controller.engines.protocol import BestMoveKind, GoLimits, Score
from controller.engines.search import SearchResult
from controller.game.clock import GoArgs
from controller.game.commands import AskEngine
from controller.game.events import EngineMoved, Event
from controller.game.state import GameState
from controller.rules.types import Color, GameResult


class Opponent(Protocol):
    """What the game loop's effects need of an opponent: the engine here, or a remote player
    (`controller.runner.remote_opponent`)."""

    def ask(self, command: AskEngine) -> None:
        """The opponent's turn in `command`'s position: its answer comes back as an event."""
        ...

    def cancel(self) -> None:
        """Forget the pending answer (`StopEngine`)."""
        ...

    def game_ended(self, result: GameResult, state: GameState) -> None:
        """The game is over (`state` is the final one)."""
        ...

    def close(self) -> None:
        """Let go of the opponent."""
        ...


class BlockingEngine(Protocol):
    """What the worker needs of `controller.engines.SyncEngine`."""

    def play(self, position: EnginePosition, limits: GoLimits | None = None) -> SearchResult:
        """Search and return the checked answer."""
        ...

    def gameover(self, result: GameOver) -> None:
        """`gameover win|lose|draw`."""
        ...

    def close(self) -> None:
        """Quit the engine."""
        ...


def go_limits(go: GoArgs | None, fixed: GoLimits | None) -> GoLimits | None:
    """The `go` limits: the engine's fixed limit when configured, else the game's clock (None: engine default)."""
    if fixed is not None:
        return fixed
    if go is None:
        return None
    return GoLimits(
        btime_ms=go.btime_ms,
        wtime_ms=go.wtime_ms,
        byoyomi_ms=go.byoyomi_ms,
        binc_ms=go.binc_ms,
        winc_ms=go.winc_ms,
    )


def answer_text(result: SearchResult) -> str:
    """The answer as `EngineMoved` carries it: a USI move, `resign` or `win`."""
    if result.bestmove.kind is BestMoveKind.RESIGN:
        return "resign"
    if result.bestmove.kind is BestMoveKind.WIN:
        return "win"
    move = result.move
    if move is None:
        raise EngineError("the engine answered no move")
    return move


class EngineOpponent:
    """Asks the engine in a worker thread; answers are posted as events."""

    def __init__(
        self,
        engine: BlockingEngine,
        post: Callable[[Event], None],
        *,
        fixed: GoLimits | None = None,
        on_error: Callable[[str], None],
    ) -> None:
        self._engine, self._post, self._fixed, self._on_error = engine, post, fixed, on_error
        self._lock = threading.Lock()
        self._generation = 0
        self._thread: threading.Thread | None = None
        self.searches = 0
        self.evaluation: str | None = None
        """The last search's evaluation for the web page (`+350 for sente`, `mate for gote`), None before one."""

    def ask(self, command: AskEngine) -> None:
        """Start a search for `command`'s position (the previous one, if any, is waited for first)."""
        with self._lock:
            self._generation += 1
            generation = self._generation
        previous = self._thread
        position = EnginePosition(command.start_sfen, command.moves)
        limits = go_limits(command.go, self._fixed)

        def search() -> None:
            if previous is not None:
                previous.join()
            try:
                result = self._engine.play(position, limits)
                text = answer_text(result)
                self.evaluation = evaluation_text(result.score, sente_to_move=_sente_to_move(position))
            except EngineError as exc:
                self._deliver(generation, None, f"the engine failed: {exc}")
                return
            except Exception as exc:  # a worker thread reports every failure to the game loop
                self._deliver(generation, None, f"the engine search failed: {type(exc).__name__}: {exc}")
                return
            self._deliver(generation, text, None)

        self._thread = threading.Thread(target=search, name="engine-search", daemon=True)
        self._thread.start()
        self.searches += 1

    def _deliver(self, generation: int, text: str | None, error: str | None) -> None:
        with self._lock:
            if generation != self._generation:
                return
        if error is not None:
            self._on_error(error)
        elif text is not None:
            self._post(EngineMoved(text))

    def cancel(self) -> None:
        """Forget the running search's answer (`StopEngine`)."""
        with self._lock:
            self._generation += 1

    def gameover(self, result: GameOver) -> None:
        """Tell the engine how the game ended (after any search has finished)."""
        self.cancel()
        if self._thread is not None:
            self._thread.join()
        try:
            self._engine.gameover(result)
        except EngineError as exc:
            self._on_error(f"the engine failed at gameover: {exc}")

    def game_ended(self, result: GameResult, state: GameState) -> None:
        """`gameover` from the engine's point of view."""
        side = state.settings.opponent_side
        if side is not None:
            self.gameover(engine_outcome(result, side))

    def close(self) -> None:
        """Quit the engine (waits for a running search)."""
        self.cancel()
        if self._thread is not None:
            self._thread.join()
        self._engine.close()


def engine_outcome(result: GameResult, engine_side: Color) -> GameOver:
    """`gameover` from the engine's point of view."""
    if result.winner is None:
        return GameOver.DRAW
    return GameOver.WIN if result.winner is engine_side else GameOver.LOSE


def evaluation_text(score: Score | None, *, sente_to_move: bool) -> str | None:
    """An engine score (side to move's view) as the page shows it, from sente's side: `+350 (sente)`, `mate (gote)`."""
    if score is None:
        return None
    if score.mate_sign:
        winner = "sente" if (score.mate_sign > 0) == sente_to_move else "gote"
        plies = f" in {score.mate_plies}" if score.mate_plies else ""
        return f"mate{plies} for {winner}"
    if score.cp is None:
        return None
    cp = score.cp if sente_to_move else -score.cp
    return f"{cp:+d} for sente" if cp >= 0 else f"{-cp:+d} for gote"


def _sente_to_move(position: EnginePosition) -> bool:
    first_sente = position.start_sfen.split()[1] == "b" if len(position.start_sfen.split()) > 1 else True
    return first_sente == (len(position.moves) % 2 == 0)
