"""Reading and writing record files: the format and encoding from the extension, then the format's module.

Owns: `RecordFormat`, the extension table, and the four entry points `read_record`, `write_record`,
`parse_record` (text -> record) and `format_record` (record -> text).

| extension | format | encoding (read default / written) |
|---|---|---|
| .kif | KIF | Shift_JIS (UTF-8 if the file says so) / Shift_JIS, CRLF |
| .kifu | KIF | UTF-8 |
| .ki2 | KI2 | Shift_JIS (UTF-8 if the file says so) / Shift_JIS, CRLF |
| .ki2u | KI2 | UTF-8 |
| .csa | CSA | Shift_JIS unless `'CSA encoding=…` says otherwise / UTF-8 V3.0 |
| .jkf | JKF | UTF-8 |
| .usi | USI line | UTF-8 |
"""

from __future__ import annotations

import enum
from pathlib import Path

from controller.records.csa import format_csa, parse_csa
from controller.records.encoding import decode, encode
from controller.records.errors import RecordSyntaxError, UnknownFormatError
from controller.records.jkf import format_jkf, parse_jkf
from controller.records.ki2 import format_ki2, parse_ki2
from controller.records.kif import format_kif, parse_kif
from controller.records.usi import format_usi_record, parse_usi_record
from controller.rules.types import GameRecord


class RecordFormat(enum.StrEnum):
    """A record format with its text encoding; the value is the file extension without the dot."""

    KIF = "kif"
    KIFU = "kifu"
    KI2 = "ki2"
    KI2U = "ki2u"
    CSA = "csa"
    JKF = "jkf"
    USI = "usi"

    @property
    def read_encoding(self) -> str:
        """The encoding assumed when the file does not say."""
        return "cp932" if self in (RecordFormat.KIF, RecordFormat.KI2, RecordFormat.CSA) else "utf-8"

    @property
    def write_encoding(self) -> str:
        """The encoding files of this format are written in."""
        return "cp932" if self in (RecordFormat.KIF, RecordFormat.KI2) else "utf-8"


def format_of(path: str | Path) -> RecordFormat:
    """The format of a file name, by extension (case-insensitive)."""
    suffix = Path(path).suffix.lower().lstrip(".")
    try:
        return RecordFormat(suffix)
    except ValueError:
        known = ", ".join("." + f.value for f in RecordFormat)
        raise UnknownFormatError(f"{str(path)!r}: unknown record extension (known: {known})") from None


def parse_record(text: str, fmt: RecordFormat | str) -> GameRecord:
    """Parse decoded record text of format `fmt` (a `RecordFormat` or its extension, e.g. `"kif"`)."""
    fmt = RecordFormat(fmt)
    if not text.removeprefix("\ufeff").strip():
        raise RecordSyntaxError("the record is empty", line=1)
    if fmt in (RecordFormat.KIF, RecordFormat.KIFU):
        return parse_kif(text)
    if fmt in (RecordFormat.KI2, RecordFormat.KI2U):
        return parse_ki2(text)
    if fmt is RecordFormat.CSA:
        return parse_csa(text)
    if fmt is RecordFormat.JKF:
        return parse_jkf(text)
    return parse_usi_record(text)


def format_record(record: GameRecord, fmt: RecordFormat | str) -> str:
    """The text of `record` in format `fmt` (LF line ends; `write_record` applies the file's line ends)."""
    fmt = RecordFormat(fmt)
    if fmt in (RecordFormat.KIF, RecordFormat.KIFU):
        return format_kif(record, utf8=fmt is RecordFormat.KIFU)
    if fmt in (RecordFormat.KI2, RecordFormat.KI2U):
        return format_ki2(record, utf8=fmt is RecordFormat.KI2U)
    if fmt is RecordFormat.CSA:
        return format_csa(record)
    if fmt is RecordFormat.JKF:
        return format_jkf(record)
    return format_usi_record(record)


def read_record(path: str | Path, encoding: str | None = None) -> GameRecord:
    """Read a record file; `encoding` overrides the format's encoding rules."""
    fmt = format_of(path)
    data = Path(path).read_bytes()
    return parse_record(decode(data, fmt.read_encoding, encoding), fmt)


def write_record(record: GameRecord, path: str | Path) -> None:
    """Write a record file in the format its extension names (nothing is written if formatting fails)."""
    fmt = format_of(path)
    text = format_record(record, fmt)
    if fmt.write_encoding == "cp932":
        text = text.replace("\n", "\r\n")
    Path(path).write_bytes(encode(text, fmt.write_encoding))
