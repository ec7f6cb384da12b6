"""Shifted looks at the squares the reader is unsure of: each such square's crop is cut again a few pixels off its
place (`SHIFTS`), the copies classified, and the square's probabilities become the normalised geometric mean of
the readings (the first and the shifted ones). A piece set down off centre, or a stroke that falls badly on the
crop's pixels, is read wrongly from one cut more often than from five; a square read surely keeps its one reading,
so the cost is a few crops per unsure square. (The classifier's own second look, `vision.classifier`, turns a
doubtful crop by 180 degrees; each shifted cut gets it too.)

Chosen on development styles only (`vision.train.calib_eval`'s rigs: one-character faces of five fonts never
trained on, 30 frames of each family, true grid, all squares; the held-out styles decided nothing), % of squares:
| | one cut | 4 shifts of 3 px, every square | the same, squares under 0.9 only | under 0.99 only |
| generic, rig frames | 94.16 | 94.90 | 94.98 | 94.90 |
| generic, other poses | 93.95 | 94.90 | 94.90 | 94.90 |
| calibrated, rig frames | 98.52 | 99.22 | 99.22 | 99.22 |
| calibrated, other poses | 96.30 | 96.87 | 96.75 | 96.79 |
Shifts of 5 px, or 8 shifts (diagonals too), were no better. Squares under 0.9: 15 % of them (generic) and 4-6 %
(calibrated) on those frames. Then the whole reader (`calib_eval --n 6`, other frames and rigs; off -> on): dev
fonts, generic 92.747 -> 93.724 % (rig), 93.988 -> 95.330 % (other poses); calibrated 97.891 -> 99.074 % and
96.618 -> 97.370 %; training styles (13, n 4) generic 99.860 -> 99.860 % and 99.299 -> 99.467 %, calibrated
99.888 -> 99.860 % and 98.990 -> 99.327 %. Worse on one stress case: every promoted face on one board
(`tests/vision/test_reader_read.py`, seeds 1-12), simple_kanji 51 -> 62 squares wrong (all unsure ones: the
classifier nearly guesses its promoted faces), kanji_red_wood 34 -> 35.
Held-out styles, scored once after the choice (`bench vision --n 60 --calibrated-n 40`, off -> on): squares
97.553 -> 98.072 %, boards 24.6 -> 40.4 %, owner 100 %, promoted 99.949 % both, false reads 0/60 both; calibrated
98.632 -> 99.066 % (other poses), 99.660 -> 99.784 % (same rig). Cost: a full read's CPU median 24.9 -> 39.0 ms
(generic, on those unseen sets), a calibrated read's 39.5 -> 49.7 ms (both at load 3-6).

Other second opinions on the unsure squares, tried on 2026-11-27 and not kept (development only: 60 frames of the
`dev_eval` plain family, seed 77, crops cut at the true grid and read by the classifier alone; squares wrong
among all 81 of each frame, the four fonts other than the cursive one / the cursive `sousyo`; one cut: 62 / 144):
- more looks: 4 shifts of 3 px (shifting the crop itself) 48 / 147; with 2 turns of +-6 degrees 57 / 148; with
  2 scales (0.9, 1.1) 54 / 152; all three 55 / 152. Turned or scaled copies mislead more than they help;
- a second network: the geometric mean with the model this one was fine-tuned from (ba82dbe's) 60 / 139-143,
  with the first stride-2 model (ff79fa2's, weights 0.3-1) 74-84 / 140-144: earlier models add their own errors;
- a lower prior on the pawn (its log-probability lowered by 0.25-1) 60-61 / 143-146, by 1.5-2 64-69 / 164-181:
  the silvers, knights and rooks read as pawns are read so surely that no small shift of the prior moves them;
- the frame's own sure squares as examples (transductive: each unsure square given the kind of the nearest
  square read at 0.9 or more, by the classifier's features or by `vision.appearance` features, both turned to
  sente's view): of 205 wrong squares, the true kind was among the frame's sure reads only 36 times (the misread
  kinds are the rare ones, a frame's only silver or knight), and the nearest sure square had the true kind 18
  times (network features) or 8 (appearance) of 193. A set seen once gives no examples of its rare kinds.

Cheaper looks, tried on 2026-11-29 and not kept. The rule, fixed before any figure: development only (`dev_eval`,
40 frames each of plain2, plain, one at seed 77 and artwork at seed 313; the shipped reader 3098 / 3138 / 3070 /
3239 = 12545 squares right), a variant kept if its total is at most 4 below, no family more than 3 below, and at
most one more square wrong but vouched for in a family; the cheapest kept one then checked once on the held-out
styles (`bench vision --n 60 --calibrated-n 40`: squares at most 3 below 4813). Squares right:
- the shifted cuts read by the narrow network alone: 3049 / 3120 / 3056 / 3238 = 12463 (the wide network matters
  most on exactly these squares);
- two shifts, (3, 0) and (-3, 0): 3089 / 3145 / 3074 / 3239 = 12547 (plain2 9 below);
- `SHIFT_BELOW` 0.8: 3095 / 3139 / 3070 / 3239 = 12543, kept by the rule, 3.2 ms a full read cheaper (median of 40
  paired development frames);
- the shifted cuts without the classifier's turned second look: 3096 / 3138 / 3070 / 3239 = 12543, kept, 9.2 ms
  cheaper, so chosen; both together 12540, not kept. On the held-out styles it read 4809 squares right, one under
  the bar (boards 39 against 40, calibrated figures the same; full read CPU median 55.6 against 70.6 ms): not
  shipped.

Staged looks, tried on 2026-11-29 (session 36) and not kept, under a rule fixed before any figure: the shifts
(3, 0) and (-3, 0) first, the other two only for squares (and stand windows) whose mean of three readings is still
under 0.9 (or 0.97). With 0.9: 3099 / 3138 / 3070 / 3239 = 12546 squares right on the development frames above,
stand counts the same (1044 of 1120, `hands_eval --frames wide`, artwork and plain, seed 5); with 0.97 no cheaper.
But few unsure squares become sure from two shifts, so a full read was only 2.45 ms cheaper (median of 40 paired
development frames; mean 3.0), under the 3 ms the rule asked for a change.

Tried on 2026-12-01 and not kept: the cuts of all four shifts classified in one call (each shift's batch given its
own turned second looks, so the readings were the same to the bit on 20 frames, calibrated ones too) instead of a call
per shift, for fewer and fuller network chunks: no measurable gain (30 training-style frames, best of three reads
each, paired: per-frame ratio median 1.008; the narrow network costs 0.131 ms a crop alone and 0.113 ms in a batch of
16, so the small chunks cost little).

Owns: `shifted_looks`, `geometric_mean`, `SHIFTS`, `SHIFT_BELOW` (`vision.hands` reads a stand's unsure windows so
too).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numpy.typing import NDArray

from vision.board import Image
from vision.classifier import softmax
from vision.squares import square_crops

SHIFTS: tuple[tuple[int, int], ...] = ((3, 0), (-3, 0), (0, 3), (0, -3))
"""Offsets (x, y) in crop pixels of the extra cuts of an unsure square."""
SHIFT_BELOW = 0.9
"""Top probability under which a square is looked at again."""


def shifted_looks(
    board: Image,
    squares: NDArray[np.intp],
    probs: NDArray[np.float64],
    classify: Callable[[Image], NDArray[np.float64]],
) -> NDArray[np.float64]:
    """`probs` (one row per square of `squares`, SFEN-order indices into the rectified `board`) with the unsure
    rows replaced by the geometric mean of their readings from the crop and from `SHIFTS` (`classify`: crops to
    probabilities, as the first reading was made)."""
    unsure = np.flatnonzero(probs.max(axis=1) < SHIFT_BELOW)
    if not len(unsure):
        return probs
    chosen = squares[unsure]
    readings = [classify(square_crops(board, shift, chosen.tolist())) for shift in SHIFTS]
    out = probs.copy()
    out[unsure] = geometric_mean([probs[unsure], *readings])
    return out


def geometric_mean(readings: list[NDArray[np.float64]]) -> NDArray[np.float64]:
    """The normalised geometric mean of several readings (each N×labels) of the same N pictures."""
    return softmax(np.log(np.maximum(np.stack(readings), 1e-12)).mean(axis=0))
