"""Reading only the squares that changed (`vision.square_memo`, `BoardReader` with `reread_delta`)."""

from __future__ import annotations

import dataclasses
from typing import cast

import numpy as np
import pytest

from vision.classifier import PieceClassifier, Prediction
from vision.labels import EMPTY_INDEX, SQUARE_LABELS, square_index
from vision.orientation import sente_direction
from vision.reader import BoardReader, ReaderSettings
from vision.render import RenderOptions, render_scene
from vision.render.scene import Scene, scene_from_sfen
from vision.square_memo import DELTA, LOOKS, SquareMemo, signatures

START = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
P7G, P7F = square_index(7, 7), square_index(7, 6)
OPTIONS = RenderOptions(style="kanji_light", seed=5, size=(800, 600))


def _camera_frame(image: np.ndarray, seed: int) -> np.ndarray:
    """The rendered picture as a camera takes it again: its own brightness drift and sensor noise."""
    rng = np.random.default_rng(seed)
    frame = image.astype(np.float32) * (1.0 + rng.normal(0.0, 0.01)) + rng.normal(0.0, 1.5, image.shape)
    return np.clip(frame, 0, 255).astype(np.uint8)


def _pawn_pushed(scene: Scene) -> Scene:
    """The scene after 7g7f (the pawn keeps its offset and turn; every other piece stays exactly where it was)."""
    pieces = tuple(dataclasses.replace(p, square=P7F) if p.square == P7G else p for p in scene.pieces)
    return dataclasses.replace(scene, pieces=pieces)


@pytest.fixture(scope="module")
def frames() -> tuple[np.ndarray, np.ndarray, str | float]:
    """The start position and the position after 7g7f under the same camera, and sente's side in the picture."""
    scene = scene_from_sfen(START, np.random.default_rng(3))
    start = render_scene(scene, OPTIONS)
    pushed = render_scene(_pawn_pushed(scene), OPTIONS)
    return start.image, pushed.image, sente_direction(start.board_corners_px)


def test_signatures_ignore_exposure() -> None:
    """A crop 20 % brighter with 10 grey levels more has about the same signature (a third of the threshold at
    most: the signature, as the classifier, centres and scales each crop)."""
    rng = np.random.default_rng(0)
    crops = rng.integers(40, 160, (3, 48, 48, 3)).astype(np.uint8)
    brighter = np.clip(crops.astype(np.float32) * 1.2 + 10, 0, 255).astype(np.uint8)
    assert np.abs(signatures(brighter) - signatures(crops)).max() < DELTA / 3


def test_memo_flags_a_changed_crop_and_not_noise() -> None:
    """Of three remembered crops, one redrawn is flagged; a little noise on the others is not."""
    rng = np.random.default_rng(1)
    crops = rng.integers(40, 160, (3, 48, 48, 3)).astype(np.uint8)
    memo = SquareMemo()
    everything = np.ones(3, dtype=bool)
    memo.remember(
        crops, everything, Prediction(np.eye(3), np.zeros(3), np.zeros(3), np.zeros((3, 2), np.float32)), np.eye(3)
    )
    later = np.clip(crops + rng.normal(0.0, 2.0, crops.shape), 0, 255).astype(np.uint8)
    later[1] = rng.integers(40, 160, (48, 48, 3))
    assert memo.changed(later).tolist() == [False, True, False] and memo.reread == 1


def test_doubted_squares_are_read_again() -> None:
    """A square the reader could not vouch for is classified again on the next frame, its picture unchanged."""
    rng = np.random.default_rng(2)
    crops = rng.integers(40, 160, (3, 48, 48, 3)).astype(np.uint8)
    memo = SquareMemo()
    reading = Prediction(np.eye(3), np.zeros(3), np.zeros(3), np.zeros((3, 2), np.float32))
    memo.remember(crops, np.ones(3, dtype=bool), reading, np.eye(3))
    memo.doubt(np.array([False, False, True]))
    assert memo.changed(crops).tolist() == [False, False, True]


def _doubting_memo(crops: np.ndarray) -> SquareMemo:
    """A memo that has read `crops` once and doubts the last of them."""
    memo = SquareMemo()
    reading = Prediction(np.eye(3), np.zeros(3), np.zeros(3), np.zeros((3, 2), np.float32))
    memo.remember(crops, np.ones(3, dtype=bool), reading, np.eye(3))
    memo.doubt(np.array([False, False, True]))
    return memo


def _read_again(memo: SquareMemo, crops: np.ndarray) -> list[bool]:
    """One more frame, as the reader takes it: the squares the memo has classified again (and stored; nothing
    when no square is owed a read), the last one still doubted."""
    changed = memo.changed(crops)
    n = int(changed.sum())
    if n:
        reading = Prediction(np.eye(3)[:n], np.zeros(n), np.zeros(n), np.zeros((n, 2), np.float32))
        memo.remember(crops, changed, reading, np.eye(3)[:n])
    memo.doubt(np.array([False, False, True]))
    return [bool(c) for c in changed]


def test_a_doubted_unchanged_picture_gets_its_looks_then_is_kept() -> None:
    """A doubted square whose picture stays the same is read LOOKS times in all, then its verdict is kept."""
    crops = np.random.default_rng(3).integers(40, 160, (3, 48, 48, 3)).astype(np.uint8)
    memo = _doubting_memo(crops)
    rereads = [_read_again(memo, crops) for _ in range(LOOKS + 1)]
    assert rereads[: LOOKS - 1] == [[False, False, True]] * (LOOKS - 1)
    assert rereads[LOOKS - 1 :] == [[False, False, False]] * 2


