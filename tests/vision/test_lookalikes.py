"""Lookalike pieces read alike (`vision.lookalikes`): faces of one kind in one set are alike and unlike other
kinds' (stand-in pieces and a shipped artwork style); an unsure square's kinds move towards those of the squares
that look like it, for either owner; sure squares, the empty label and the owner stay as they were."""

from __future__ import annotations

import numpy as np
import pytest
from stand_in_faces import piece

from vision.classifier import PieceClassifier
from vision.labels import EMPTY, SQUARE_LABELS
from vision.lookalikes import (
    FIT_LIKENESS,
    LIKENESS_FROM,
    POOL_BELOW,
    FaceTable,
    fit_likeness,
    likeness,
    pool_lookalikes,
)
from vision.orientation import sente_direction
from vision.reader import BoardReader, ReaderSettings
from vision.render import RenderOptions, render_position
from vision.render.crops import render_piece_crop
from vision.set_counts import SET_SIZE, fit_to_set
from vision.set_faces import TURNS, best_fits
from vision.squares import CROP

POSITION = "ln1g1g1nl/1rs1k2s1/p1pppp1pp/1p4p2/7P1/2P6/PP1PPPP1P/1SG4R1/LN2KGSNL b Bb 1"


def _gote(crop: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(crop[::-1, ::-1])


def _probs(rows: list[dict[str, float]]) -> np.ndarray:
    """One row of probabilities per square, the rest of each row's mass on `empty`."""
    out = np.zeros((len(rows), len(SQUARE_LABELS)))
    for n, row in enumerate(rows):
        for label, p in row.items():
            out[n, SQUARE_LABELS.index(label)] = p
        out[n, SQUARE_LABELS.index(EMPTY)] += 1.0 - out[n].sum()
    return out


def test_stand_in_faces_of_one_kind_are_alike() -> None:
    """Moved, turned and relit copies of one character are alike; other characters are not."""
    crops = np.stack([piece("S"), piece("S", shift=(3, -2), turn=5.0, light=0.7), piece("N"), piece("G")])
    table = likeness(crops, np.arange(4))
    assert table[0, 1] >= LIKENESS_FROM
    assert table[:2, 2:].max() < LIKENESS_FROM
    assert np.isnan(table[0, 0])


def test_face_table_works_each_pair_out_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A frame's table answers overlapping questions (some squares against all, then all against all, a square
    as either owner) as a fresh table would, and works out each picture-face fit only once."""
    kinds = ["S", "S", "N", "G", "N", "S"]
    crops = np.stack([_gote(piece(k)) if n == 4 else piece(k, shift=(n % 3, 1)) for n, k in enumerate(kinds)])
    gote = np.array([False, False, False, False, True, False])
    squares = np.arange(len(kinds))
    fits: list[int] = []

    def counted(windows: tuple[np.ndarray, np.ndarray], faces: np.ndarray) -> np.ndarray:
        fits.append(len(windows[0]) * len(faces) // len(TURNS))
        return best_fits(windows, faces)

    monkeypatch.setattr("vision.lookalikes.best_fits", counted)
    table = FaceTable(crops)
    some = table.likeness(squares, gote, np.array([1, 4]))
    every = table.likeness(squares, gote, squares)
    assert sum(fits) == len(kinds) ** 2  # picture-face pairs, each once
    np.testing.assert_array_equal(some, FaceTable(crops).likeness(squares, gote, np.array([1, 4])))
    np.testing.assert_array_equal(every[[1, 4]], some)
    np.testing.assert_array_equal(every, every.T)
    upright = np.stack([_gote(crop) if turn else crop for crop, turn in zip(crops, gote, strict=True)])
    # The same fits, worked out in blocks of another shape: float32 products may differ in the last bit there (this
    # project's AMD EPYC machine: 2.4e-7 on 8 of 36 pairs; an Intel Xeon earlier: none).
    np.testing.assert_allclose(every, likeness(upright, squares), rtol=0, atol=1e-6)


@pytest.mark.parametrize("style", ["kanji_light", "simple_kanji"])
def test_rendered_faces_of_one_kind_are_alike(style: str) -> None:
    """A shipped style's silvers, each set down anew, are more alike to each other than to its knights and golds."""
    rng = np.random.default_rng(4)
    kinds = ["S", "S", "S", "N", "N", "G"]
    crops = np.stack([render_piece_crop(k, style, rng, CROP, neighbours=False, effects=0.3) for k in kinds])
    table = likeness(crops, np.arange(len(kinds)))
    same = [table[i, j] for i in range(3) for j in range(3) if i != j]
    other = [table[i, j] for i in range(3) for j in range(3, 6)]
    assert min(same) > max(other)


