"""Counting a piece stand again only when its picture changed (`vision.stand_memo`, `BoardReader`'s stands)."""

from __future__ import annotations

import numpy as np
import pytest

from vision.classifier import PieceClassifier
from vision.hand_fit import OPTIONS as HAND_OPTIONS
from vision.hand_fit import StandPieces
from vision.orientation import sente_direction
from vision.reader import BoardReader, ReaderSettings
from vision.render import RenderOptions, render_scene
from vision.render.scene import scene_from_sfen
from vision.square_memo import DELTA
from vision.stand_memo import RECALLED, StandMemo, picture_signature

BOARD = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL"
OPTIONS = RenderOptions(style="kanji_light", seed=5, size=(800, 600), stands_in_view=True)


def _pieces(counts: dict[str, int]) -> StandPieces:
    """A stand reading with these counts, every window sure of its kind."""
    rows = [HAND_OPTIONS.index(kind) for kind, n in counts.items() for _ in range(n)]
    return StandPieces(np.eye(len(HAND_OPTIONS))[rows].reshape(-1, len(HAND_OPTIONS)))


class _Counter:
    """A stand-reading function that says what it is told and counts its calls."""

    def __init__(self, *answers: dict[str, int] | None) -> None:
        self.answers, self.calls = list(answers), 0

    def __call__(self, _picture: np.ndarray) -> StandPieces | None:
        self.calls += 1
        answer = self.answers.pop(0)
        return None if answer is None else _pieces(answer)


def _counts(memo: StandMemo, side: str, picture: np.ndarray, read: _Counter) -> dict[str, int] | None:
    """The memo's reading of a stand picture, as counts."""
    pieces = memo.count(side, picture, read)
    return None if pieces is None else pieces.counts


def _picture(seed: int) -> np.ndarray:
    return np.random.default_rng(seed).integers(40, 160, (96, 160, 3)).astype(np.uint8)


def _noisy(picture: np.ndarray, seed: int) -> np.ndarray:
    """The picture taken again: its own brightness drift and sensor noise."""
    rng = np.random.default_rng(seed)
    frame = picture.astype(np.float32) * (1.0 + rng.normal(0.0, 0.01)) + rng.normal(0.0, 1.5, picture.shape)
    return np.clip(frame, 0, 255).astype(np.uint8)


def test_signature_ignores_exposure() -> None:
    """A stand picture 20 % brighter with 10 grey levels more keeps about the same signature."""
    picture = _picture(0)
    brighter = np.clip(picture.astype(np.float32) * 1.2 + 10, 0, 255).astype(np.uint8)
    assert np.abs(picture_signature(brighter) - picture_signature(picture)).max() < DELTA / 3


def test_a_count_is_kept_once_two_reads_agree() -> None:
    """The same picture (new noise each time) is counted twice; once both counts agree, later frames keep it."""
    picture, read = _picture(1), _Counter({"P": 2}, {"P": 2})
    memo = StandMemo()
    results = [_counts(memo, "b", _noisy(picture, k), read) for k in range(5)]
    assert results == [{"P": 2}] * 5
    assert read.calls == 2 and memo.counted == 2


def test_a_miscount_is_read_again_until_two_reads_agree() -> None:
    """Two different counts of the same picture: neither is kept; the stand is counted until two in a row agree."""
    picture, read = _picture(2), _Counter({"P": 2}, {"P": 3}, {"P": 3}, None)
    memo = StandMemo()
    results = [_counts(memo, "w", _noisy(picture, k), read) for k in range(4)]
    assert results == [{"P": 2}, {"P": 3}, {"P": 3}, {"P": 3}]
    assert read.calls == 3


def test_a_flickering_count_settles_when_it_comes_back() -> None:
    """Counts that flicker between two values agree at the third read (with the first), and that count is kept;
    counts that never come back (three values) keep the stand counted."""
    picture, read = _picture(6), _Counter({"P": 9}, {"P": 10}, {"P": 9}, None)
    memo = StandMemo()
    results = [_counts(memo, "b", _noisy(picture, k), read) for k in range(5)]
    assert results == [{"P": 9}, {"P": 10}, {"P": 9}, {"P": 9}, {"P": 9}] and read.calls == 3
    scattered = _Counter({"P": 4}, {"P": 5}, {"P": 6}, {"P": 7}, {"P": 8})
    assert [_counts(memo, "w", _noisy(picture, k), scattered) for k in range(5)][-1] == {"P": 8}
    assert scattered.calls == 5


def test_only_the_last_reads_are_recalled() -> None:
    """A count is compared with the picture's last `RECALLED` - 1 reads, not with every read since it began."""
    counts = [{"P": 1}, {"P": 2}, {"P": 3}, {"P": 4}, {"P": 1}, {"P": 5}]
    picture, read = _picture(7), _Counter(*counts)
    memo = StandMemo()
    assert [_counts(memo, "b", _noisy(picture, k), read) for k in range(6)] == counts
    assert RECALLED == 4 and read.calls == 6


def test_a_changed_picture_is_counted_again() -> None:
    """A piece set on the stand (a block of the picture redrawn) is counted again, and the other stand is not."""
    picture, read = _picture(3), _Counter({"P": 1}, {"P": 1}, {"P": 1, "G": 1}, {"S": 1}, {"S": 1})
    memo = StandMemo()
    for k in range(2):
        _counts(memo, "b", _noisy(picture, k), read)
    changed = picture.copy()
    changed[30:70, 60:100] = 20
    assert _counts(memo, "b", changed, read) == {"P": 1, "G": 1}
    assert read.calls == 3
    other = _picture(4)
    assert _counts(memo, "w", other, read) == {"S": 1} and _counts(memo, "w", other, read) == {"S": 1}
    assert _counts(memo, "w", other, read) == {"S": 1} and read.calls == 5


def test_an_unreadable_stand_is_never_kept() -> None:
    """A stand that could not be read (covered) is read again at every frame, whatever its picture does."""
    picture, read = _picture(5), _Counter(None, None, None)
    memo = StandMemo()
    assert [_counts(memo, "b", picture, read) for _ in range(3)] == [None, None, None]
    assert read.calls == 3
    with pytest.raises(ValueError, match="delta"):
        StandMemo(delta=0.0)


def _frame(hands: str, noise_seed: int) -> tuple[np.ndarray, str | float]:
    scene = scene_from_sfen(f"{BOARD} b {hands} 1", np.random.default_rng(3))
    frame = render_scene(scene, OPTIONS)
    return _noisy(frame.image, noise_seed), sente_direction(frame.board_corners_px)


def test_the_reader_counts_a_stand_only_when_it_changed(classifier: PieceClassifier) -> None:
    """Still frames: both stands are counted at the first two reads, then kept; a pawn added to gote's stand:
    that stand alone is counted again, and the hands are what a reader counting every frame reads."""
    image, side = _frame("2Pb2p", 1)
    reader = BoardReader(classifier, ReaderSettings(sente_side=side))
    first = reader.read(image)
    assert first.hands is not None and set(first.hands) == {"b", "w"}
    for seed in (2, 3, 4):
        assert reader.read(_frame("2Pb2p", seed)[0]).hands == first.hands
    assert reader.stands_counted == 4
    added, _ = _frame("2Pb3p", 5)
    after = reader.read(added)
    assert reader.stands_counted == 5
    whole = BoardReader(classifier, ReaderSettings(sente_side=side, reread_delta=None))
    whole.read(image)  # the same grid as the first reader's (a stand's count depends on it)
    assert after.hands is not None and after.hands["w"] == whole.read(added).hands["w"]
    assert whole.stands_counted is None
