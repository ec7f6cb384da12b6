"""The game journal: every committed move appended as a JSON line and fsynced before anything acts on it.

Owns: creating a journal (exclusive create, header line, fsync of the file and of its directory), appending
events durably (write the whole line, then `os.fsync`), and resuming: replaying the journal into a `GameRecord`,
the clock's state and the settings. A torn final line (a crash in the middle of a write: bytes without their
newline) is ignored and reported, and `Journal.reopen` cuts it off before appending again; any other bad line
is a `JournalCorruptError` naming its line number, because guessing past it could lose or invent moves.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType

import cshogi

from controller.game.clock import GameClock
from controller.game.entries import (
    EntryError,
    JournalEvent,
    JournalHeader,
    MoveEntry,
    TakebackEntry,
    decode,
    encode,
)
from controller.game.errors import JournalCorruptError, JournalError
from controller.game.headers import record_headers
from controller.game.settings import GameSettings, MoveSource
from controller.rules.errors import IllegalMoveError
from controller.rules.game import push_checked
from controller.rules.positions import board_from_sfen
from controller.rules.types import GameRecord, GameResult, RecordedMove


@dataclass(frozen=True)
class TornTail:
    """A final line cut short by a crash.

    Attributes:
        line: its 1-based line number.
        offset: the byte offset where it starts (the journal is valid up to here).
        size: its length in bytes.
    """

    line: int
    offset: int
    size: int


@dataclass(frozen=True)
class ResumedGame:
    """A game rebuilt from its journal.

    Attributes:
        header: the header line (settings, engine, start time).
        record: the moves with their times, headers, and the result when the game had ended.
        clock: the clock as of the last entry, stopped.
        sources: who made each move of `record.moves`.
        torn: the torn final line that was ignored, if any.
    """

    header: JournalHeader
    record: GameRecord
    clock: GameClock
    sources: tuple[MoveSource, ...]
    torn: TornTail | None
    lines: int = 0
    """Complete lines read (header included)."""
    replay: JournalReplay | None = field(default=None, compare=False, repr=False)
    """The replay state, to keep appending to the same game (`controller.game.gamelog`)."""

    @property
    def settings(self) -> GameSettings:
        """The game's settings."""
        return self.header.settings

    @property
    def result(self) -> GameResult | None:
        """How the game ended, None when it was still going."""
        return self.record.result


