"""Game records: reading and writing KIF, KI2, CSA, JKF and USI files as `controller.rules.types.GameRecord`.

Owns: record formats (one module each), their encodings and the conversion between them. Every move read is
checked legal against cshogi's `legal_moves`; every error names the line (`RecordError.line`) and, for an
illegal move, the ply. Entry points are in `controller.records.io`.
Does not own: rules (`controller.rules`), the game loop, files' locations.
"""

from __future__ import annotations

from controller.records.errors import RecordError
from controller.records.io import RecordFormat, format_record, parse_record, read_record, write_record

__all__ = ["RecordError", "RecordFormat", "format_record", "parse_record", "read_record", "write_record"]
