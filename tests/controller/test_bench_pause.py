"""`bench pause`: frames of a hand paused over the board, shown to a fresh reconciler, commit no false move.

Both moves below committed a false move before the reader hid every square its classifier calls unreadable and
the reconciler waited on squares read unsurely while others were hidden (2026-11-28): B*7i for 6i7i, 7h7i 7g7h
for 8i7g, each on the held-out style ryoko_1kanji. Each hand position is held still for a second (30 frames),
longer than `agree_seconds`."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.bench.pause_bench import PauseTally, Watch, pause_move
from controller.bench.rules_bench import load_games
from controller.reconcile import ReconcileConfig

GAMES = Path(__file__).resolve().parents[2] / ".." / "shared" / "data" / "games" / "lishogi-500.usi"


@pytest.mark.parametrize(("game", "ply", "seed"), [(270, 14, 1020), (433, 32, 1040)])
def test_a_paused_hand_commits_no_false_move(game: int, ply: int, seed: int) -> None:
    moves = load_games(GAMES, 500)[game]
    tally = PauseTally()
    pause_move(
        moves[:ply], moves[ply], style="ryoko_1kanji", seed=seed, watch=Watch(30, ReconcileConfig()), tally=tally
    )
    assert tally.moves == 1 and tally.frames >= 5
    assert tally.false_moves == 0


@pytest.mark.parametrize(("game", "ply", "seed"), [(462, 43, 3040), (425, 73, 3049)])
def test_fingers_over_the_rim_commit_no_false_move(game: int, ply: int, seed: int) -> None:
    """Training style orangain, hand positions held 4 frames, `agree_seconds` 0 (so that time keeps nothing out):
    5a4a for 5a4b (the king held over 4a) and 3i1i for 3i1i+ were committed from frames on which the fingers hid
    no square. With the rim strip compared with the confirmed position's, neither is; without it, each is."""
    moves = load_games(GAMES, 500)[game]
    with_rim, without = PauseTally(), PauseTally()
    for rim, tally in ((True, with_rim), (False, without)):
        watch = Watch(4, ReconcileConfig(agree_seconds=0.0), rim=rim)
        pause_move(moves[:ply], moves[ply], style="orangain", seed=seed, watch=watch, tally=tally)
    assert with_rim.false_moves == 0
    assert without.false_moves >= 1
