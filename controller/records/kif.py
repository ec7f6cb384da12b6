"""KIF (Kakinoki) records: `   1 ７六歩(77)   ( 0:16/00:00:16)` move lines, reading and writing.

Owns: KIF move lines, terminal words, per-move times, `*` comments, and the `まで…` trailer. The header block
and board diagram are `kif_common`'s. Reading keeps the main line only (it stops at the first `変化：N手`),
accepts full-width or ASCII digits, `同　`, `打`, `成`/`不成`, `王`/`玉`, Kifu for Windows' `+` branch marks,
and checks every move: the named piece must stand on the origin square and the move must be legal.
`*` lines are comments on the move above them (before the first move: the start comment; after the terminal
word: added to the last move's comment). Only the terminal word ends the game; the trailer only refines a
borrowed word (for example `反則負け` + `…連続王手の千日手…` is a perpetual-check loss). Per-move times are
whole seconds (written rounded down).
"""

from __future__ import annotations

import math
import re

from controller.records.errors import RecordSyntaxError, UnknownPieceError
from controller.records.kif_common import Line, comment_lines, is_skipped, read_preamble, split_lines, write_preamble
from controller.records.notation import (
    KANJI_OF,
    PIECE_KANJI_PATTERN,
    code_of_kanji,
    digit_value,
    kanji_square,
)
from controller.records.results import KIF_WORDS, kif_word, parse_trailer, result_from_kif, trailer_text
from controller.records.tracker import MoveFacts, Tracker, board_usi, drop_usi
from controller.rules.types import GameRecord, GameResult, RecordedMove

_NUMBER = re.compile(r"^\s*([0-9]+)\s+(.*)$")
_MOVE = re.compile(
    rf"^(?P<dst>同\s*|[1-9１-９][一二三四五六七八九1-9１-９])(?P<piece>{PIECE_KANJI_PATTERN})"
    r"(?P<mod>不成|成|打|生)?(?:\((?P<src>\d\d)\))?"
)
_TIME = re.compile(r"^\(\s*(\d+):(\d+)(?:\s*/\s*(?:(\d+):)?(\d+):(\d+))?\s*\)$")
_WORD = re.compile(r"^(\S+?)(?=\s|\(|$)")
_LOOSE_MOVE = re.compile(r"^(?:同\s*|[1-9１-９][一二三四五六七八九1-9１-９])(\S)")


def is_kif_move_line(text: str) -> bool:
    """A numbered line: a move or a terminal word."""
    return _NUMBER.match(text) is not None


def parse_kif(text: str) -> GameRecord:
    """Read a KIF record (already decoded). Raises RecordError subclasses naming the line."""
    lines = split_lines(text)
    preamble = read_preamble(lines, is_kif_move_line)
    record = GameRecord(preamble.start_sfen, headers=preamble.headers, start_comment="\n".join(preamble.comment))
    tracker = Tracker(preamble.start_sfen)
    _read_body(lines[preamble.next_index :], record, tracker)
    return record


def _read_body(lines: list[Line], record: GameRecord, tracker: Tracker) -> None:
    word: tuple[int, str] | None = None
    trailer: GameResult | None = None
    comments: list[str] = []
    for number, text in lines:
        stripped = text.strip()
        if stripped.startswith("変化"):
            break
        if is_skipped(text):
            continue
        if stripped.startswith("*"):
            comments.append(text.lstrip()[1:])
            continue
        _flush_comment(record, comments)
        if stripped.startswith("まで"):
            trailer = parse_trailer(stripped, tracker.turn, line=number)[1]
        elif word is not None:
            raise RecordSyntaxError(
                f"expected nothing after the terminal word but comments, got {stripped!r}", line=number
            )
        else:
            word = _read_move_line(number, text, record, tracker)
    _flush_comment(record, comments)
    if word is not None:
        record.result = result_from_kif(word[1], tracker.turn, trailer, line=word[0])


def _flush_comment(record: GameRecord, comments: list[str]) -> None:
    if not comments:
        return
    text = "\n".join(comments)
    if record.moves:
        last = record.moves[-1]
        last.comment = f"{last.comment}\n{text}" if last.comment else text
    else:
        record.start_comment = f"{record.start_comment}\n{text}" if record.start_comment else text
    comments.clear()


def _read_move_line(number: int, text: str, record: GameRecord, tracker: Tracker) -> tuple[int, str] | None:
    """Play one numbered line; returns (line, word) when it is a terminal word."""
    match = _NUMBER.match(text)
    if match is None:
        raise RecordSyntaxError(
            f"expected a numbered move line like '   1 ７六歩(77)', got {text.strip()!r}", line=number
        )
    ply, rest = int(match.group(1)), match.group(2).strip()
    if ply != tracker.ply + 1:
        raise RecordSyntaxError(f"expected move number {tracker.ply + 1}, got {ply}", line=number)
    move = _MOVE.match(rest)
    if move is None:
        return number, _read_word(rest, number)
    usi = _usi_of(move, tracker, number)
    tracker.play(usi, line=number)
    record.moves.append(RecordedMove(usi, seconds=_read_time(rest[move.end() :], number)))
    return None


