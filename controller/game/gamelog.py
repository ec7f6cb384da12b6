"""The files of a game being played: the journal (durable, first) and the KIFU/CSA records (rewritten after it).

Owns: carrying out the state machine's `StartJournal` and `SaveJournal` commands: create the journal with its
header, append each entry with fsync, then bring the record files up to date. A resumed game reopens its journal
(cutting off a torn final line) and carries on appending.
"""

from __future__ import annotations

from pathlib import Path

from controller.game.entries import JournalEvent, JournalHeader
from controller.game.errors import JournalError
from controller.game.journal import Journal, JournalReplay, ResumedGame
from controller.game.live_records import LiveRecords
from controller.rules.types import GameRecord

JOURNAL_SUFFIX = ".journal"


class GameLog:
    """A game's journal and record files, kept in step."""

    def __init__(self, journal: Journal, replay: JournalReplay, records: LiveRecords | None, lines: int) -> None:
        self.journal = journal
        self._replay = replay
        self._records = records
        self._lines = lines

    @classmethod
    def start(cls, base: Path, header: JournalHeader, records: LiveRecords | None) -> GameLog:
        """Create `<base>.journal` with `header` (and the record files, empty of moves)."""
        journal = Journal.create(base.with_name(base.name + JOURNAL_SUFFIX), header)
        log = cls(journal, JournalReplay(journal.path, header), records, 1)
        log._write_records()
        return log

    @classmethod
    def reopen(cls, base: Path, records: LiveRecords | None) -> tuple[GameLog, ResumedGame]:
        """Resume `<base>.journal` (a torn final line is cut off) and continue appending to it."""
        journal, resumed = Journal.reopen(base.with_name(base.name + JOURNAL_SUFFIX))
        if resumed.replay is None:
            raise JournalError(f"{journal.path}: resumed without its replay state")
        log = cls(journal, resumed.replay, records, resumed.lines)
        log._write_records()
        return log, resumed

    def save(self, event: JournalEvent) -> None:
        """Append `event` durably, then rewrite the record files."""
        self._replay.apply(self._lines + 1, event)
        self.journal.append(event)
        self._lines += 1
        self._write_records()

    def record(self) -> GameRecord:
        """The game so far."""
        return self._replay.record()

    def close(self) -> None:
        """Close the journal."""
        self.journal.close()

    def _write_records(self) -> None:
        if self._records is not None:
            self._records.update(self._replay.record())
