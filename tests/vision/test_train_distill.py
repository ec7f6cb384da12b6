"""Distillation targets for training the piece classifier (`vision.train.distill`): the teacher's readings, turned
with their crops; the loss where PyTorch is installed (training only)."""

from __future__ import annotations

import numpy as np
import pytest

from vision.board import BoardGeometry
from vision.classifier import MODEL_PATH, OWNER_SWAP, PieceClassifier
from vision.render import RenderOptions, render_position
from vision.squares import crops_from_frame
from vision.train.distill import FLOOR, teacher_log_probs, turned_soft
from vision.train.synth import N_CLASSES, SIDEWAYS
from vision.train.train_classifier import batches

STARTPOS = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"


def _crops() -> np.ndarray:
    """The 81 crops of a rendered start position of a training style, cut at the true grid."""
    frame = render_position(STARTPOS, RenderOptions(seed=3, style="kanji_light", size=(960, 720), max_tilt_deg=30))
    return crops_from_frame(frame.image, BoardGeometry(frame.board_corners_px, 1.0))


def test_teacher_reading_is_the_classifiers_over_all_network_classes() -> None:
    """Each crop's teacher reading is a distribution over the 31 network classes whose square labels, renormalised,
    are the classifier's own reading of the crop (one look)."""
    crops = _crops()
    soft = teacher_log_probs(MODEL_PATH, crops, threads=1)
    assert soft.shape == (81, N_CLASSES)
    full = np.exp(soft.astype(np.float64))
    assert np.allclose(full.sum(axis=1), 1.0, atol=1e-4)
    reading = PieceClassifier(MODEL_PATH, second_look=False).predict(crops, features=False)
    labels = full[:, :-2] / full[:, :-2].sum(axis=1, keepdims=True)
    assert np.allclose(labels, reading.probs, atol=1e-4)
    assert (labels.argmax(axis=1) == reading.probs.argmax(axis=1)).all()


def test_turned_crops_take_their_teachers_reading_turned() -> None:
    """A crop turned by 180 degrees takes the teacher's reading with the owners swapped; one turned sideways is
    sure of `SIDEWAYS` alone; the others keep theirs."""
    rng = np.random.default_rng(0)
    soft = np.log(rng.dirichlet(np.ones(N_CLASSES), size=4)).astype(np.float32)
    turned = np.array([True, False, False, True])
    sideways = np.array([False, False, True, True])
    out = turned_soft(soft, turned, sideways)
    assert np.array_equal(out[0], soft[0][OWNER_SWAP]) and np.array_equal(out[1], soft[1])
    for row in (2, 3):
        assert out[row, SIDEWAYS] == 0.0 and np.allclose(np.delete(out[row], SIDEWAYS), np.log(FLOOR))


def test_batches_turn_the_teachers_readings_with_their_crops() -> None:
    """A batch's teacher rows belong to its crops: a crop shown turned by 180 degrees (its label swapped) has its
    reading swapped the same way."""
    rng = np.random.default_rng(1)
    x = rng.integers(0, 255, (64, 48, 48, 3), dtype=np.uint8)
    y = rng.integers(0, 28, 64).astype(np.int64)
    soft = np.log(np.eye(N_CLASSES, dtype=np.float32)[y] * (1 - 1e-6) + 1e-6 / N_CLASSES)
    seen = 0
    for _, targets, sb in batches(x, y.copy(), 16, np.random.default_rng(2), soft=soft):
        assert sb is not None
        assert (sb.argmax(axis=1) == targets).all()
        seen += len(targets)
    assert seen == 64


def test_distillation_loss_is_the_labels_loss_when_the_teacher_agrees() -> None:
    """With alpha 0 the loss is the labels' cross-entropy; a student equal to its teacher adds no divergence."""
    torch = pytest.importorskip("torch")
    from vision.train.distill import distill_loss

    logits = torch.tensor([[2.0, 0.5, -1.0], [0.1, 0.2, 3.0]])
    targets = torch.tensor([0, 2])
    hard = torch.nn.functional.cross_entropy(logits, targets)
    teacher = torch.log_softmax(logits, dim=1)
    assert torch.isclose(distill_loss(logits, targets, teacher, alpha=0.0, temperature=2.0, smoothing=0.0), hard)
    both = distill_loss(logits, targets, teacher, alpha=0.5, temperature=2.0, smoothing=0.0)
    assert torch.isclose(both, 0.5 * hard, atol=1e-6)
