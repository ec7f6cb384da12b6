"""Secrets read from files: API tokens for lishogi and for the web page.

Owns: reading a token file safely (0600 or stricter) and keeping the token's text out of reprs, logs and errors.
"""

from __future__ import annotations

import stat
from dataclasses import dataclass, field
from pathlib import Path


class TokenFileError(ValueError):
    """The token file is missing, empty, or readable by others."""


@dataclass(frozen=True)
class Token:
    """An API token; its text never appears in repr or str."""

    value: str = field(repr=False)

    def __str__(self) -> str:
        return "Token(****)"

    @classmethod
    def from_file(cls, path: Path) -> Token:
        """Read a token file, refusing one that group or others can read (it must be 0600 or stricter)."""
        try:
            mode = path.stat().st_mode
        except OSError as exc:
            raise TokenFileError(f"cannot read token file {path}: {exc.strerror}") from exc
        if mode & (stat.S_IRWXG | stat.S_IRWXO):
            raise TokenFileError(f"token file {path} is readable by others (mode {stat.filemode(mode)}); chmod 600 it")
        value = path.read_text(encoding="utf-8").strip()
        if not value or any(ch.isspace() for ch in value):
            raise TokenFileError(f"token file {path} does not hold a single token")
        return cls(value)
