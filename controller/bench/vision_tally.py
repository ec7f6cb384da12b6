"""What `shogi-robot bench vision` counts (`Tally`) and how one read is scored against the frame's truth: squares
and boards, owner and promotion, the set-up fit, vouched-for and flagged squares, hand counts; and the positions
and reader settings the benchmark's reads share (`random_position`, `scored_settings`).
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import cshogi


@dataclass
class Tally:
    """Running counts."""

    squares: int = 0
    squares_right: int = 0
    boards: int = 0
    boards_right: int = 0
    not_found: int = 0
    owner: int = 0
    owner_right: int = 0
    owner_empty: int = 0
    promoted: int = 0
    promoted_right: int = 0
    hand_entries: int = 0
    hand_right: int = 0
    set_hand_entries: int = 0
    set_hand_right: int = 0
    set_squares_right: int = 0
    """Hand counts, and board squares right, of the same frames read with `ReaderSettings.complete_set` (the
    whole set in play: `vision.hand_fit` may move board squares too)."""
    hands_unknown: int = 0
    stands_unknown: int = 0
    orient: int = 0
    orient_right: int = 0
    axis_right: int = 0
    flagged_clean: int = 0
    squares_flagged: int = 0
    flagged_right: int = 0
    """Squares of the clean frames the reader did not vouch for (`SquareRead.reliable` False), and how many of those
    it read right anyway: what the controller is left to settle from the rules."""
    occluded: int = 0
    occluded_claimed: int = 0
    false_reads: int = 0
    vouched_wrong: int = 0
    """Squares read wrong although the reader vouched for them (the clean frames', or a calibrated family's)."""
    fit_squares_right: int = 0
    fit_boards_right: int = 0
    fit_mended: int = 0
    fit_spoilt: int = 0
    """The clean reads fitted to the rules of a set-up (`controller.reconcile.setup_fit`, what `vision read` adds):
    squares and boards right after the fit, and the squares it turned from wrong to right and from right to
    wrong. The reader's own figures above are never the fitted ones."""
    read_ms: list[float] = field(default_factory=list)
    read_cpu_ms: list[float] = field(default_factory=list)
    read_classifier_ms: list[float] = field(default_factory=list)
    """CPU milliseconds of each timed full read spent in the piece classifier (`ClockedClassifier`)."""
    find_ms: list[float] = field(default_factory=list)
    frames_right: list[int] = field(default_factory=list)
    """Squares right of each board scored (`score_board`), for the figures' intervals over frames."""


def random_position(games: list[list[str]], rng: Any) -> str:
    """SFEN after a random prefix of a random game."""
    moves = games[int(rng.integers(len(games)))]
    board = cshogi.Board()
    for move in moves[: int(rng.integers(0, len(moves) + 1))]:
        board.push_usi(move)
    return str(board.sfen())


def score_board(tally: Tally, truth: list[str], got: list[str]) -> bool:
    """Add one board's squares to the tally; True when all 81 are right."""
    from vision.labels import EMPTY

    right = 0
    for t, g in zip(truth, got, strict=True):
        right += t == g
        if t != EMPTY:
            tally.owner += 1
            tally.owner_right += g != EMPTY and g.lstrip("+").isupper() == t.lstrip("+").isupper()
            tally.owner_empty += g == EMPTY
            tally.promoted += 1
            tally.promoted_right += g != EMPTY and g.startswith("+") == t.startswith("+")
    tally.squares += 81
    tally.squares_right += right
    tally.boards += 1
    tally.boards_right += right == 81
    tally.frames_right.append(right)
    return right == 81


INTERVAL_DRAWS = 2000
"""Resamplings of the frames behind an interval (`frame_interval`)."""


def frame_interval(values: Sequence[float], level: float = 0.95) -> tuple[float, float]:
    """A `level` interval of the mean of per-frame `values` (squares right of each frame, or 1 for a board wholly
    right), by resampling whole frames (a percentile bootstrap, seeded, so the same figures give the same
    interval): a frame's squares are not independent of each other (a grid found one line off is 60 squares
    wrong at once), so an interval over squares would be too narrow."""
    import numpy as np

    if not values:
        return (float("nan"), float("nan"))
    data = np.asarray(values, dtype=np.float64)
    draws = np.random.default_rng(0).integers(0, len(data), size=(INTERVAL_DRAWS, len(data)))
    means = data[draws].mean(axis=1)
    tail = 100 * (1 - level) / 2
    return float(np.percentile(means, tail)), float(np.percentile(means, 100 - tail))


def score_fit(tally: Tally, truth: list[str], read: Any) -> None:
    """Add a clean read fitted to the rules of a set-up (`controller.reconcile.setup_fit`) to the tally."""
    from controller.reconcile.setup_fit import fit_setup

    fitted = fit_setup(read.probs, read.labels).labels
    right = sum(t == f for t, f in zip(truth, fitted, strict=True))
    tally.fit_squares_right += right
    tally.fit_boards_right += right == 81
    for t, g, f in zip(truth, read.labels, fitted, strict=True):
        tally.fit_mended += g != t and f == t
        tally.fit_spoilt += g == t and f != t


def score_vouched(tally: Tally, truth: list[str], squares: Sequence[Any]) -> None:
    """Add the board's squares read wrong although vouched for (`SquareRead.reliable`) to the tally."""
    tally.vouched_wrong += sum(square.reliable and square.label != t for t, square in zip(truth, squares, strict=True))


def score_flagged(tally: Tally, truth: list[str], squares: Sequence[Any]) -> None:
    """Add a clean frame's squares: those not vouched for (and of them, the right ones), and the wrong ones vouched
    for (`score_vouched`)."""
    flagged = [square.label == t for t, square in zip(truth, squares, strict=True) if not square.reliable]
    tally.squares_flagged += len(flagged)
    tally.flagged_right += sum(flagged)
    score_vouched(tally, truth, squares)


def score_hands(
    tally: Tally, truth: dict[str, int], got: dict[str, dict[str, int]] | None, *, complete_set: bool = False
) -> None:
    """Compare the hand counts of each stand read (7 kinds per side; a side absent is an unknown stand); with
    `complete_set`, into the figures of reads made with the whole set in play (unknown stands not tallied again)."""
    from vision.labels import HAND_KINDS

    if got is None and not complete_set:
        tally.hands_unknown += 1
        tally.stands_unknown += 2
        return
    got = got or {}
    for side in ("b", "w"):
        if side not in got:
            tally.stands_unknown += not complete_set
            continue
        right = sum(got[side].get(k, 0) == truth.get(k if side == "b" else k.lower(), 0) for k in HAND_KINDS)
        if complete_set:
            tally.set_hand_entries += len(HAND_KINDS)
            tally.set_hand_right += right
        else:
            tally.hand_entries += len(HAND_KINDS)
            tally.hand_right += right


def scored_settings(args: argparse.Namespace, frame: Any) -> Any:
    """The reader settings of a scored read: sente's side given, every square classified (`reread_delta` None),
    the command line's reading options."""
    from vision.orientation import sente_direction
    from vision.reader import ReaderSettings

    return ReaderSettings(
        sente_side=sente_direction(frame.board_corners_px),
        owner_cue=args.owner_cue,
        occupancy_first=args.occupancy_first,
        reread_delta=None,
        shifted_looks=args.shifted_looks,
    )
