"""USI records: one line, `startpos moves 7g7f ...` or `sfen <sfen> moves ...` (`position ` may lead).

Owns: that line. It carries the start position and the moves only: no headers, times, comments or result.
"""

from __future__ import annotations

from controller.records.errors import RecordSyntaxError
from controller.records.tracker import Tracker
from controller.rules.errors import PositionError
from controller.rules.positions import STARTPOS_SFEN, board_from_sfen
from controller.rules.types import GameRecord, RecordedMove


def parse_usi_record(text: str) -> GameRecord:
    """Read a one-game USI line; every move is checked legal."""
    lines = [(n, t.strip()) for n, t in enumerate(text.removeprefix("\ufeff").splitlines(), start=1) if t.strip()]
    if not lines:
        raise RecordSyntaxError(
            "expected a line 'startpos moves ...' or 'sfen ... moves ...', the file is empty", line=1
        )
    if len(lines) > 1:
        raise RecordSyntaxError("a .usi record holds one game on one line; found a second line", line=lines[1][0])
    number, line = lines[0]
    words = line.split()
    if words[0] == "position":
        words = words[1:]
    if not words:
        raise RecordSyntaxError("expected 'startpos' or 'sfen' after 'position'", line=number)
    moves_at = words.index("moves") if "moves" in words else len(words)
    head, moves = words[:moves_at], words[moves_at + 1 :]
    if head == ["startpos"]:
        sfen = STARTPOS_SFEN
    elif head[0] == "sfen" and len(head) in (3, 4, 5):
        try:
            sfen = board_from_sfen(" ".join(head[1:])).sfen()
        except PositionError as exc:
            raise RecordSyntaxError(str(exc), line=number) from exc
    else:
        raise RecordSyntaxError(
            f"expected 'startpos' or 'sfen <board> <side> <hands> [n]', got {' '.join(head)!r}", line=number
        )
    record = GameRecord(sfen)
    tracker = Tracker(sfen)
    for usi in moves:
        tracker.play(usi, line=number)
        record.moves.append(RecordedMove(usi))
    return record


def format_usi_record(record: GameRecord) -> str:
    """`startpos moves ...` for the even start, `sfen ... moves ...` otherwise."""
    head = "startpos" if record.start_sfen.split()[:3] == STARTPOS_SFEN.split()[:3] else f"sfen {record.start_sfen}"
    moves = " ".join(record.usi_moves)
    return f"{head} moves {moves}\n" if moves else f"{head}\n"