class Journal:
    """An open journal, appended to durably. Use `create` or `reopen`."""

    def __init__(self, path: Path, fd: int) -> None:
        self.path = path
        self._fd: int | None = fd

    @classmethod
    def create(cls, path: Path, header: JournalHeader) -> Journal:
        """Create a new journal with its header, durably (the file and the directory entry are fsynced).

        Raises:
            JournalError: when the file exists already (a game is never overwritten) or cannot be written.
        """
        try:
            fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError as exc:
            raise JournalError(f"{path}: a journal exists already; resume it or choose another name") from exc
        except OSError as exc:
            raise JournalError(f"{path}: cannot create the journal: {exc}") from exc
        journal = cls(path, fd)
        journal._write(encode(header))
        _fsync_directory(path.parent)
        return journal

    @classmethod
    def reopen(cls, path: Path) -> tuple[Journal, ResumedGame]:
        """Resume a journal and open it for appending, cutting off a torn final line first."""
        resumed = resume(path)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_APPEND)
            if resumed.torn is not None:
                os.ftruncate(fd, resumed.torn.offset)
                os.fsync(fd)
        except OSError as exc:
            raise JournalError(f"{path}: cannot open the journal for appending: {exc}") from exc
        return cls(path, fd), resumed

    @staticmethod
    def resume(path: Path) -> ResumedGame:
        """Read a journal back (see `resume`)."""
        return resume(path)

    def append(self, event: JournalEvent) -> None:
        """Write one event and fsync it; when this returns, the event survives a crash or power loss."""
        self._write(encode(event))

    def _write(self, line: str) -> None:
        if self._fd is None:
            raise JournalError(f"{self.path}: the journal is closed")
        data = line.encode("utf-8")
        try:
            while data:
                written = os.write(self._fd, data)
                data = data[written:]
            os.fsync(self._fd)
        except OSError as exc:
            raise JournalError(f"{self.path}: cannot write the journal: {exc}") from exc

    def close(self) -> None:
        """Close the file (entries are already durable)."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None, tb: TracebackType | None) -> None:
        self.close()


def _fsync_directory(directory: Path) -> None:
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def resume(path: Path) -> ResumedGame:
    """Rebuild the game a journal holds.

    Raises:
        JournalCorruptError: a bad line other than a torn final line, with its line number (bad JSON, unknown entry,
            a move out of sequence or illegal in its position, a takeback of more moves than were played, an
            entry after the result).
        JournalError: the file cannot be read or has no complete header line.
    """
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise JournalError(f"{path}: cannot read the journal: {exc}") from exc
    lines, torn = _split(data)
    if not lines:
        raise JournalError(f"{path}: no complete header line (the game never started)")
    replay = JournalReplay(path, _decode(path, 1, lines[0]))
    for number, raw in enumerate(lines[1:], start=2):
        replay.apply(number, _decode(path, number, raw))
    return replay.finish(torn, len(lines))


def _split(data: bytes) -> tuple[list[bytes], TornTail | None]:
    """Complete lines, and the torn tail (bytes after the last newline), if any."""
    end = data.rfind(b"\n") + 1
    lines = data[:end].split(b"\n")[:-1] if end else []
    torn = TornTail(len(lines) + 1, end, len(data) - end) if end < len(data) else None
    return lines, torn


def _decode(path: Path, number: int, raw: bytes) -> JournalHeader | JournalEvent:
    try:
        return decode(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise JournalCorruptError(str(path), number, f"not UTF-8 text: {exc.reason}") from exc
    except EntryError as exc:
        raise JournalCorruptError(str(path), number, str(exc)) from exc


class JournalReplay:
    """The game a journal holds so far, entry by entry (used to resume, and to keep records as the game goes)."""

    def __init__(self, path: Path, first: JournalHeader | JournalEvent) -> None:
        if not isinstance(first, JournalHeader):
            raise JournalCorruptError(str(path), 1, "the first line must be the header")
        self.path = path
        self.header = first
        self.board: cshogi.Board = board_from_sfen(first.settings.start_sfen)
        self.moves: list[RecordedMove] = []
        self.sources: list[MoveSource] = []
        self.clock = GameClock.new(first.settings.clock)
        self.result: GameResult | None = None

    def apply(self, number: int, entry: JournalHeader | JournalEvent) -> None:
        """Apply the entry on line `number`.

        Raises:
            JournalCorruptError: when the entry does not fit the game so far.
        """
        if self.result is not None:
            raise JournalCorruptError(str(self.path), number, "entry after the game's result")
        if isinstance(entry, JournalHeader):
            raise JournalCorruptError(str(self.path), number, "a second header")
        if isinstance(entry, MoveEntry):
            self._move(number, entry)
        elif isinstance(entry, TakebackEntry):
            self._takeback(number, entry)
        else:
            self.result = entry.result

    def _move(self, number: int, entry: MoveEntry) -> None:
        expected = len(self.moves) + 1
        if entry.ply != expected:
            raise JournalCorruptError(str(self.path), number, f"move numbered ply {entry.ply}, expected ply {expected}")
        try:
            push_checked(self.board, entry.usi, entry.ply)
        except IllegalMoveError as exc:
            raise JournalCorruptError(str(self.path), number, f"illegal move: {exc}") from exc
        self.moves.append(RecordedMove(entry.usi, entry.spent_s))
        self.sources.append(entry.source)
        self.clock = self.clock.with_times(entry.clock.black, entry.clock.white)

    def _takeback(self, number: int, entry: TakebackEntry) -> None:
        if entry.plies > len(self.moves):
            raise JournalCorruptError(
                str(self.path), number, f"takeback of {entry.plies} moves, only {len(self.moves)} played"
            )
        for _ in range(entry.plies):
            self.board.pop()
            self.moves.pop()
            self.sources.pop()
        self.clock = self.clock.with_times(entry.clock.black, entry.clock.white)

    def record(self) -> GameRecord:
        """The game so far as a record, with headers."""
        moves = [RecordedMove(m.usi, m.seconds) for m in self.moves]
        return GameRecord(self.header.settings.start_sfen, moves, record_headers(self.header), self.result)

    def finish(self, torn: TornTail | None, lines: int) -> ResumedGame:
        """The resumed game (`lines`: complete lines read)."""
        return ResumedGame(self.header, self.record(), self.clock, tuple(self.sources), torn, lines, self)
