"""Shared fixtures for the vision tests: one classifier for the whole session (loading it takes a moment)."""

from __future__ import annotations

import pytest

from vision.classifier import PieceClassifier


@pytest.fixture(scope="session")
def classifier() -> PieceClassifier:
    """The shipped ONNX classifier."""
    return PieceClassifier()
