"""What KIF and KI2 share: the header block with `手合割` or a BOD board diagram, comments, line handling.

Owns: reading the part of a KIF/KI2 file before the first move (headers, start position, start comment) and
writing it back. A BOD diagram (`後手の持駒：…`, nine `|v香v桂…|一` rows, `先手の持駒：…`, optional `後手番`)
overrides `手合割`; `手合割` alone selects a named handicap; neither means the even start.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from controller.records.errors import RecordSyntaxError, UnknownPieceError, UnsupportedRecordError
from controller.records.headers import kif_header, kif_header_lines
from controller.records.notation import (
    BOD_KANJI_OF,
    FULLWIDTH_DIGITS,
    HAND_CODES,
    KANJI_DIGITS,
    KANJI_OF,
    code_of_kanji,
    kanji_number,
    parse_kanji_number,
)
from controller.records.position import Position
from controller.rules.positions import HANDICAPS, STARTPOS_SFEN, handicap_for_sfen
from controller.rules.types import Color

Line = tuple[int, str]
"""A 1-based line number and the line's text (without its line end)."""

_HEADER = re.compile(r"^([^\s：:]+?)\s*[：:](.*)$")
_HAND = re.compile(r"^(先手|後手|下手|上手)の持駒\s*[：:](.*)$")
_BOD_ROW = re.compile(r"^\|(.*)\|\s*([一二三四五六七八九])\s*$")
_TURN_LINES = {"先手番": Color.BLACK, "下手番": Color.BLACK, "後手番": Color.WHITE, "上手番": Color.WHITE}
_HAND_OWNER = {"先手": Color.BLACK, "下手": Color.BLACK, "後手": Color.WHITE, "上手": Color.WHITE}
_HANDICAP_BY_KIF = {h.kif_name: h for h in HANDICAPS.values()}


def split_lines(text: str) -> list[Line]:
    """Numbered lines, with a leading BOM and CR line ends removed."""
    return list(enumerate(text.removeprefix("\ufeff").splitlines(), start=1))


def is_skipped(text: str) -> bool:
    """Lines every KIF/KI2 reader skips: blank, `#` remarks, `&` bookmarks, the `手数----` column line."""
    stripped = text.strip()
    return not stripped or stripped[0] in "#&" or stripped.startswith("手数-")


@dataclass
class Preamble:
    """What comes before the first move."""

    start_sfen: str = STARTPOS_SFEN
    headers: dict[str, str] = field(default_factory=dict)
    comment: list[str] = field(default_factory=list)
    next_index: int = 0
    """Index (into the line list) of the first line that is not part of the preamble."""


def read_preamble(lines: list[Line], is_move: Callable[[str], bool]) -> Preamble:
    """Read headers, 手合割/BOD and comments up to the first line `is_move` accepts."""
    preamble = Preamble()
    handicap_name: tuple[int, str] | None = None
    position: Position | None = None
    rows: list[Line] = []
    index = 0
    while index < len(lines):
        number, text = lines[index]
        stripped = text.strip()
        if is_move(text):
            break
        index += 1
        if is_skipped(text) or stripped.startswith("手数＝") or _is_bod_frame(stripped):
            continue
        if stripped.startswith("*"):
            preamble.comment.append(text.lstrip()[1:])
        elif (hand := _HAND.match(stripped)) is not None:
            position = position or Position()
            position.hands[_HAND_OWNER[hand.group(1)]] = _read_hand(hand.group(2), line=number)
        elif stripped in _TURN_LINES:
            position = position or Position()
            position.turn = _TURN_LINES[stripped]
        elif stripped.startswith("|"):
            position = position or Position()
            rows.append((number, stripped))
            _read_bod_row(position, len(rows), number, stripped)
        elif (header := _HEADER.match(stripped)) is not None:
            if header.group(1) == "手合割":
                handicap_name = (number, header.group(2).strip())
            else:
                kif_header(header.group(1), header.group(2), preamble.headers)
        else:
            raise RecordSyntaxError(
                f"expected a header 'key：value', a board diagram, a comment or the first move, got {stripped!r}",
                line=number,
            )
    preamble.next_index = index
    preamble.start_sfen = _start_sfen(position, rows, handicap_name, lines[index - 1][0] if index else 1)
    return preamble


def _is_bod_frame(stripped: str) -> bool:
    return stripped.startswith("+--") or (bool(stripped) and all(c in FULLWIDTH_DIGITS + " 　" for c in stripped))


