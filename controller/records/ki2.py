"""KI2 records: moves without origins (`▲７六歩    △３四歩    ▲２二角成`), one or several per line.

Owns: KI2 move text, including the relative modifiers that pick one piece when several of the same kind can
reach the square: 左/右/直 (position, from the mover's side), 上/引/寄 (direction), 打 (a drop where a board
move is also possible), and 成/不成. KI2 has no terminal move: the result is the `まで…` trailer. Headers and
the board diagram are `kif_common`'s.
"""

from __future__ import annotations

import re

from controller.records.errors import RecordSyntaxError
from controller.records.kif_common import comment_lines, is_skipped, read_preamble, split_lines, write_preamble
from controller.records.notation import (
    HAND_CODES,
    KANJI_OF,
    PIECE_KANJI_PATTERN,
    code_of_kanji,
    digit_value,
    kanji_square,
)
from controller.records.results import parse_trailer, trailer_text
from controller.records.tracker import MoveFacts, Tracker, drop_usi
from controller.rules.types import Color, GameRecord, RecordedMove

_MARKS = {"▲": Color.BLACK, "☗": Color.BLACK, "△": Color.WHITE, "☖": Color.WHITE, "▽": Color.WHITE}
_MOVE = re.compile(
    rf"([▲☗△☖▽])(同\s*|[1-9１-９][一二三四五六七八九1-9１-９])({PIECE_KANJI_PATTERN})"
    r"([左右直]?)([上引寄]?)(打?)(不成|成|生)?"
)
_STRAIGHT_PIECES = frozenset({"G", "S", "+P", "+L", "+N", "+S"})
"""Pieces for which 直 (straight forward) is written; dragons and horses use 左/右 instead."""


def is_ki2_move_line(text: str) -> bool:
    """A line of moves starts with a side mark."""
    stripped = text.strip()
    return bool(stripped) and stripped[0] in _MARKS


def parse_ki2(text: str) -> GameRecord:
    """Read a KI2 record (already decoded). Raises RecordError subclasses naming the line."""
    lines = split_lines(text)
    preamble = read_preamble(lines, is_ki2_move_line)
    record = GameRecord(preamble.start_sfen, headers=preamble.headers, start_comment="\n".join(preamble.comment))
    tracker = Tracker(preamble.start_sfen)
    for number, line in lines[preamble.next_index :]:
        stripped = line.strip()
        if stripped.startswith("変化"):
            break
        if is_skipped(line):
            continue
        if stripped.startswith("*"):
            _add_comment(record, line.lstrip()[1:])
        elif stripped.startswith("まで"):
            plies, record.result = parse_trailer(stripped, tracker.turn, line=number)
            if plies != len(record.moves):
                raise RecordSyntaxError(
                    f"the trailer says {plies} moves, the record has {len(record.moves)}", line=number
                )
        elif is_ki2_move_line(stripped) and record.result is None:
            _read_line(stripped, number, record, tracker)
        else:
            raise RecordSyntaxError(
                f"expected moves like '▲７六歩 △３四歩', a comment or 'まで…', got {stripped!r}", line=number
            )
    return record


def _add_comment(record: GameRecord, text: str) -> None:
    if record.moves:
        last = record.moves[-1]
        last.comment = f"{last.comment}\n{text}" if last.comment else text
    else:
        record.start_comment = f"{record.start_comment}\n{text}" if record.start_comment else text


def _read_line(text: str, number: int, record: GameRecord, tracker: Tracker) -> None:
    position = 0
    while position < len(text):
        if text[position].isspace():
            position += 1
            continue
        match = _MOVE.match(text, position)
        if match is None:
            raise RecordSyntaxError(f"expected a move like '▲７六歩' at {text[position:]!r}", line=number)
        if _MARKS[match.group(1)] is not tracker.turn:
            raise RecordSyntaxError(
                f"move {tracker.ply + 1} has {match.group(1)} but it is the other side's turn", line=number
            )
        usi = _resolve(match, tracker, number)
        tracker.play(usi, line=number)
        record.moves.append(RecordedMove(usi))
        position = match.end()


