"""Errors raised by the virtual camera (bad SFEN, unknown style, bad render options)."""

from __future__ import annotations

from vision.errors import VisionError


class RenderError(VisionError):
    """Base of the renderer's errors (a `VisionError`, hence a ValueError: the CLI reports it as exit 1)."""


class SceneError(RenderError):
    """A position (SFEN) or scene cannot be drawn: malformed, or pieces that do not exist."""


class StyleError(RenderError):
    """An unknown piece style, or a style whose sprites are missing."""
