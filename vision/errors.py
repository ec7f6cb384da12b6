"""Errors raised by the vision package (the reader, the classifier, calibration)."""

from __future__ import annotations


class VisionError(ValueError):
    """Base of every error the reader reports (a ValueError, so the CLI reports it as exit 1)."""


class ImageError(VisionError):
    """An image could not be loaded or has an unusable shape."""


class ModelError(VisionError):
    """The classifier model, or another shipped model file (the square prior), is missing or malformed."""


class CalibrationError(VisionError):
    """A calibration could not be built, or a calibration file is malformed."""
