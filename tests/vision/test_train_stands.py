"""Training windows cut from the stands (`vision.train.stands`): labels, limits, and the reader's own cut."""

from __future__ import annotations

import numpy as np

from vision.labels import EMPTY, SQUARE_LABELS
from vision.render.geometry import SQUARE_H_MM, SQUARE_W_MM
from vision.squares import CELL, CROP
from vision.train.stands import FAR_MM, NEAR_MM, SET_COUNT, frame_stand_crops, hands_field, random_hands, window_labels

REGION = np.array([[10.0, 4.0], [15.0, 4.0], [15.0, 9.0], [10.0, 9.0]])


def _px(mm: tuple[float, float]) -> tuple[int, int]:
    """Pixel of the rectified REGION stand at board millimetres `mm`."""
    grid = np.array(mm) / np.array([SQUARE_W_MM, SQUARE_H_MM])
    x, y = (grid - REGION[0]) * CELL
    return round(float(x)), round(float(y))


def test_window_on_a_piece_takes_its_kind_upright() -> None:
    """A window centred on a gote pawn is labelled sente's pawn (gote windows are turned upright)."""
    piece = np.array([400.0, 250.0])
    assert window_labels([_px((401.0, 251.0))], REGION, [("p", piece)]) == [SQUARE_LABELS.index("P")]


def test_window_far_from_pieces_is_empty_and_between_is_dropped() -> None:
    """Far from every piece: empty; between NEAR_MM and FAR_MM of one: no label (None)."""
    piece = np.array([400.0, 250.0])
    far = _px((400.0 + FAR_MM + 6.0, 250.0))
    between = _px((400.0 + (NEAR_MM + FAR_MM) / 2, 250.0))
    assert window_labels([far, between], REGION, [("G", piece)]) == [SQUARE_LABELS.index(EMPTY), None]


def test_random_hands_never_exceed_a_set() -> None:
    """Both sides together never hold more of a kind than a set has, and the SFEN field round-trips counts."""
    rng = np.random.default_rng(3)
    for _ in range(200):
        hands = random_hands(rng)
        for kind, most in SET_COUNT.items():
            assert hands.get(kind, 0) + hands.get(kind.lower(), 0) <= most
    assert hands_field({"P": 2, "b": 1}) == "2Pb"
    assert hands_field({}) == "-"


def test_frame_gives_labelled_windows() -> None:
    """A rendered frame with pieces in hand gives CROP-sized windows, most of them labelled with a piece kind."""
    crops, targets = frame_stand_crops(100, ["kanji_light"])
    assert crops.shape[1:] == (CROP, CROP, 3) and len(crops) == len(targets) > 0
    kinds = [SQUARE_LABELS[t] for t in targets]
    assert all(k == EMPTY or (k.isupper() and not k.startswith("+")) for k in kinds)
    assert sum(k != EMPTY for k in kinds) > len(kinds) / 2
