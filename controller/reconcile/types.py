"""Values of reconciliation: the observation it is fed, the results it returns, and its thresholds.

Owns: `Observation` (the controller's own view of one board read: the composition root adapts the reader's
output into it), the result dataclasses, `Candidate`, and `ReconcileConfig` (validated once, at construction).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from controller.reconcile.errors import ConfigError, ObservationError
from controller.reconcile.labels import HAND_INDEX, N_LABELS

ROW_SUM_TOLERANCE = 1e-3


class RimLike(Protocol):
    """The board's rim as one frame shows it (`vision.rim.RimView`): compared with an earlier frame's."""

    def changed_since(self, reference: Any) -> frozenset[int]:
        """The edge squares (SFEN indices) whose rim looks different from `reference`'s."""
        ...


@dataclass(frozen=True, eq=False)
class Observation:
    """One read of the board and the piece stands.

    Attributes:
        probs: shape (81, 29): per square (SFEN order: 0 = 9a, 8 = 1a, 80 = 1i) the probability of each label
            in `labels.SQUARE_LABELS` order; each row sums to 1.
        hands: pieces on the stands by SFEN letter (`P`: sente pawns, `p`: gote pawns); None when no stand was
            read. Only the stands of `hand_sides` were read: a letter absent there means none of that kind.
        hand_confidence: 0..1, how far the hand counts can be trusted.
        unreliable: squares the reader flags (occluded, blurred): their probabilities are ignored.
        stable: the motion gate says hands are off the board.
        time: seconds on the injected clock.
        hand_sides: the players whose stand `hands` covers (`b` sente, `w` gote; ignored when `hands` is None):
            a stand out of view or covered is unknown, the other still counts.
        doubted: the unreliable squares the reader flagged as unseen while still reading them clearly (its
            classifier calls the square unreadable but gives a confident label): ignored like the others at
            first, weighed once they have stayed so on still frames for `ReconcileConfig.doubt_seconds`.
        rim: the strip round the board's grid as this frame shows it, or None when not read: where it differs
            from the rim when the position was last confirmed, a hand may be at the board's edge.
    """

    probs: npt.NDArray[np.float64]
    hands: Mapping[str, int] | None = None
    hand_confidence: float = 0.0
    unreliable: frozenset[int] = frozenset()
    stable: bool = True
    time: float = 0.0
    hand_sides: frozenset[str] = frozenset({"b", "w"})
    doubted: frozenset[int] = frozenset()
    rim: RimLike | None = None

    def __post_init__(self) -> None:
        probs = np.asarray(self.probs, dtype=np.float64)
        if probs.shape != (81, N_LABELS):
            raise ObservationError(f"probabilities must have shape (81, {N_LABELS}), got {probs.shape}")
        if not np.all(np.isfinite(probs)) or np.any(probs < 0):
            raise ObservationError("probabilities must be finite and non-negative")
        worst = float(np.max(np.abs(probs.sum(axis=1) - 1.0)))
        if worst > ROW_SUM_TOLERANCE:
            raise ObservationError(f"each square's probabilities must sum to 1 (off by {worst:.4f})")
        object.__setattr__(self, "probs", probs)
        if not 0.0 <= self.hand_confidence <= 1.0:
            raise ObservationError(f"hand_confidence must be in 0..1, got {self.hand_confidence}")
        if any(not 0 <= sq < 81 for sq in self.unreliable):
            raise ObservationError(f"unreliable squares must be indices 0..80, got {sorted(self.unreliable)}")
        if not self.doubted <= self.unreliable:
            raise ObservationError(f"doubted squares must be unreliable ones, got {sorted(self.doubted)}")
        if self.hands is not None:
            self._check_hands(self.hands)
        if not math.isfinite(self.time):
            raise ObservationError(f"observation time must be finite, got {self.time}")

    def _check_hands(self, hands: Mapping[str, int]) -> None:
        if not self.hand_sides or not self.hand_sides <= {"b", "w"}:
            raise ObservationError(f"hand_sides must be b, w or both, got {sorted(self.hand_sides)}")
        for letter, count in hands.items():
            if letter not in HAND_INDEX:
                raise ObservationError(f"unknown hand piece {letter!r} (use R B G S N L P, lower case for gote)")
            if count < 0:
                raise ObservationError(f"negative hand count for {letter!r}: {count}")
            if count and ("b" if letter.isupper() else "w") not in self.hand_sides:
                raise ObservationError(f"hand piece {letter!r} counted on a stand not read ({sorted(self.hand_sides)})")