def test_unsure_square_borrows_from_lookalikes_for_either_owner() -> None:
    """Three silvers read surely among knights and golds; a fourth, gote's, read as a knight first, is read as a
    silver after; its owner and its empty share are unchanged, and the squares read surely are untouched."""
    silvers = [piece("S"), piece("S", shift=(2, 1)), piece("S", turn=-4.0)]
    others = [piece("N"), piece("N", shift=(-2, 0)), piece("G"), piece("G", turn=3.0)]
    crops = np.stack([*silvers, *others, _gote(piece("S", light=0.8))])
    sure = [{"S": 0.96}, {"S": 0.95}, {"S": 0.97}, {"N": 0.97}, {"N": 0.96}, {"G": 0.97}, {"G": 0.96}]
    probs = _probs([*sure, {"n": 0.5, "s": 0.3, "N": 0.05}])
    out = pool_lookalikes(probs, FaceTable(crops))
    s, n = SQUARE_LABELS.index("s"), SQUARE_LABELS.index("n")
    assert out[7, s] > out[7, n]
    assert out[7, SQUARE_LABELS.index("N")] == pytest.approx(0.05)
    assert out[7, SQUARE_LABELS.index(EMPTY)] == pytest.approx(probs[7, SQUARE_LABELS.index(EMPTY)])
    assert out[7].sum() == pytest.approx(1.0)
    np.testing.assert_array_equal(out[:7], probs[:7])


def test_no_square_lends_where_every_face_looks_alike() -> None:
    """Where each face is as like the others as the lookalikes are (a lamp's sheen washing out every character),
    nothing moves: a lender must stand out from the square's other likenesses."""
    crops = np.stack([piece("S"), piece("S", shift=(2, 1)), piece("S", turn=-4.0), _gote(piece("S", light=0.8))])
    probs = _probs([{"S": 0.96}, {"N": 0.95}, {"G": 0.97}, {"n": 0.5, "s": 0.3}])
    np.testing.assert_array_equal(pool_lookalikes(probs, FaceTable(crops)), probs)


def test_unlike_squares_and_empty_squares_lend_nothing() -> None:
    """An unsure silver among knights keeps its reading; an empty square neither lends nor borrows."""
    crops = np.stack([piece("N"), piece("N", shift=(1, 1)), piece("S"), piece("S")])
    probs = _probs([{"N": 0.97}, {"N": 0.96}, {"S": 0.5, "N": 0.3}, {"S": 0.02}])
    np.testing.assert_array_equal(pool_lookalikes(probs, FaceTable(crops)), probs)


def test_no_weight_changes_nothing() -> None:
    crops = np.stack([piece("S"), piece("S")])
    probs = _probs([{"S": 0.97}, {"N": 0.5, "S": 0.3}])
    np.testing.assert_array_equal(pool_lookalikes(probs, FaceTable(crops), weight=0.0), probs)


