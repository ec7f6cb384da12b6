"""The reconciler: the game as the board should show it, fed observation by observation.

Owns: the last legal position (a cshogi board, the move list and each earlier position's labels and hands,
for takebacks), the evidence window, the reader's habits on this set, its usual miscount of the piece
stands and which hand slots each stand has been seen to read (all learnt from confirmed positions), the
expected move of a robot or assisted move, how long each square the reader doubts has been doubted on still
frames (weighed as read after `doubt_seconds`), the squares unseen when the position was last confirmed (the
reader's lasting false alarms, no sign of a hand), the rim of that confirmed frame (`EdgeWatch`: where the rim
differs now, a hand may be at the board's edge), and the agreement rule: a proposal is acted on only after
`agree_frames` consecutive stable frames propose it (for a move, over at least `agree_seconds`; for problems,
only after it has lasted `settle_seconds`). Committing a move is the only thing that changes the game on its
own; takebacks, ambiguities and mismatches are reported for the caller to decide (`take_back`, `play`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Hashable, Iterable

import numpy as np

from controller.reconcile.decide import GameView, Proposal, ProposalKind, propose
from controller.reconcile.edge_watch import EdgeWatch
from controller.reconcile.errors import GameStateError
from controller.reconcile.evidence import EvidenceWindow
from controller.reconcile.habits import ReadingHabits
from controller.reconcile.hypotheses import Hypothesis, Scorer
from controller.reconcile.labels import Hands, Labels, board_hands, board_labels
from controller.reconcile.types import MoveCommitted, NoChange, Observation, ReconcileConfig, Result, Waiting
from controller.rules.game import push_checked
from controller.rules.positions import STARTPOS_SFEN, board_from_sfen
from controller.rules.referee import legal_usi_moves

MAX_HAND_COUNT = 18
"""Most pieces of one kind a hand can hold (pawns)."""


class Reconciler:
    """Turns a stream of observations into committed moves of one game.

    Use: `observe(obs)` for every frame; `MoveCommitted` already advanced the game; answer `Ambiguous` with
    `play(moves)`, accept a `Takeback` with `take_back(plies)`; `expect(usi)` before a robot or assisted move,
    `set_position(sfen, moves)` to resynchronise with the game's own record, `decide_now()` on a move-done button.
    """

    def __init__(
        self, config: ReconcileConfig | None = None, sfen: str = STARTPOS_SFEN, moves: Iterable[str] = ()
    ) -> None:
        self._config = config or ReconcileConfig()
        self._window = EvidenceWindow(self._config.window_frames, self._config.probability_floor)
        self._board = board_from_sfen(sfen)
        self._start: str = self._board.sfen()
        self._moves: list[str] = []
        self._history: list[tuple[Labels, Hands]] = []
        self._expected: str | None = None
        self._streak: tuple[Hashable, int, float] | None = None
        self._move_since: tuple[Hashable, float] | None = None
        self._now = False
        self._habits = ReadingHabits(self._config.probability_floor)
        self._stand_offset: Hands | None = None
        self._stand_right = np.zeros((14, MAX_HAND_COUNT + 1), dtype=np.int64)  # per slot and held count
        self._stand_wrong = np.zeros((14, MAX_HAND_COUNT + 1), dtype=np.int64)
        self._doubted_since: dict[int, float] = {}
        self._steady_unseen: frozenset[int] = frozenset()
        self._edge = EdgeWatch(self._config.doubt_seconds)
        self.set_position(sfen, moves)

    # --- the game -------------------------------------------------------------------------------------------

    @property
    def config(self) -> ReconcileConfig:
        """The thresholds in use."""
        return self._config

    @property
    def sfen(self) -> str:
        """The last legal position."""
        return str(self._board.sfen())

    @property
    def start_sfen(self) -> str:
        """The position the move list starts from."""
        return self._start

    @property
    def moves(self) -> tuple[str, ...]:
        """The moves played since the start position."""
        return tuple(self._moves)

    @property
    def expected_move(self) -> str | None:
        """The move the board should come to, if one was announced with `expect`."""
        return self._expected

    def set_position(self, sfen: str, moves: Iterable[str] = ()) -> None:
        """Start over from `sfen` and `moves` (each checked); the evidence window and expectation are cleared.

        Raises:
            PositionError, IllegalMoveError: from the rules layer, for a bad position or move.
        """
        board = board_from_sfen(sfen)
        start: str = board.sfen()
        history = [(board_labels(board), board_hands(board))]
        played: list[str] = []
        for ply, usi in enumerate(moves, start=1):
            push_checked(board, usi, ply=ply)
            played.append(usi)
            history.append((board_labels(board), board_hands(board)))
        self._board, self._start, self._moves, self._history = board, start, played, history
        self._expected = None
        self._window.clear()
        self._reset_agreement()
        self._now = False

    def play(self, moves: Iterable[str]) -> None:
        """Add moves decided elsewhere (an answered ambiguity, a takeback's replacement move).

        Raises:
            GameStateError: when a move is not legal (the game keeps the moves before it).
        """
        for usi in moves:
            if usi not in legal_usi_moves(self._board):
                raise GameStateError(f"{usi} is not a legal move in {self.sfen}")
            self._push(usi)
        self._reset_agreement()

    def take_back(self, plies: int) -> None:
        """Undo the last `plies` moves (after a Takeback was accepted).

        Raises:
            GameStateError: when fewer moves were played.
        """
        if not 0 < plies <= len(self._moves):
            raise GameStateError(f"cannot take back {plies} moves: {len(self._moves)} have been played")
        for _ in range(plies):
            self._board.pop()
            self._moves.pop()
            self._history.pop()
        self._expected = None
        self._reset_agreement()

    def expect(self, move: str | None) -> None:
        """Announce the move the board should come to (a gantry transfer or an assisted move); None to cancel.

        Raises:
            GameStateError: when the move is not legal here.
        """
        if move is not None and move not in legal_usi_moves(self._board):
            raise GameStateError(f"cannot expect {move}: it is not legal in {self.sfen}")
        self._expected = move
        self._reset_agreement()

    def reader_changed(self) -> None:
        """The reader now reads differently (a piece set learnt or calibrated): what was learnt of its habits,
        and the frames it read before, describe the old reading and are forgotten."""
        self._habits = ReadingHabits(self._config.probability_floor)
        self._window.clear()
        self._doubted_since.clear()
        self._reset_agreement()

    def decide_now(self) -> None:
        """The player says the move is made (a move-done or clock button): the next stable frame's reading is
        acted on without waiting for agreeing frames, and a problem is reported without waiting for it to settle.
        A commit still needs its margin: an unclear board stays Waiting."""
        self._now = True

    # --- observations ---------------------------------------------------------------------------------------

    def observe(self, obs: Observation) -> Result:
        """Take one observation and say what, if anything, was decided."""
        if not obs.stable:
            self._window.clear()
            self._doubted_since.clear()
            self._edge.moving()
            self._reset_agreement()
            return Waiting("hands over the board")
        self._window.add(self._weigh_long_doubted(obs))
        evidence = self._window.evidence()
        scorer = Scorer(evidence, self._config, self._stand_offset)
        labels, hands = self._history[-1]
        game = GameView(
            self._board,
            labels,
            hands,
            self._expected,
            self._habits,
            self._stand_trusted(),
            self._steady_unseen,
            self._edge.near(obs.rim, obs.time),
        )
        proposal = propose(game, self._hypotheses(scorer), scorer, self._config)
        result = self._settle(proposal, obs.time)
        if isinstance(result, NoChange):
            self._steady_unseen = evidence.unseen
            self._edge.confirm(obs.rim)
            seen = np.ones(81, dtype=bool)
            seen[sorted(evidence.unseen)] = False
            self._habits.learn(np.exp(evidence.log_probs), labels, seen)
            self._learn_stand_offset(scorer, hands)
        return result

    def _weigh_long_doubted(self, obs: Observation) -> Observation:
        """`obs` with the squares doubted on every stable frame for `doubt_seconds` taken as read (a hand does
        not stay still over the board that long; the reader's false alarm on a plain square does)."""
        since = self._doubted_since
        self._doubted_since = {i: since.get(i, obs.time) for i in obs.doubted}
        limit = self._config.doubt_seconds
        weighed = frozenset(i for i, t in self._doubted_since.items() if obs.time - t >= limit)
        if not weighed:
            return obs
        return dataclasses.replace(obs, unreliable=obs.unreliable - weighed, doubted=obs.doubted - weighed)

    def _learn_stand_offset(self, scorer: Scorer, hands: Hands) -> None:
        """Each read stand's miscount of the confirmed hands (a stand not read keeps what was learnt before), and
        per hand slot holding a piece, whether its stand read it right or wrong."""
        seen = scorer.hands_seen
        if seen is None:
            return
        old = self._stand_offset or (0,) * len(hands)
        self._stand_offset = tuple(
            a - b if scorer.slot_read(slot) else was
            for slot, (a, b, was) in enumerate(zip(seen, hands, old, strict=True))
        )
        for slot, (read, held) in enumerate(zip(seen, hands, strict=True)):
            if held and scorer.slot_read(slot):
                tally = self._stand_right if read == held else self._stand_wrong
                tally[slot, min(held, MAX_HAND_COUNT)] += 1

    def _stand_trusted(self) -> Hands:
        """Per hand slot, the most pieces its stand has been seen to count: the largest count n such that the
        stand read the slot right, holding n or more, in `stand_trust_frames` confirmed frames and more often than
        wrong (0: never; a stand that never showed this set's gold, or never counted a third pawn, gives no
        reason to wait for one)."""
        needed = self._config.stand_trust_frames
        right = np.cumsum(self._stand_right[:, ::-1], axis=1)[:, ::-1]  # right[slot, n]: frames holding n or more
        wrong = np.cumsum(self._stand_wrong[:, ::-1], axis=1)[:, ::-1]
        ok = (right >= needed) & (right > wrong)
        ok[:, 0] = True
        return tuple(int(np.flatnonzero(row)[-1]) for row in ok)

    def _reset_agreement(self) -> None:
        """Forget the frames agreeing so far (and since when a move has been proposed)."""
        self._streak = None
        self._move_since = None

    def _track_move(self, proposal: Proposal, now: float) -> float:
        """Since when the move `proposal` commits has been proposed, counting frames that raised a problem (a
        question such as a promotion or drop kind the read leaves open, an unclear square, a mismatch) as not
        against it: a noisy read that flips between the move and a question about it must not restart
        `agree_seconds` on every flip (it held a bishop's capture without promotion, 8h2b, for good in a
        simulated game). Any other proposal (no change, another move, a wait) restarts the count."""
        if proposal.kind is ProposalKind.MOVE:
            if self._move_since is None or self._move_since[0] != proposal.key:
                self._move_since = (proposal.key, now)
            return self._move_since[1]
        if proposal.kind is not ProposalKind.PROBLEM:
            self._move_since = None
        return now

    def _settle(self, proposal: Proposal, now: float) -> Result:
        move_since = self._track_move(proposal, now)
        if self._streak is not None and self._streak[0] == proposal.key:
            key, count, since = self._streak
            self._streak = (key, count + 1, since)
        else:
            self._streak = (proposal.key, 1, now)
        _, count, since = self._streak
        needed = self._config.agree_frames
        agreed = count >= needed or self._now
        if proposal.kind in (ProposalKind.NO_CHANGE, ProposalKind.WAIT):
            self._now = self._now and proposal.kind is ProposalKind.WAIT
            if proposal.expired is not None and now - since >= self._config.hidden_seconds:
                return proposal.expired
            return proposal.result
        if isinstance(proposal.result, MoveCommitted):
            moves = " then ".join(proposal.result.moves)
            if not agreed:
                return Waiting(f"confirming {moves} ({count}/{needed})")
            if now - move_since < self._config.agree_seconds and not self._now:
                return Waiting(
                    f"confirming {moves} (seen for {now - move_since:.2f} of {self._config.agree_seconds} s)"
                )
            if proposal.held and now - since < self._config.stand_wait_seconds and not self._now:
                return Waiting(proposal.pending)
            if proposal.held and proposal.expired is not None:
                self._now = False
                return proposal.expired
            for usi in proposal.result.moves:
                self._push(usi)
            self._reset_agreement()
            self._now = False
            return proposal.result
        if proposal.kind is ProposalKind.TAKEBACK:
            self._now = self._now and not agreed
            return proposal.result if agreed else Waiting(f"confirming a takeback ({count}/{needed})")
        if agreed and (now - since >= self._config.settle_seconds or self._now):
            self._now = False
            return proposal.result
        return Waiting(proposal.pending)

    def _push(self, usi: str) -> None:
        self._board.push_usi(usi)
        self._moves.append(usi)
        self._history.append((board_labels(self._board), board_hands(self._board)))
        if self._expected is not None:
            self._expected = None

    def _hypotheses(self, scorer: Scorer) -> list[Hypothesis]:
        labels, hands = self._history[-1]
        base = scorer.base(labels, hands)
        found = [Hypothesis(0, (), labels, (), hands, base.board_score + scorer.hands_term(hands))]
        found += scorer.successors(self._board, base, takeback=0, prior=0.0, pairs=True)
        found += self._takebacks(scorer, labels, hands)
        return found

    def _takebacks(self, scorer: Scorer, labels: Labels, hands: Hands) -> list[Hypothesis]:
        """Earlier positions of the game, and a different move in place of the last one."""
        config = self._config
        limit = len(self._moves) if config.max_takeback_plies == 0 else min(config.max_takeback_plies, len(self._moves))
        seen = {_key(labels, hands)}
        earlier: list[tuple[int, Labels, Hands]] = []
        for plies in range(1, limit + 1):
            earlier_labels, earlier_hands = self._history[-1 - plies]
            key = _key(earlier_labels, earlier_hands)
            if key not in seen:
                seen.add(key)
                earlier.append((plies, earlier_labels, earlier_hands))
        found = scorer.positions(earlier, config.takeback_penalty)
        if not self._moves:
            return found
        last = self._board.peek()
        self._board.pop()
        try:
            base = scorer.base(*self._history[-2])
            prior = config.takeback_penalty + config.replace_penalty
            found += scorer.successors(self._board, base, takeback=1, prior=prior, pairs=False, skip=self._moves[-1])
        finally:
            self._board.push(last)
        return found


def _key(labels: Labels, hands: Hands) -> tuple[bytes, Hands]:
    return labels.tobytes(), hands