def _read_word(rest: str, number: int) -> str:
    word = _WORD.match(rest)
    if word is None or word.group(1) not in KIF_WORDS:
        loose = _LOOSE_MOVE.match(rest)
        if loose is not None:
            raise UnknownPieceError(f"unknown piece name {loose.group(1)!r} in {rest!r}", line=number)
        raise RecordSyntaxError(
            f"expected a move like '７六歩(77)' or a terminal word ({' '.join(KIF_WORDS)}), got {rest!r}", line=number
        )
    _read_time(rest[word.end() :], number)
    return word.group(1)


def _usi_of(move: re.Match[str], tracker: Tracker, number: int) -> str:
    piece = code_of_kanji(move.group("piece"), line=number)
    dst_text = move.group("dst")
    if dst_text.startswith("同"):
        if tracker.last_dst is None:
            raise RecordSyntaxError("'同' (same square) on the first move", line=number)
        dst = tracker.last_dst
    else:
        dst = (digit_value(dst_text[0], line=number), digit_value(dst_text[1], line=number))
    modifier, src_text = move.group("mod"), move.group("src")
    if modifier == "打" or (src_text == "00"):
        return drop_usi(piece, dst)
    if src_text is None:
        raise RecordSyntaxError("expected the origin square in parentheses, like '(77)', or '打'", line=number)
    src = (int(src_text[0]), int(src_text[1]))
    found = tracker.piece_at(src)
    if found is None or found[0] is not tracker.turn:
        side = "sente" if tracker.turn.value == "b" else "gote"
        raise RecordSyntaxError(f"move {tracker.ply + 1}: {side} has no piece on {src_text}", line=number)
    if found[1] != piece:
        raise RecordSyntaxError(
            f"move {tracker.ply + 1}: the piece on {src_text} is {KANJI_OF[found[1]]}, the record says "
            f"{move.group('piece')}",
            line=number,
        )
    return board_usi(src, dst, modifier == "成")


def _read_time(rest: str, number: int) -> float | None:
    rest = rest.strip().removesuffix("+").strip()
    if not rest:
        return None
    match = _TIME.match(rest)
    if match is None:
        raise RecordSyntaxError(f"expected a time like '( 0:16/00:00:16)' after the move, got {rest!r}", line=number)
    return float(int(match.group(1)) * 60 + int(match.group(2)))


def format_kif(record: GameRecord, *, utf8: bool) -> str:
    """Write a KIF record (`utf8` adds the `#KIF version=2.0 encoding=UTF-8` line for `.kifu`)."""
    out = ["#KIF version=2.0 encoding=UTF-8"] if utf8 else []
    out += write_preamble(record.start_sfen, record.headers, record.start_comment)
    out.append("手数----指手---------消費時間--")
    tracker = Tracker(record.start_sfen)
    totals = [0, 0]
    for index, move in enumerate(record.moves, start=1):
        facts = tracker.facts(move.usi)
        tracker.play(move.usi)
        text = f"{index:>4} {move_text(facts)}"
        if move.seconds is not None:
            spent = math.floor(move.seconds)
            totals[index % 2] += spent
            text += " " * max(1, 18 - _display_width(move_text(facts))) + _time_text(spent, totals[index % 2])
        out.append(text.rstrip())
        out.extend(comment_lines(move.comment))
    if record.result is not None:
        out.append(f"{len(record.moves) + 1:>4} {kif_word(record.result, tracker.turn)}")
        out.append(trailer_text(record.result, tracker.turn, len(record.moves)))
    return "\n".join(out) + "\n"


def move_text(facts: MoveFacts) -> str:
    """`７六歩(77)`, `同　銀(31)`, `２二角成(88)`, `２三銀不成(34)`, `５五角打`."""
    dst = "同　" if facts.same else kanji_square(*facts.dst)
    if facts.src is None:
        return f"{dst}{KANJI_OF[facts.piece]}打"
    suffix = "成" if facts.promotion else ("不成" if facts.optional_promotion else "")
    return f"{dst}{KANJI_OF[facts.piece]}{suffix}({facts.src[0]}{facts.src[1]})"


def _time_text(spent: int, total: int) -> str:
    minutes, seconds = divmod(spent, 60)
    hours, rest = divmod(total, 3600)
    return f"({minutes:>2}:{seconds:02}/{hours:02}:{rest // 60:02}:{rest % 60:02})"


def _display_width(text: str) -> int:
    """Columns on a fixed-width screen: full-width characters take two (Kifu for Windows aligns times so)."""
    return sum(1 if ord(char) < 0x80 else 2 for char in text)