def test_a_kept_doubt_is_read_again_when_its_picture_changes_or_is_relit() -> None:
    """A kept doubtful verdict is read again when its picture changes, and when only its brightness does (the
    signature ignores exposure: a shadow leaving the square); a relit square the reader vouched for is not."""
    rng = np.random.default_rng(4)
    crops = rng.integers(40, 160, (3, 48, 48, 3)).astype(np.uint8)
    memo = _doubting_memo(crops)
    for _ in range(LOOKS):
        _read_again(memo, crops)
    assert _read_again(memo, crops) == [False, False, False]
    darker = (crops * 0.6).astype(np.uint8)
    assert _read_again(memo, darker) == [False, False, True]
    assert _read_again(memo, darker) == [False, False, True]  # a new picture: its own looks
    assert _read_again(memo, darker) == [False, False, False]
    redrawn = darker.copy()
    redrawn[2] = rng.integers(40, 160, (48, 48, 3))
    assert _read_again(memo, redrawn) == [False, False, True]


class _UnsureClassifier:
    """Reads every crop as empty at 0.5: no square can be vouched for."""

    def predict(self, crops: np.ndarray, *, features: bool = True, skip_sure_empty: bool = False) -> Prediction:
        n = len(crops)
        probs = np.full((n, len(SQUARE_LABELS)), 0.5 / (len(SQUARE_LABELS) - 1))
        probs[:, EMPTY_INDEX] = 0.5
        return Prediction(probs, np.zeros(n), np.zeros(n), np.zeros((n, 2), np.float32))


def test_unreliable_squares_are_read_on_every_frame(frames: tuple[np.ndarray, np.ndarray, str | float]) -> None:
    """Squares the reader flagged are classified on the next frame too, though nothing moved."""
    start, _, side = frames
    reader = BoardReader(cast(PieceClassifier, _UnsureClassifier()), ReaderSettings(sente_side=side, stands=None))
    assert not reader.read(_camera_frame(start, 8)).reliable
    reader.read(_camera_frame(start, 9))
    assert reader.reread == 81


def test_memo_must_first_read_every_square() -> None:
    """A memo with nothing remembered cannot take a partial reading."""
    crops = np.zeros((3, 48, 48, 3), dtype=np.uint8)
    some = np.array([True, False, False])
    with pytest.raises(ValueError, match="every square"):
        SquareMemo().remember(
            crops, some, Prediction(np.eye(1), np.zeros(1), np.zeros(1), np.zeros((1, 2), np.float32)), np.eye(1)
        )
    with pytest.raises(ValueError, match="delta"):
        SquareMemo(delta=0.0)
    with pytest.raises(ValueError, match="looks"):
        SquareMemo(looks=0)


def test_a_move_rereads_only_its_squares(
    classifier: PieceClassifier, frames: tuple[np.ndarray, np.ndarray, str | float]
) -> None:
    """After 7g7f only a few squares are classified again, the pawn's two among them, and the read is the one a
    reader classifying all 81 squares gives."""
    start, pushed, side = frames
    reader = BoardReader(classifier, ReaderSettings(sente_side=side))
    first = reader.read(_camera_frame(start, 1))
    assert reader.reread == 81
    memo_read = reader.read(_camera_frame(pushed, 2))
    assert 2 <= reader.reread - len(first.unreliable) <= 6  # the squares it could not vouch for are read again
    whole = BoardReader(classifier, ReaderSettings(sente_side=side, reread_delta=None))
    whole_read = whole.read(_camera_frame(pushed, 2))
    assert whole.reread == 81
    assert memo_read.labels == whole_read.labels
    assert memo_read.labels[P7F] == "P" and memo_read.labels[P7G] == "empty"
    assert memo_read.probs is not None and whole_read.probs is not None
    for square in (P7G, P7F):
        assert np.allclose(memo_read.probs[square], whole_read.probs[square], atol=0.02)


def test_still_frames_reread_nothing(
    classifier: PieceClassifier, frames: tuple[np.ndarray, np.ndarray, str | float]
) -> None:
    """The same scene taken again (new noise and brightness) classifies only the squares the first read could not
    vouch for, and the reading is the same."""
    start, _, side = frames
    reader = BoardReader(classifier, ReaderSettings(sente_side=side))
    first = reader.read(_camera_frame(start, 3))
    again = reader.read(_camera_frame(start, 4))
    assert reader.reread == len(first.unreliable) < 5 and again.labels == first.labels


def test_new_calibration_or_reset_rereads_everything(
    classifier: PieceClassifier, frames: tuple[np.ndarray, np.ndarray, str | float]
) -> None:
    """A calibration swapped in, or the grid forgotten, makes the next read classify all 81 squares."""
    start, _, side = frames
    reader = BoardReader(classifier, ReaderSettings(sente_side=side))
    reader.read(_camera_frame(start, 5))
    reader.use_calibration(None)
    reader.read(_camera_frame(start, 6))
    assert reader.reread == 81
    reader.reset()
    reader.read(_camera_frame(start, 7))
    assert reader.reread == 81


def test_default_delta_is_the_memo_default() -> None:
    """The reader's default is the memo's documented threshold."""
    assert ReaderSettings().reread_delta == DELTA