def _resolve(match: re.Match[str], tracker: Tracker, number: int) -> str:
    _, dst_text, name, lateral, direction, drop, promotion = match.groups()
    piece = code_of_kanji(name, line=number)
    if dst_text.startswith("同"):
        if tracker.last_dst is None:
            raise RecordSyntaxError("'同' (same square) on the first move", line=number)
        dst = tracker.last_dst
    else:
        dst = (digit_value(dst_text[0], line=number), digit_value(dst_text[1], line=number))
    candidates = tracker.candidates(dst, piece)
    drops = [c for c in candidates if c.src is None]
    board = [c for c in candidates if c.src is not None and c.promotion == (promotion == "成")]
    chosen = drops if drop else select(board, lateral + direction) if board or lateral or direction else drops
    if len(chosen) == 1:
        return chosen[0].usi
    move_text = match.group(0)[1:]
    if not chosen and (drop or not board) and piece in HAND_CODES and not (lateral or direction):
        return drop_usi(piece, dst)  # not legal: playing it reports why (nifu, dead drop, not in hand...)
    if not chosen:
        side = "sente" if tracker.turn is Color.BLACK else "gote"
        raise RecordSyntaxError(
            f"move {tracker.ply + 1}: no {side} {name} can make the move {move_text!r}", line=number
        )
    raise RecordSyntaxError(
        f"move {tracker.ply + 1}: {move_text!r} is ambiguous ({', '.join(c.usi for c in chosen)})", line=number
    )


def _forward(facts: MoveFacts) -> int:
    assert facts.src is not None
    step = facts.src[1] - facts.dst[1]
    return step if facts.turn is Color.BLACK else -step


def _rightness(facts: MoveFacts) -> int:
    assert facts.src is not None
    return -facts.src[0] if facts.turn is Color.BLACK else facts.src[0]


def select(moves: list[MoveFacts], modifiers: str) -> list[MoveFacts]:
    """The moves left after applying relative modifiers: direction (上引寄) first, then position (左右直)."""
    chosen = list(moves)
    for char in modifiers:
        if char == "上":
            chosen = [m for m in chosen if _forward(m) > 0]
        elif char == "引":
            chosen = [m for m in chosen if _forward(m) < 0]
        elif char == "寄":
            chosen = [m for m in chosen if _forward(m) == 0]
    for char in modifiers:
        if char == "直":
            chosen = [m for m in chosen if m.src is not None and m.src[0] == m.dst[0] and _forward(m) > 0]
        elif char in "左右" and chosen:
            pick = max if char == "右" else min
            edge = pick(_rightness(m) for m in chosen)
            chosen = [m for m in chosen if _rightness(m) == edge]
    return chosen


def relative_modifiers(facts: MoveFacts, tracker: Tracker) -> str:
    """The shortest relative modifiers that single out this move among same-kind pieces reaching the square."""
    candidates = tracker.candidates(facts.dst, facts.piece)
    if facts.src is None:
        return "打" if any(c.src is not None for c in candidates) else ""
    rivals = [c for c in candidates if c.src is not None and c.promotion == facts.promotion]
    if len(rivals) <= 1:
        return ""
    forward = _forward(facts)
    direction = "上" if forward > 0 else "引" if forward < 0 else "寄"
    laterals: list[str] = ["直", "右", "左"] if facts.piece in _STRAIGHT_PIECES else ["右", "左"]
    options: list[str] = [direction, *laterals, *(lateral + direction for lateral in laterals)]
    for option in options:
        chosen = select(rivals, option)
        if len(chosen) == 1 and chosen[0].usi == facts.usi:
            return option
    raise RecordSyntaxError(f"cannot single out {facts.usi} in KI2 notation")


def ki2_move_text(facts: MoveFacts, tracker: Tracker) -> str:
    """`７六歩`, `同　銀`, `５八金右`, `５五角打`, `２二角成`, `３三銀不成` (without the side mark)."""
    dst = "同　" if facts.same else kanji_square(*facts.dst)
    if len(KANJI_OF[facts.piece]) == 2 and facts.same:
        dst = "同"
    suffix = "成" if facts.promotion else ("不成" if facts.optional_promotion else "")
    return f"{dst}{KANJI_OF[facts.piece]}{relative_modifiers(facts, tracker)}{suffix}"


def format_ki2(record: GameRecord, *, utf8: bool) -> str:
    """Write a KI2 record (several moves per line; a comment ends the line)."""
    out = ["#KI2 version=2.0 encoding=UTF-8"] if utf8 else []
    out += write_preamble(record.start_sfen, record.headers, record.start_comment)
    tracker = Tracker(record.start_sfen)
    line: list[str] = []
    for move in record.moves:
        mark = "▲" if tracker.turn is Color.BLACK else "△"
        text = mark + ki2_move_text(tracker.facts(move.usi), tracker)
        tracker.play(move.usi)
        line.append(text)
        if move.comment or len(line) == 6:
            out.append(_join(line))
            out.extend(comment_lines(move.comment))
            line = []
    if line:
        out.append(_join(line))
    if record.result is not None:
        out.append(trailer_text(record.result, tracker.turn, len(record.moves)))
    return "\n".join(out) + "\n"


def _join(items: list[str]) -> str:
    """Moves padded to 12 display columns (full-width characters count 2), as Kifu for Windows aligns them."""
    padded = [item + " " * max(1, 12 - sum(1 if ord(c) < 0x80 else 2 for c in item)) for item in items]
    return "".join(padded).rstrip()