@dataclass(frozen=True)
class Candidate:
    """One explanation of what the board shows.

    Attributes:
        moves: USI moves played (after any takeback), in order.
        takeback: plies taken back before those moves (0: none).
        score: log-likelihood of the resulting position (higher is better; compare candidates by difference).
        text: a short description for a player ("7g7f", "take back 1 move").
    """

    moves: tuple[str, ...]
    takeback: int
    score: float
    text: str


@dataclass(frozen=True)
class NoChange:
    """The board still shows the expected position."""


@dataclass(frozen=True)
class Waiting:
    """Not decided yet (hands over the board, settling, confirming, a square unclear)."""

    reason: str


@dataclass(frozen=True)
class MoveCommitted:
    """One or two legal moves were made; the reconciler's game now includes them."""

    moves: tuple[str, ...]
    margin: float


@dataclass(frozen=True)
class Takeback:
    """The board returned to an earlier position (possibly followed by `then`, a different move).

    The reconciler's game is unchanged: the caller decides. After `Reconciler.take_back(plies)` the next
    frames commit `then` as an ordinary move (or the caller passes it to `Reconciler.play`).
    """

    plies: int
    then: tuple[str, ...] = ()


@dataclass(frozen=True)
class Ambiguous:
    """Two or more explanations are too close to call; ask the player (best first)."""

    candidates: tuple[Candidate, ...]


@dataclass(frozen=True)
class Mismatch:
    """The board matches nothing legal. The last legal position is kept until the board is set right."""

    messages: tuple[str, ...]
    squares: tuple[str, ...] = field(default=())


Result = NoChange | Waiting | MoveCommitted | Takeback | Ambiguous | Mismatch


