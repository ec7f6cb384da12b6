"""KIFU and CSA files of the game in progress, rewritten after every journal entry.

Owns: keeping `<base>.kifu` and `<base>.csa` (or the formats asked for) up to date as the game goes, each
replaced atomically (write a temporary file with the same extension through `controller.records.io.write_record`,
fsync it, rename it over the old one, fsync the directory), so that a crash leaves the previous complete record,
never a half-written one. The formats themselves belong to `controller.records`.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path

from controller.game.errors import JournalError
from controller.records.io import write_record
from controller.rules.types import GameRecord

RecordWriter = Callable[[GameRecord, Path], None]
"""`write_record(record, path)`: write `record` in the format `path`'s extension names."""

DEFAULT_FORMATS: tuple[str, ...] = ("kifu", "csa")
"""UTF-8 KIF and CSA V3.0 (`kif` gives Shift_JIS KIF for older programs)."""


class LiveRecords:
    """The record files of one game, rewritten whole after each change."""

    def __init__(
        self, base: Path, formats: Sequence[str] = DEFAULT_FORMATS, writer: RecordWriter = write_record
    ) -> None:
        self.base = base
        self.formats = tuple(formats)
        self._writer = writer

    def paths(self) -> list[Path]:
        """The files written, one per format."""
        return [self.base.with_name(f"{self.base.name}.{fmt}") for fmt in self.formats]

    def update(self, record: GameRecord) -> None:
        """Write every format of `record`, each atomically."""
        for path in self.paths():
            write_atomic(path, record, self._writer)


def write_atomic(path: Path, record: GameRecord, writer: RecordWriter = write_record) -> None:
    """Replace `path` with `record` so that a crash leaves either the old or the new file, complete.

    Raises:
        JournalError: when the file cannot be written (the old file is left as it was).
    """
    tmp = path.with_name(f".{path.stem}.tmp{path.suffix}")
    try:
        writer(record, tmp)
        fd = os.open(tmp, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        tmp.replace(path)
        directory = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(directory)
        finally:
            os.close(directory)
    except OSError as exc:
        raise JournalError(f"{path}: cannot write the record: {exc}") from exc
