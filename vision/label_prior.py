"""How rare promoted pieces are: a prior on the promoted faces, applied to the board's squares' probabilities.

The classifier learns much of what it knows from drawn crops in which each of the 28 piece labels is
equally likely (6 of each side's 14 are promoted faces: they must be read when they appear), but a position of a
real game holds few promoted pieces: over 5000 positions of the shared games (each a random prefix, as `bench
vision` draws them) 2.6 % of the pieces on the board are promoted (4386 of 171,053). A classifier's probabilities
are relative to the label frequencies it trained on; where the frequencies differ, Bayes' rule
multiplies each label's probability by the ratio of the two frequencies and normalises again (label shift). Here
one factor for every promoted label, `PROMOTED_PRIOR`, chosen on development styles (below); 1 leaves the
probabilities as they were. Squares the classifier reads surely as promoted stay promoted: a factor of 0.5 moves a
reading only where the two faces were near a tie. The reader applies it to the board's squares after the shifted
looks (`ReaderSettings.promoted_prior`), with or without a calibration; the stands count kinds, not faces.

Chosen on 2026-11-28 on development only (`vision.train.dev_eval`, the full reader, squares right and boards
all right, W = 1 / 0.7 / 0.5 / 0.35 / 0.2): two-character faces (`plain2 --n 40 --seed 77`) 2984 / 2994 / 2999 /
3009 / 3013 of 3240, boards 5 / 5 / 6 / 6 / 6; one-character faces (`plain --n 60 --seed 77`) 4671 / 4683 / 4689
/ 4691 / 4694 of 4860, boards 33 / 32 / 32 / 30 / 29; the varied looks (`one --n 40 --seed 77`) 3014 / 3025 /
3032 / 3042 / 3050, boards 9 / 9 / 9 / 10 / 10; the training artwork (`artwork --n 40 --seed 313`) 3236 at every
W, boards 38; under the sheen 3192 / 3192 / 3191 / 3191 / 3191, boards 24. The rule fixed before: the most squares
on the first three among the factors that lose no more than 0.1 point on the artwork and the sheen and no board
in all: 0.5 (smaller factors read more squares right but more boards with one promoted piece read unpromoted).
Pawns read as promoted pawns on the two-character faces: 30 -> 15. After a calibration (`calib_eval --family
plain --n 6`): 2428 / 2430 on the rig and 2411 / 2430 under other poses at both 1 and 0.5 (generic: 2339 -> 2366
and 2340 -> 2345).
Tried on 2026-11-28 and not kept: the same label shift for the unpromoted kinds, each kind's pieces' probability
multiplied by (its share of the pieces on the board in game positions / 1/8)^alpha (P 3.40, G 0.85, S 0.83, L 0.81,
N 0.78, K 0.47, R 0.35, B 0.31; promoted faces by their base kind's; the empty square's probability and the
non-empty mass kept), under a rule fixed before (ship only with 10 squares more over plain2 + plain + one).
Alpha 0 / 0.15: plain2 3008 / 3007, plain 4697 / 4691, one 3049 / 3042, artwork 3238 / 3238, sheen 3191 / 3188,
boards unchanged; alpha 0.3 and 0.5 on plain2: 3000 and 2995 (then stopped). The classifier's own prior already
leans towards the common kinds (much of its training was rendered frames of real game positions).

Owns: `PROMOTED_PRIOR`, `with_promoted_prior`.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from vision.labels import SQUARE_LABELS

PROMOTED_PRIOR = 0.5
"""Factor on the promoted labels' probabilities (1: none)."""
_PROMOTED = np.array([label.startswith("+") for label in SQUARE_LABELS])


def with_promoted_prior(probs: NDArray[np.float64], weight: float = PROMOTED_PRIOR) -> NDArray[np.float64]:
    """N×29 probabilities (SQUARE_LABELS order) with the promoted labels' multiplied by `weight`, rows
    normalised again. ValueError for a weight that is not positive."""
    if weight <= 0:
        raise ValueError(f"promoted prior must be positive, not {weight}")
    if weight == 1.0 or len(probs) == 0:
        return probs
    out = np.array(probs, dtype=np.float64, copy=True)
    out[:, _PROMOTED] *= weight
    return np.asarray(out / np.maximum(out.sum(axis=1, keepdims=True), 1e-12), dtype=np.float64)