@dataclass(frozen=True)
class ReconcileConfig:
    """Thresholds (log-likelihoods are means over the frames of the evidence window, natural log).

    Attributes:
        window_frames: stable frames kept as evidence (a sliding window; an unstable frame empties it).
        agree_frames: consecutive stable frames that must propose the same decision before it is reported. 2,
            not 3: a move is committed one frame interval sooner (about 100 ms with the simulated camera). On
            development games 401-407 (566 moves, `bench game --first 400`, the same code but for this) both
            recorded every move right with no false move, with 9 prompts against 10, median latency per game
            170-308 against 271-443 ms (load 5); on 2205 moves of synthetic development games both gave 0 false
            moves and 7 prompts. Frames with a hand moving over the board never count (the motion gate); a hand
            that stops does, hence `agree_seconds`.
        agree_seconds: and the first frame that proposed the move must be this long before the one that
            commits it. Frames between that raised a problem (a question such as a promotion or drop kind the
            read leaves open, an unclear square, a mismatch) do not break the count; any other proposal (no
            change, another move, a wait for a hidden square or a hand) does. A hand stops for a moment while it
            carries a piece, and a piece held in the fingers looks set down where it is; when no square is
            hidden (the fingers over the board's rim), nothing else tells. The live loop reads frames every
            20 ms on this machine, so two agreeing frames span 20 ms there, 100 ms in `bench game`'s camera,
            more on a Pi: a move is committed on a time, not a frame count. A `demo` committed 4i3i for 4i4h
            from a gold held still at the rim for 0.1 s (2026-11-28); every stop of the simulated hand lasts
            0.1 s.
        commit_margin: how far the best explanation must be ahead of the next one to be committed.
        habit_margin: how far one dropped kind must explain the read ahead of every other held kind, by the
            reader's learnt habits on this set, for the habits to decide the kind (or for a kind the board reads
            to stand without a question); >= commit_margin. Habits are per kind, not per square or pose, so a thin
            lead is no proof: leads of 2.4-2.6 committed a lance for a rook on a development game (2.0 for a bishop
            on a benchmark game); a clear read (0.9) of a kind with plain odds elsewhere leads by about 3.3.
        drop_kind_margin: how far a dropped piece's kind must lead every other kind its player held, as read
            (log-odds) or by its fit to the habits' mean rows, to need no other proof when the dropper's stand
            does not confirm it; short of that, a read the habits find about as typical of another held kind
            (within habit_margin) is asked (`controller.reconcile.drop_kinds.kind_untold`); >= habit_margin. 4.6
            is odds of 100 to 1: a false move is the worst outcome and a question is cheap. On the benchmark's
            games (the shipped model: games 1-5 and 17; the one-ink fine-tune: game 17) each of the 79 drops
            committed right while their player held other kinds led by 6.8 or more one way or the other; the
            false S*2i (game 17, the fine-tune) by 2.7-3.2 as read and 3.0-3.6 by the fit.
        prune_margin: pairs of moves whose first or second move starts on a square showing no sign of change
            (evidence for its expected label this much ahead of any other) are not scored; >= commit_margin.
        mismatch_log_odds: a square contradicts an explanation when the reader finds another occupancy (empty,
            sente's piece, gote's piece) this much more likely, or, where a piece was dropped, another kind.
        unclear_probability: a square whose most likely occupancy has a lower (geometric mean) probability is
            unclear (a knocked-over piece, one off its square): nothing is committed while one is.
        pair_penalty / takeback_penalty / replace_penalty: prior costs of two moves between reads, of a
            takeback, and of a different move after taking one back.
        decline_cost: prior cost, by the moving piece's kind, of a move that could promote and does not (players
            almost always promote a pawn, lance, bishop or rook; a silver or knight often stays): with an unsure
            read of the face the promotion is committed, a clearly unpromoted face still commits the other move.
        unseen_promotion_margin: a promotion choice no picture can show (the piece taken at once, both choices
            ending in the same position) is decided by the prior alone when it favours one choice by at least
            this; closer, the player is asked. 0.5 sits between the knight's decline cost (0.3) and the lance's
            (0.7): in the 500 real games, knights and silvers that could promote declined 15 % and 18 % of the
            time (a pair 4e3c 3b3c of game 107 had been committed as 4e3c+ 3b3c), lances 6 %, pawns, bishops and
            rooks 1.3-2.4 %; asking every lance taken at once cost the game benchmark two prompts in one game.
        covered_probability: while some square of the window is hidden (a hand may still be over the board), a
            move is committed only when the reader sees each square it changes as the move leaves it with at least
            this (geometric mean) probability, and none of them is next to a hidden square (a move is made when
            the hand leaves the piece; a piece held in the fingers over a square looks set down there); until then
            it waits for the hand to go. On paused-hand frames (`bench pause`) moves were committed onto a square
            beside the hand read "a gote knight" at 0.32 where nothing stood, and onto the square under a gold
            held still in the fingers. 0: only the squares next to a hidden one wait.
        hand_weight: log-likelihood cost per piece of difference between the seen and explained hands
            (scaled by the observation's hand_confidence).
        hands_min_confidence: below this, hand counts are not used at all.
        settle_seconds: a problem (mismatch, ambiguity, unclear square, a move other than the expected one)
            must persist this long before it is reported; until then the result is Waiting.
        stand_wait_seconds: a move whose piece stands still read as before it (the captured piece not on the
            stand yet, the dropped one still there) is held back this long, then committed on the board's
            evidence (a stand the reader miscounts must not stop the game). Only a hand slot the stand has been
            seen to count that far is held for (see `stand_trust_frames`): a stand that never shows this set's
            gold gives no reason to wait for it.
        hidden_seconds: a square the reader could not see on stable frames (hands gone, but something over it,
            or a piece it cannot read at all) that a candidate move needs holds the decision back; after this long
            it becomes a problem told to the player (a Mismatch naming the squares) instead of a silent wait.
        doubt_seconds: a square the reader calls unseen while reading it clearly (`Observation.doubted`) on
            every stable frame this long is weighed as read: a hand does not stay still over the board for
            seconds, a false alarm of the reader on a plain square does (benchmark play games stalled on an empty
            square read "empty" at 0.99 and "unreadable" at 0.3, frame after frame). Shorter than
            `hidden_seconds`, so such a move is committed rather than told.
        stand_trust_frames: a hand slot (one kind of one player) is waited for only up to the count its stand
            has been seen to read right: holding that many or more, in this many confirmed frames and in more of
            them than it read the slot wrong.
        probability_floor: probabilities are clipped to this before taking logs.
        max_takeback_plies: how far back takebacks are looked for (0: the whole game).
        max_candidates: most candidates listed in Ambiguous.
        max_messages: most sentences in a Mismatch.
    """

    window_frames: int = 6
    agree_frames: int = 2
    agree_seconds: float = 0.25
    commit_margin: float = 2.0
    habit_margin: float = 3.0
    drop_kind_margin: float = 4.6
    prune_margin: float = 3.0
    mismatch_log_odds: float = 3.0
    unclear_probability: float = 0.6
    pair_penalty: float = 1.0
    takeback_penalty: float = 3.5
    replace_penalty: float = 1.0
    decline_cost: Mapping[str, float] = field(
        default_factory=lambda: MappingProxyType({"P": 1.0, "L": 0.7, "N": 0.3, "S": 0.0, "B": 1.0, "R": 1.0})
    )
    unseen_promotion_margin: float = 0.5
    covered_probability: float = 0.6
    hand_weight: float = 2.5
    hands_min_confidence: float = 0.5
    settle_seconds: float = 1.0
    stand_wait_seconds: float = 1.0
    hidden_seconds: float = 5.0
    doubt_seconds: float = 3.0
    stand_trust_frames: int = 3
    probability_floor: float = 1e-4
    max_takeback_plies: int = 0
    max_candidates: int = 4
    max_messages: int = 4

    def __post_init__(self) -> None:
        if self.window_frames < 1 or self.agree_frames < 1 or self.agree_seconds < 0:
            raise ConfigError("window_frames and agree_frames must be at least 1, agree_seconds at least 0")
        if self.commit_margin <= 0 or self.mismatch_log_odds <= 0:
            raise ConfigError("commit_margin and mismatch_log_odds must be positive")
        if not self.commit_margin <= self.habit_margin <= self.drop_kind_margin:
            raise ConfigError(
                f"commit_margin ({self.commit_margin}) <= habit_margin ({self.habit_margin}) <= drop_kind_margin "
                f"({self.drop_kind_margin}) is required"
            )
        if self.prune_margin < self.commit_margin:
            raise ConfigError(f"prune_margin ({self.prune_margin}) must be >= commit_margin ({self.commit_margin})")
        probabilities = (self.unclear_probability, self.covered_probability, self.hands_min_confidence)
        if not (0.0 < probabilities[0] < 1.0 and 0.0 <= probabilities[1] < 1.0 and 0.0 <= probabilities[2] <= 1.0):
            raise ConfigError(
                "unclear_probability must be in (0, 1), covered_probability in [0, 1), hands_min_confidence in [0, 1]"
            )
        penalties = (self.pair_penalty, self.takeback_penalty, self.replace_penalty, self.unseen_promotion_margin)
        if min(*penalties, self.hand_weight) < 0:
            raise ConfigError("penalties, unseen_promotion_margin and hand_weight must not be negative")
        if any(kind not in ("P", "L", "N", "S", "B", "R") or cost < 0 for kind, cost in self.decline_cost.items()):
            raise ConfigError(f"decline_cost: kinds P L N S B R, costs >= 0 (got {dict(self.decline_cost)})")
        if min(self.settle_seconds, self.stand_wait_seconds, self.hidden_seconds, self.doubt_seconds) < 0:
            raise ConfigError("settle_seconds, stand_wait_seconds, hidden_seconds and doubt_seconds must be >= 0")
        if not 0.0 < self.probability_floor < 0.1:
            raise ConfigError(f"probability_floor must be in (0, 0.1), got {self.probability_floor}")
        if self.stand_trust_frames < 1:
            raise ConfigError(f"stand_trust_frames must be at least 1, got {self.stand_trust_frames}")
        if self.max_takeback_plies < 0 or self.max_candidates < 2 or self.max_messages < 1:
            raise ConfigError("max_takeback_plies >= 0, max_candidates >= 2 and max_messages >= 1 are required")
