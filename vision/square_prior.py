"""Where pieces stand in games: a prior on each square's labels, applied to the board's squares' probabilities.

A reader of handwriting uses what words are likely; a reader of a shogi board can use where pieces are likely. In
positions of games, the labels are far from evenly spread over the squares: lances and knights on and near their
back ranks, pawns on the third and seventh ranks, kings in their castles, promoted pieces mostly in the
opponent's camp. The classifier's probabilities already carry the labels' overall frequencies (it was trained on
rendered game positions), so the prior adds only where a label is likelier than it is on average: each square's
factor for a label is p(label | square) / p(label), from counts of self-play positions (`vision.train.square_prior`,
`vision/models/square_prior.json`: engine games, never the shared games the benchmark draws from), smoothed
towards 1 where a square saw a label rarely (`SMOOTHING` pseudo-counts of the label's overall share). The reader
multiplies each square's probabilities by its factors to the power `ReaderSettings.square_prior` (0: no prior)
and normalises again, so a square read surely keeps its reading and a near tie leans towards what games show.

Chosen on 2026-12-04 (session 48, rule fixed before any read with it: docs/experiments/s48/RULE3.txt), from 900
self-play games (116,427 plies). The power `SQUARE_PRIOR` on the development suite's usual frames (`dev_eval --n 40
--seed 77`, squares right, plain2 + plain + one): 0 -> 9303, 0.25 -> 9490, 0.5 -> 9579, 1.0 -> 9579 (a tie, broken
towards the milder prior). On fresh development frames (seeds 4805, 4806), 0 -> 0.5: plain2 3102 -> 3195, plain 3143
-> 3217, one 3118 -> 3203, artwork 3234 -> 3234 (of 3240 each), boards 84 -> 112 of 160, wrong but vouched for 1 ->
1; calibrated (`calib_eval --family plain2 --n 6 --seed 4807`) rig 2421 -> 2423, other poses 2396 -> 2410 of 2430.
Held-out, once (`bench vision --n 200 --seed 3305 --calibrated-n 40`): squares 99.216 -> 99.401 % (16073 -> 16103),
boards 140 -> 148, owner 100 % both, promoted 99.971 -> 99.942 %, false reads 0 both, calibrated other poses 99.537
-> 99.660 %, same rig 99.846 % both, other sets 99.599 -> 99.630 %. Its cost is where positions are not like games:
on random placements of a set's pieces (`plain`, 40 frames, seed 4808) 3093 -> 3068 squares right, wrong but
vouched for 3 -> 5; so `shogi-robot vision read --no-square-prior` reads a composed problem without it. The
multiplication costs about 0.01 ms a read.

Owns: `SQUARE_PRIOR`, `SMOOTHING`, `SquarePrior`, `with_square_prior`, `PRIOR_FILE`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from vision.errors import ModelError
from vision.labels import SQUARE_LABELS

PRIOR_FILE = Path(__file__).resolve().parent / "models" / "square_prior.json"
SQUARE_PRIOR = 0.5
"""The reader's default power of the factors (`ReaderSettings.square_prior`; 0: no prior)."""
SMOOTHING = 50.0
"""Pseudo-positions of a square's counts drawn to the label's overall share (a label seen at a square in far fewer
positions than this keeps a factor near 1 there)."""


class SquarePriorError(ModelError):
    """A square prior file that cannot be used."""


@dataclass(frozen=True)
class SquarePrior:
    """Per square (SFEN order) and label (`SQUARE_LABELS` order), how many positions showed it (weighted)."""

    counts: NDArray[np.float64]

    @classmethod
    def load(cls, path: Path = PRIOR_FILE) -> SquarePrior:
        """The prior in a file written by `vision.train.square_prior`; SquarePriorError if it is malformed."""
        try:
            data = json.loads(path.read_text())
            counts = np.array(data["counts"], dtype=np.float64)
            labels = tuple(data["labels"])
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise SquarePriorError(f"square prior {path}: unreadable ({exc})") from exc
        if labels != SQUARE_LABELS or counts.shape != (81, len(SQUARE_LABELS)) or (counts < 0).any():
            raise SquarePriorError(f"square prior {path}: malformed (shape {counts.shape}, labels {len(labels)})")
        return cls(counts)

    def factors(self) -> NDArray[np.float64]:
        """81×29: p(label | square) / p(label), each square's counts smoothed by `SMOOTHING` pseudo-positions."""
        overall = self.counts.sum(axis=0) / self.counts.sum()
        per_square = self.counts.sum(axis=1, keepdims=True)
        smoothed = (self.counts + SMOOTHING * overall) / (per_square + SMOOTHING)
        return np.asarray(smoothed / np.maximum(overall, 1e-12), dtype=np.float64)


@lru_cache(maxsize=1)
def shipped_factors() -> NDArray[np.float64]:
    """The shipped prior's factors (read once; a reader that uses the prior reads them when it is made, so a
    missing or malformed file stops it at start-up with a SquarePriorError)."""
    out = SquarePrior.load(PRIOR_FILE).factors()
    out.flags.writeable = False
    return out


def with_square_prior(
    probs: NDArray[np.float64], squares: NDArray[np.intp], weight: float, factors: NDArray[np.float64] | None = None
) -> NDArray[np.float64]:
    """N×29 probabilities of the board `squares` (SFEN indices) times their factors to the power `weight`, rows
    normalised again; weight 0 leaves them as they were. ValueError for a negative weight."""
    if weight < 0:
        raise ValueError(f"square prior weight must not be negative, not {weight}")
    if weight == 0 or len(probs) == 0:
        return probs
    table = shipped_factors() if factors is None else factors
    out = probs * table[squares] ** weight
    return np.asarray(out / np.maximum(out.sum(axis=1, keepdims=True), 1e-12), dtype=np.float64)
