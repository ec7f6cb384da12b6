"""KIF and CSA files of the game in progress, rewritten after every journal entry.

Owns: keeping `<base>.kif` and `<base>.csa` up to date as the game goes, each replaced atomically (write a
temporary file, fsync, rename, fsync the directory), so a crash leaves the previous complete record, never a
half-written one. The formats themselves belong to `controller.records`; this module takes a formatter
(`format_record(record, fmt) -> text`). `records_formatter()` is the hook to `controller.records.io`: it raises
`RecordsUnavailableError` when that module is not installed rather than writing some other format.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Sequence
from pathlib import Path

from controller.game.errors import JournalError, RecordsUnavailableError
from controller.rules.types import GameRecord

RecordFormatter = Callable[[GameRecord, str], str]
"""`format_record(record, fmt)`: the record's text in format `fmt` (`kif`, `csa`)."""

DEFAULT_FORMATS: tuple[str, ...] = ("kif", "csa")


def records_formatter() -> RecordFormatter:
    """`controller.records.io.format_record`.

    Raises:
        RecordsUnavailableError: when `controller.records.io` (or its `format_record`) does not exist.
    """
    try:
        module = importlib.import_module("controller.records.io")
    except ModuleNotFoundError as exc:
        raise RecordsUnavailableError("controller.records.io is not available: cannot write KIF/CSA records") from exc
    formatter = getattr(module, "format_record", None)
    if not callable(formatter):
        raise RecordsUnavailableError("controller.records.io has no format_record(record, fmt)")
    fn: RecordFormatter = formatter
    return fn


class LiveRecords:
    """The record files of one game, rewritten whole after each change."""

    def __init__(self, base: Path, formatter: RecordFormatter, formats: Sequence[str] = DEFAULT_FORMATS) -> None:
        self.base = base
        self._formatter = formatter
        self.formats = tuple(formats)

    def paths(self) -> list[Path]:
        """The files written, one per format."""
        return [self.base.with_name(f"{self.base.name}.{fmt}") for fmt in self.formats]

    def update(self, record: GameRecord) -> None:
        """Write every format of `record` (atomically per file)."""
        for fmt, path in zip(self.formats, self.paths(), strict=True):
            write_atomic(path, self._formatter(record, fmt))


def write_atomic(path: Path, text: str) -> None:
    """Replace `path` with `text` so that a crash leaves either the old or the new file, complete."""
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        with tmp.open("w", encoding="utf-8", newline="") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        tmp.replace(path)
        fd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
    except OSError as exc:
        raise JournalError(f"{path}: cannot write the record: {exc}") from exc
