"""Bytes <-> text for record files: which encoding a file is in, and errors that name the line.

Owns: the encoding rules. `.kif`/`.ki2`/`.csa` default to Shift_JIS (read as cp932, Windows' superset), unless
a UTF-8 BOM, a `#KIF version=2.0 encoding=UTF-8` / `#KI2 …` line or a `'CSA encoding=UTF-8` line says UTF-8.
`.kifu`/`.ki2u`/`.jkf`/`.usi` are UTF-8. An explicit encoding overrides all of this. Nothing is guessed: bytes
that do not decode are an error, and so is a default-Shift_JIS file whose bytes are valid UTF-8 Japanese
(the classic mix-up), with a hint to rename it or pass the encoding.
"""

from __future__ import annotations

import codecs
import re

from controller.records.errors import RecordEncodingError

_DECLARED = re.compile(
    rb"^(?:\xef\xbb\xbf)?(?:#KIF|#KI2)[^\n]*encoding=([A-Za-z0-9_\-]+)|^'CSA encoding=([A-Za-z0-9_\-]+)"
)
_PRIVATE_USE = re.compile("[\ue000-\uf8ff]")
"""cp932 maps stray bytes (0xA0, 0xFD-0xFF) and user-defined codes here: never real record text."""
_ALIASES = {"shift_jis": "cp932", "shift-jis": "cp932", "sjis": "cp932", "utf-8": "utf-8", "utf8": "utf-8"}


def normalise_encoding(name: str) -> str:
    """A Python codec name for an encoding name as users and files write it."""
    key = name.strip().lower()
    codec = _ALIASES.get(key, key)
    try:
        codecs.lookup(codec)
    except LookupError:
        raise RecordEncodingError(f"unknown encoding {name!r}") from None
    return codec


def decode(data: bytes, default: str, override: str | None = None) -> str:
    """Decode a record file. `default` is the extension's encoding; `override` the user's choice."""
    if override is not None:
        return _strict(data, normalise_encoding(override))
    if data.startswith(codecs.BOM_UTF8):
        return _strict(data[3:], "utf-8")
    declared = _DECLARED.match(data)
    if declared is not None:
        return _strict(data, normalise_encoding((declared.group(1) or declared.group(2)).decode("ascii")))
    codec = normalise_encoding(default)
    if codec == "cp932" and _looks_like_utf8(data):
        line = data[: _first_non_ascii(data)].count(b"\n") + 1
        raise RecordEncodingError(
            "the file should be Shift_JIS but its bytes are UTF-8 text; use a UTF-8 extension (.kifu, .ki2u), "
            "add an encoding line, or pass --encoding utf-8",
            line=line,
        )
    return _strict(data, codec)


def encode(text: str, codec: str) -> bytes:
    """Encode for writing; a character the encoding cannot hold is an error naming its line."""
    try:
        return text.encode(codec)
    except UnicodeEncodeError as exc:
        line = text[: exc.start].count("\n") + 1
        raise RecordEncodingError(
            f"{text[exc.start]!r} cannot be written in {codec}; write a UTF-8 format instead (.kifu, .ki2u, .csa)",
            line=line,
        ) from exc


def _strict(data: bytes, codec: str) -> str:
    try:
        text = data.decode(codec)
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise RecordEncodingError(
            f"bytes {data[exc.start : exc.start + 4]!r} are not valid {codec}; pass the right --encoding", line=line
        ) from exc
    private = _PRIVATE_USE.search(text)
    if private is not None:
        raise RecordEncodingError(
            f"the bytes decode to a private-use character (U+{ord(private.group()):04X}) in {codec}: not text a "
            "record holds; pass the right --encoding",
            line=text[: private.start()].count("\n") + 1,
        )
    return text


def _first_non_ascii(data: bytes) -> int:
    return next(i for i, b in enumerate(data) if b >= 0x80)


def _looks_like_utf8(data: bytes) -> bool:
    if all(b < 0x80 for b in data):
        return False
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True