def test_reader_pools_unsure_squares_only_and_once_per_reading(
    classifier: PieceClassifier, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In the reader, squares read surely keep their reading and some unsure ones move; a frame whose readings are
    those of the frame before (a still frame) reuses that frame's pooling instead of pooling again. (A still frame
    settles within a few reads: its doubted squares are read again each frame, and one whose second look crosses
    the confidence bar is no longer among them, which can change the next frame's pooling once.)"""
    frame = render_position(POSITION, RenderOptions(style="ryoko_1kanji", seed=21, size=(800, 600)))
    side = sente_direction(frame.board_corners_px)
    plain = BoardReader(classifier, ReaderSettings(sente_side=side, stands=None, lookalikes=False)).read(frame.image)
    calls: list[int] = []

    def counted(probs: np.ndarray, faces: FaceTable) -> np.ndarray:
        calls.append(1)
        return pool_lookalikes(probs, faces)

    monkeypatch.setattr("vision.reader.pool_lookalikes", counted)
    reader = BoardReader(classifier, ReaderSettings(sente_side=side, stands=None))
    pooled = reader.read(frame.image)
    before, after = np.asarray(plain.probs), np.asarray(pooled.probs)
    sure = before.max(axis=1) >= POOL_BELOW
    np.testing.assert_array_equal(before[sure], after[sure])
    assert not np.allclose(before[~sure], after[~sure])
    reads = [np.asarray(pooled.probs)]
    while len(reads) < 5 and (len(reads) < 2 or not np.array_equal(reads[-1], reads[-2])):
        reads.append(np.asarray(reader.read(frame.image).probs))
    np.testing.assert_array_equal(reads[-1], reads[-2])  # settled
    pooled_so_far = len(calls)
    assert pooled_so_far <= len(reads) - 1  # the settled read reused the pooling of the read before it
    np.testing.assert_array_equal(np.asarray(reader.read(frame.image).probs), reads[-1])
    assert len(calls) == pooled_so_far  # and so does every later read of the still frame


def _fitted(probs: np.ndarray, crops: np.ndarray, weight: float) -> list[str]:
    """The set fit's labels, its log-probabilities raised by `fit_likeness` at `weight`."""
    likeliest = probs.argmax(axis=1)
    return [
        SQUARE_LABELS[int(j)] for j in fit_to_set(probs, likeliest, fit_likeness(likeliest, FaceTable(crops), weight))
    ]


def test_the_odd_one_out_of_an_over_full_kind_moves() -> None:
    """Five squares read as knights, one more than a set holds: one is a silver read surely as a knight, and a
    true knight is read less surely with silver second. By probabilities alone the true knight moves; weighed with
    likeness the silver, which looks like the two silvers and unlike the knights, moves instead."""
    knights = [piece("N"), piece("N", shift=(2, 1)), piece("N", turn=-4.0), piece("N", shift=(-1, 2))]
    silvers = [piece("S"), piece("S", shift=(1, -2))]
    crops = np.stack([*knights, *silvers, piece("S", shift=(-2, 1), turn=3.0), piece("G")])
    read = [{"N": 0.95}, {"N": 0.9}, {"N": 0.85}, {"N": 0.75, "S": 0.2}, {"S": 0.96}, {"S": 0.95}]
    probs = _probs([*read, {"N": 0.95, "S": 0.04}, {"G": 0.97}])
    assert _fitted(probs, crops, 0.0)[3] == "S"
    fitted = _fitted(probs, crops, FIT_LIKENESS)
    assert fitted[6] == "S"
    assert fitted[:4] == ["N"] * 4


def test_fit_likeness_of_faces_read_alike() -> None:
    """A face's labels are raised by its likeness to the other squares read with that face, for either owner,
    more than by faces it is unlike; an empty square gets nothing, nor does any square at weight 0."""
    silvers = [piece("S"), piece("S", shift=(2, 1)), _gote(piece("S", turn=-3.0))]
    crops = np.stack([*silvers, piece("N"), piece("G"), piece("N", shift=(1, 1)), piece("G")])
    names = ["S", "S", "s", "N", "G", "N", EMPTY]
    labels = np.array([SQUARE_LABELS.index(name) for name in names])
    terms = fit_likeness(labels, FaceTable(crops), 1.0)
    s, big_s, n = (SQUARE_LABELS.index(name) for name in ("s", "S", "N"))
    assert terms[2, s] == terms[2, big_s] > terms[2, n]
    assert terms[0, big_s] > terms[0, n]
    assert not terms[6].any()
    assert not fit_likeness(labels, FaceTable(crops), 0.0).any()


def test_no_fit_likeness_for_more_pieces_than_a_set_holds() -> None:
    """A read with more occupied squares than a set's 40 pieces gets no terms: changing kinds cannot make it fit.
    The same silvers and knights less one square get them."""
    kinds = ["S" if k % 2 else "N" for k in range(SET_SIZE + 1)]
    crops = np.stack([piece(kind, shift=(k % 3, k % 2)) for k, kind in enumerate(kinds)])
    labels = np.array([SQUARE_LABELS.index(kind) for kind in kinds])
    assert not fit_likeness(labels, FaceTable(crops), FIT_LIKENESS).any()
    terms = fit_likeness(labels[:SET_SIZE], FaceTable(crops[:SET_SIZE]), FIT_LIKENESS)
    assert terms[1, SQUARE_LABELS.index("S")] > terms[1, SQUARE_LABELS.index("N")]