def _start_sfen(position: Position | None, rows: list[Line], handicap: tuple[int, str] | None, last: int) -> str:
    if position is not None and not rows and not any(position.hands.values()):
        position = None  # `先手の持駒：なし` lines without a diagram (some writers add them to even games)
    if position is not None:
        if len(rows) != 9:
            line = rows[-1][0] if rows else last
            raise RecordSyntaxError(f"the board diagram has {len(rows)} rows; expected 9", line=line)
        return position.checked_sfen(line=rows[0][0])
    if handicap is None:
        return STARTPOS_SFEN
    number, name = handicap
    if name not in _HANDICAP_BY_KIF:
        raise UnsupportedRecordError(
            f"手合割 {name!r} is not a handicap this program knows, and there is no board diagram", line=number
        )
    return _HANDICAP_BY_KIF[name].sfen


def _read_bod_row(position: Position, rank: int, number: int, text: str) -> None:
    match = _BOD_ROW.match(text)
    if match is None or len(match.group(1)) != 18:
        raise RecordSyntaxError("expected a board row like '|v香v桂v銀v金v玉v金v銀v桂v香|一'", line=number)
    if rank > 9 or KANJI_DIGITS.index(match.group(2)) != rank:
        expected = KANJI_DIGITS[rank] if rank <= 9 else "no more rows"
        raise RecordSyntaxError(f"expected board row {expected}, got {match.group(2)}", line=number)
    cells = match.group(1)
    for column in range(9):
        mark, name = cells[2 * column], cells[2 * column + 1]
        if name == "・":
            continue
        if mark not in " vV^":
            raise RecordSyntaxError(f"expected ' ' or 'v' before a piece, got {mark!r}", line=number)
        owner = Color.WHITE if mark in "vV" else Color.BLACK
        position.board[(9 - column, rank)] = (owner, code_of_kanji(name, line=number))


def _read_hand(text: str, *, line: int) -> dict[str, int]:
    text = text.strip()
    hand: dict[str, int] = {}
    if text in ("なし", ""):
        return hand
    for token in text.replace("　", " ").split():
        code = code_of_kanji(token[0], line=line)
        if code not in HAND_CODES:
            raise UnknownPieceError(f"{token[0]!r} cannot be held in hand", line=line)
        hand[code] = hand.get(code, 0) + (parse_kanji_number(token[1:], line=line) if len(token) > 1 else 1)
    return hand


def write_preamble(start_sfen: str, headers: dict[str, str], start_comment: str) -> list[str]:
    """Header lines, `手合割` or a BOD diagram, and the start comment."""
    handicap = handicap_for_sfen(start_sfen)
    is_handicap = handicap is not None and handicap.name != "even"
    out = [f"{key}：{value}" for key, value in kif_header_lines(headers, handicap=is_handicap)]
    if handicap is not None:
        out.append(f"手合割：{handicap.kif_name}")
    else:
        out.extend(bod_lines(Position.from_sfen(start_sfen)))
    out.extend(comment_lines(start_comment))
    return out


def bod_lines(position: Position) -> list[str]:
    """A KIF board diagram of `position`, with hands and (when gote moves first) `後手番`."""
    out = [f"後手の持駒：{_hand_text(position.hands[Color.WHITE])}", "  ９ ８ ７ ６ ５ ４ ３ ２ １"]
    out.append("+---------------------------+")
    for rank in range(1, 10):
        cells = ""
        for file in range(9, 0, -1):
            piece = position.board.get((file, rank))
            if piece is None:
                cells += " ・"
            else:
                cells += ("v" if piece[0] is Color.WHITE else " ") + BOD_KANJI_OF[piece[1]]
        out.append(f"|{cells}|{KANJI_DIGITS[rank]}")
    out.append("+---------------------------+")
    out.append(f"先手の持駒：{_hand_text(position.hands[Color.BLACK])}")
    if position.turn is Color.WHITE:
        out.append("後手番")
    return out


def _hand_text(hand: dict[str, int]) -> str:
    parts = [
        KANJI_OF[code] + (kanji_number(hand[code]) if hand[code] > 1 else "") for code in HAND_CODES if hand.get(code)
    ]
    return "　".join(parts) + "　" if parts else "なし"


def comment_lines(comment: str) -> list[str]:
    """`*`-prefixed lines for a comment ("" gives none)."""
    return [f"*{part}" for part in comment.split("\n")] if comment else []
