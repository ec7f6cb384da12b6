"""The classifier's second look: doubtful crops are read again turned by 180 degrees and the readings combined."""

from __future__ import annotations

import numpy as np

from vision.classifier import MAX_SECOND_LOOKS, OWNER_SWAP, PieceClassifier, combine, doubtful_crops
from vision.labels import PIECE_LABELS


def _rows(*tops: tuple[int, float]) -> np.ndarray:
    """Softmax-like rows over the 31 classes with the given top class and probability (rest spread evenly)."""
    rows = np.zeros((len(tops), 31))
    for i, (cls, p) in enumerate(tops):
        rows[i] = (1 - p) / 30
        rows[i, cls] = p
    return rows


def test_doubtful_crops_are_the_split_owner_or_unclear_ones_most_doubtful_first() -> None:
    """A confident crop gets no second look; a crop split between owners or with no clear label does, the
    least certain first."""
    full = _rows((0, 0.999), (3, 0.8), (28, 0.999), (5, 0.9))
    split = full[0].copy()
    split[0], split[14] = 0.55, 0.44
    full = np.vstack([full, split])
    assert list(doubtful_crops(full)) == [4, 1, 3]


def test_second_looks_are_capped() -> None:
    """However many crops are in doubt, at most MAX_SECOND_LOOKS are read again."""
    full = _rows(*[(2, 0.5)] * (MAX_SECOND_LOOKS + 10))
    assert len(doubtful_crops(full)) == MAX_SECOND_LOOKS


def test_combine_agrees_with_two_agreeing_readings_and_settles_a_split_owner() -> None:
    """Combining keeps rows normalised; two readings that agree keep their answer, and a split owner is settled
    by the turned reading (mapped back with OWNER_SWAP)."""
    a = _rows((0, 0.5))
    a[0, 14] = 0.45
    a /= a.sum()
    turned = _rows((14, 0.95))[:, OWNER_SWAP]  # the turned crop reads as gote's K, i.e. sente's K here
    both = combine(a, turned)
    assert np.allclose(both.sum(axis=1), 1.0)
    assert int(both.argmax()) == 0 and both[0, 0] > 0.7 and both[0, 14] < 0.05


def test_second_look_changes_only_a_few_crops(classifier: PieceClassifier) -> None:
    """With the second look, at most MAX_SECOND_LOOKS crops of a frame read differently and the rest are the
    plain reading, identical; the kings still read as kings."""
    from vision.board import BoardGeometry
    from vision.render import RenderOptions, render_position
    from vision.squares import crops_from_frame

    frame = render_position("4k4/9/9/9/9/9/9/9/4K4 b - 1", RenderOptions(style="kanji_light", seed=3, size=(800, 600)))
    crops = crops_from_frame(frame.image, BoardGeometry(np.asarray(frame.board_corners_px, dtype=np.float64), 1.0))
    plain = PieceClassifier(second_look=False).predict(crops)
    looked = classifier.predict(crops)
    same = np.all(plain.probs == looked.probs, axis=1)
    assert (~same).sum() <= MAX_SECOND_LOOKS
    assert same.sum() >= 81 - MAX_SECOND_LOOKS
    assert PIECE_LABELS[int(looked.probs[76].argmax())] == "K"
    assert PIECE_LABELS[int(looked.probs[4].argmax())] == "k"
