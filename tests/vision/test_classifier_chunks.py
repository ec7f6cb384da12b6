"""The classifier runs every batch in chunks of fixed sizes (`vision.classifier.chunk_sizes`), each on a network
of its own: the chunks cover the batch exactly, and a crop reads the same whatever batch it comes in."""

from __future__ import annotations

import numpy as np

from vision.classifier import CHUNKS, PieceClassifier, chunk_sizes


def test_chunks_add_up_to_the_batch_from_the_fixed_sizes() -> None:
    """Every batch size from 0 to 300 is split into sizes of CHUNKS, largest first, that add up to it."""
    for n in range(301):
        sizes = chunk_sizes(n)
        assert sum(sizes) == n
        assert all(size in CHUNKS for size in sizes)
        assert sizes == sorted(sizes, reverse=True)
    assert chunk_sizes(81) == [16, 16, 16, 16, 16, 1]
    assert chunk_sizes(23) == [16, 4, 2, 1]


def test_a_crop_reads_the_same_alone_and_in_any_batch() -> None:
    """Noisy crops read in one batch of 81 (six chunks), in a batch of 7 and one by one give bit-identical
    probabilities and features. (Without second looks: which crops get one depends on the batch by design, at
    most MAX_SECOND_LOOKS of the most doubtful.)"""
    classifier = PieceClassifier(second_look=False)
    rng = np.random.default_rng(5)
    crops = rng.integers(0, 256, (81, 48, 48, 3), dtype=np.uint8)
    crops[:, 12:36, 12:36] //= 3  # a dark square in the middle, as a piece's ink might be
    whole = classifier.predict(crops)
    part = classifier.predict(crops[30:37])
    for offset, index in enumerate(range(30, 37)):
        alone = classifier.predict(crops[index : index + 1])
        for got in (alone, part):
            row = 0 if got is alone else offset
            assert np.array_equal(got.probs[row], whole.probs[index])
            assert np.array_equal(got.features[row], whole.features[index])
            assert got.unreadable[row] == whole.unreadable[index]
