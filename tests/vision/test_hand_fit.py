"""The pieces in hand complete the set (`vision.hand_fit`): stand windows and board squares fitted to what a set
holds, a short kind filled up on the stand that holds it."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from vision.hand_fit import OPTIONS, StandPieces, _assignment, fit_whole_set
from vision.labels import EMPTY, SQUARE_LABELS, labels_from_board_field

START = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL"


def _window(**probs: float) -> list[float]:
    """One window's probabilities over OPTIONS (the rest shared out evenly)."""
    row = np.full(len(OPTIONS), (1.0 - sum(probs.values())) / (len(OPTIONS) - len(probs)))
    for kind, p in probs.items():
        row[OPTIONS.index(kind)] = p
    return list(row)


def _stand(*windows: list[float]) -> StandPieces:
    return StandPieces(np.array(windows, dtype=np.float64).reshape(-1, len(OPTIONS)))


def _board(without: str) -> list[str]:
    """The start position's labels less the pieces named (sente's letters first found, then gote's)."""
    labels = labels_from_board_field(START)
    for letter in without:
        labels[labels.index(letter)] = EMPTY
    return labels


def _probs(labels: list[str], sure: float = 0.97) -> np.ndarray:
    """Board probabilities: each square's label at `sure`, the rest shared out."""
    probs = np.full((81, len(SQUARE_LABELS)), (1.0 - sure) / (len(SQUARE_LABELS) - 1))
    probs[np.arange(81), [SQUARE_LABELS.index(label) for label in labels]] = sure
    return probs


def _complete(stands: dict[str, StandPieces], labels: list[str]) -> dict[str, dict[str, int]]:
    return fit_whole_set(stands, _probs(labels), labels).hands


def test_assignment_is_the_least_cost_one() -> None:
    """On random small problems the assignment costs what the best of all assignments (brute force) costs."""
    rng = np.random.default_rng(0)
    for _ in range(200):
        rows = int(rng.integers(1, 5))
        cost = rng.random((rows, int(rng.integers(rows, 7)))) * 10
        got = _assignment(cost)
        assert len(set(got.tolist())) == rows
        best = min(sum(cost[i, p[i]] for i in range(rows)) for p in itertools.permutations(range(cost.shape[1]), rows))
        assert sum(cost[i, got[i]] for i in range(rows)) == pytest.approx(best)


def test_a_kind_with_no_room_goes_to_the_next_likeliest() -> None:
    """Every lance is on the board and one sente pawn is not: the stand window read as a lance (0.6, a pawn at
    0.35) is the pawn."""
    stands = {"b": _stand(_window(L=0.6, P=0.35)), "w": _stand()}
    assert stands["b"].counts == {"L": 1}
    assert _complete(stands, _board("P")) == {"b": {"P": 1}, "w": {}}


def test_an_unsure_board_square_makes_room_for_a_sure_stand_piece() -> None:
    """Gote's bishop is in sente's hand, read surely there; on the board a sente pawn is read as a bishop at 0.5
    (a pawn at 0.45). Three bishops are one too many: the unsure square gives way and reads as the pawn it is, and
    the pawns are all there, so none is added to gote's stand, which shows one pawn window."""
    labels = _board("bp")
    probs = _probs(labels)
    square = labels.index("P")
    labels[square] = "B"
    probs[square] = 0.05 / (len(SQUARE_LABELS) - 2)
    probs[square, SQUARE_LABELS.index("B")], probs[square, SQUARE_LABELS.index("P")] = 0.5, 0.45
    stands = {"b": _stand(_window(B=0.95)), "w": _stand(_window(P=0.9))}
    whole = fit_whole_set(stands, probs, labels)
    assert whole.hands == {"b": {"B": 1}, "w": {"P": 1}}
    assert whole.moved == (square,) and whole.labels[square] == "P"


def test_a_crowded_row_is_filled_up_on_its_own_stand() -> None:
    """The board leaves 17 pawns and a gold; sente's stand shows three pawn windows (a crowded row), gote's a gold:
    sente holds 17 pawns, gote the gold."""
    stands = {"b": _stand(*[_window(P=0.9)] * 3), "w": _stand(_window(G=0.8))}
    assert _complete(stands, _board("PPPPPPPPPppppppppG")) == {"b": {"P": 17}, "w": {"G": 1}}


def test_a_short_kind_held_by_both_is_shared_and_one_held_by_none_is_left() -> None:
    """Both stands hold pawns and four are missing: two more each (an odd one to the stand holding more). A knight
    the board leaves over that neither stand shows stays unseen (it may be off the stands)."""
    stands = {"b": _stand(*[_window(P=0.9)] * 2), "w": _stand(*[_window(P=0.9)] * 4)}
    assert _complete(stands, _board("PPPPppppppN")) == {"b": {"P": 4}, "w": {"P": 6}}
    stands = {"b": _stand(_window(P=0.9)), "w": _stand(*[_window(P=0.9)] * 3)}
    assert _complete(stands, _board("PPPPPppppp")) == {"b": {"P": 4}, "w": {"P": 6}}


def test_no_fit_leaves_the_stands_as_read() -> None:
    """A board read with 41 pieces fits no set: each stand keeps its own count."""
    labels = labels_from_board_field(START)
    labels[labels.index(EMPTY)] = "P"
    stands = {"b": _stand(_window(L=0.9), _window(P=0.9)), "w": _stand()}
    assert _complete(stands, labels) == {"b": {"L": 1, "P": 1}, "w": {}}


def test_one_stand_is_fitted_but_not_filled_up() -> None:
    """Only sente's stand is read: a window read as a lance where every lance is on the board is the pawn it next
    looks like, but the pawns the board leaves over are not added (gote's unseen stand may hold them)."""
    stands = {"b": _stand(_window(L=0.6, P=0.35), *[_window(P=0.9)] * 2)}
    assert _complete(stands, _board("PPPPPPPPPppppppppG")) == {"b": {"P": 3}}
