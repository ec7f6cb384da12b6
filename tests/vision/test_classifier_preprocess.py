"""The classifier's input normalisation (shared by training and inference)."""

from __future__ import annotations

import numpy as np

from vision.classifier import preprocess


def test_preprocess_centres_and_scales_each_crop_by_its_own_brightness() -> None:
    """Each crop becomes channels-first, minus its mean brightness, divided by (brightness spread + 12)."""
    crops = np.random.default_rng(0).integers(0, 256, (5, 48, 48, 3), dtype=np.uint8)
    x = crops.astype(np.float64)
    luma = x.mean(axis=3)
    want = (x - luma.mean(axis=(1, 2))[:, None, None, None]) / (luma.std(axis=(1, 2))[:, None, None, None] + 12.0)
    got = preprocess(crops)
    assert got.dtype == np.float32 and got.flags["C_CONTIGUOUS"]
    assert np.allclose(got, want.transpose(0, 3, 1, 2), atol=1e-4)


def test_preprocess_of_a_flat_crop_is_zero() -> None:
    """A crop of one colour (no contrast) comes out all zeros, not NaN."""
    got = preprocess(np.full((2, 48, 48, 3), 90, dtype=np.uint8))
    assert np.isfinite(got).all()
    assert np.abs(got).max() < 1e-3
