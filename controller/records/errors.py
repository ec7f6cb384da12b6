"""Narrow exceptions of the records package. All subclass `RecordError(ValueError)`: they describe bad input.

Every error names where the problem is: `line` (1-based, in the text that was parsed) when the format has
lines, and `ply` for a move that cannot be played.
"""

from __future__ import annotations


class RecordError(ValueError):
    """Base class of every error reading or writing a game record.

    Attributes:
        line: the 1-based line number of the offending text, when known.
    """

    def __init__(self, message: str, *, line: int | None = None) -> None:
        prefix = f"line {line}: " if line is not None else ""
        super().__init__(prefix + message)
        self.line = line
        self.reason = message


class RecordSyntaxError(RecordError):
    """Text that is not what the format allows at that point (names what was expected)."""


class UnknownPieceError(RecordSyntaxError):
    """A piece name the format does not know."""


class RecordEncodingError(RecordError):
    """Bytes that do not decode in the record's encoding (or look like another encoding)."""


class IllegalRecordMoveError(RecordError):
    """A move of the record that cannot be played in its position.

    Attributes:
        ply: the 1-based ply number of the move.
    """

    def __init__(self, message: str, *, ply: int, line: int | None = None) -> None:
        super().__init__(f"move {ply}: {message}", line=line)
        self.ply = ply


class UnsupportedRecordError(RecordError):
    """Something the format allows but this package does not handle (said plainly, never skipped)."""


class UnknownFormatError(RecordError):
    """A file name whose extension is not a known record format."""
