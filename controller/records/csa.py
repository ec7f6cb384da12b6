"""CSA records (V2.2 and V3.0 read, V3.0 written): `N±` names, `$` headers, `PI`/`P1..P9`/`P±` positions,
`+7776FU` moves, `T` times, `'*` move comments and `%` specials.

Owns: CSA statements. Several statements may share a line, separated by commas (V2.2); `'` lines are remarks,
except `'*`, which is a comment on the move before it (or on the start position). Several games in one file
(`/`) are refused, not silently cut.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from controller.records.errors import RecordSyntaxError, UnsupportedRecordError
from controller.records.headers import csa_header, csa_header_lines
from controller.records.kif_common import split_lines
from controller.records.notation import CSA_OF, HAND_CODES, code_of_csa, promote
from controller.records.position import FULL_SET, Position
from controller.records.results import csa_special, result_from_csa
from controller.records.tracker import Tracker, board_usi, drop_usi
from controller.rules.positions import STARTPOS_SFEN, handicap_for_sfen
from controller.rules.types import Color, GameRecord, HeaderKey, RecordedMove

_MOVE = re.compile(r"^([+-])(\d)(\d)(\d)(\d)([A-Z]{2})$")
_TIME = re.compile(r"^T(\d+(?:\.\d+)?)$")
_SIGN = {"+": Color.BLACK, "-": Color.WHITE}
_VERSIONS = ("V1", "V2", "V2.1", "V2.2", "V3.0")


@dataclass
class _State:
    record: GameRecord | None = None
    tracker: Tracker | None = None
    position: Position | None = None
    position_line: int | None = None
    headers: dict[str, str] = field(default_factory=dict)
    comments: list[str] = field(default_factory=list)
    ended: bool = False


def parse_csa(text: str) -> GameRecord:
    """Read a CSA record (already decoded). Raises RecordError subclasses naming the line."""
    state = _State()
    number = 1
    for number, raw in split_lines(text):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("'"):
            if line.startswith("'*"):
                _comment(state, raw.lstrip()[2:])
            continue
        statements, _, comment = line.partition(",'")
        for statement in statements.split(","):
            _statement(state, statement.strip(), raw, number)
        if comment.startswith("*"):
            _comment(state, comment[1:])  # `+7776FU,'* 30 -3334FU`: a comment on the move just read
    if state.record is None:
        raise RecordSyntaxError("the record ends before its start position and side to move ('+' or '-')", line=number)
    _flush(state)
    return state.record


def _comment(state: _State, text: str) -> None:
    state.comments.append(text)


def _flush(state: _State) -> None:
    if not state.comments or state.record is None:
        return
    text = "\n".join(state.comments)
    target = state.record.moves[-1] if state.record.moves else None
    if target is None:
        record = state.record
        record.start_comment = f"{record.start_comment}\n{text}" if record.start_comment else text
    else:
        target.comment = f"{target.comment}\n{text}" if target.comment else text
    state.comments.clear()


def _statement(state: _State, text: str, raw: str, number: int) -> None:
    if state.record is None:
        _header_or_position(state, text, raw, number)
    elif state.ended:
        if not _TIME.match(text):
            raise RecordSyntaxError(f"expected nothing after the special that ends the game, got {text!r}", line=number)
    elif (time := _TIME.match(text)) is not None:
        if not state.record.moves:
            raise RecordSyntaxError("a time 'T…' before the first move", line=number)
        state.record.moves[-1].seconds = float(time.group(1))
    elif text.startswith("%"):
        _flush(state)
        assert state.tracker is not None
        record = state.record
        record.result = result_from_csa(text[1:], state.tracker.turn, record.start_sfen, record.usi_moves, line=number)
        state.ended = True
    elif text == "/":
        raise UnsupportedRecordError("the file holds several games ('/'); convert one game per file", line=number)
    else:
        _flush(state)
        _move(state, text, number)


def _header_or_position(state: _State, text: str, raw: str, number: int) -> None:
    if text in _VERSIONS:
        return
    if text.startswith("V"):
        raise UnsupportedRecordError(f"unknown CSA version {text!r} (read: {', '.join(_VERSIONS)})", line=number)
    if text.startswith(("N+", "N-")):
        state.headers[HeaderKey.BLACK if text[1] == "+" else HeaderKey.WHITE] = text[2:].strip()
    elif text.startswith("$"):
        key, colon, value = text.partition(":")
        if not colon:
            raise RecordSyntaxError(f"expected '$KEY:value', got {text!r}", line=number)
        csa_header(key, value, state.headers)
    elif text.startswith("P"):
        _position_line(state, text, raw, number)
    elif text in _SIGN:
        _start(state, _SIGN[text], number)
    else:
        raise RecordSyntaxError(
            f"expected a version, name, '$' header, position line or '+'/'-' side to move, got {text!r}", line=number
        )


def _position_line(state: _State, text: str, raw: str, number: int) -> None:
    if state.position is None:
        state.position = Position()
        state.position_line = number
    position = state.position
    kind = text[1:2]
    if kind == "I":
        _pi(position, text[2:], number)
    elif kind in "123456789" and kind:
        row = raw.rstrip()[2:].ljust(27)
        if len(row) != 27:
            raise RecordSyntaxError(f"expected 9 cells of 3 characters after P{kind}", line=number)
        for column in range(9):
            cell = row[3 * column : 3 * column + 3]
            if cell.strip() == "*":
                continue
            if cell[0] not in _SIGN:
                raise RecordSyntaxError(f"expected ' * ' or a piece like '+FU', got {cell!r}", line=number)
            position.board[(9 - column, int(kind))] = (_SIGN[cell[0]], code_of_csa(cell[1:], line=number))
    elif kind in _SIGN and kind:
        _piece_list(position, _SIGN[kind], text[2:], number)
    else:
        raise RecordSyntaxError(f"expected PI, P1..P9, P+ or P-, got {text!r}", line=number)


def _pi(position: Position, removals: str, number: int) -> None:
    full = Position.from_sfen(STARTPOS_SFEN)
    position.board.update(full.board)
    for item in _items(removals, number):
        square, code = (int(item[0]), int(item[1])), code_of_csa(item[2:], line=number)
        if position.board.get(square, (None, ""))[1] != code:
            raise RecordSyntaxError(f"PI removes {item}, but that piece is not there in the even start", line=number)
        del position.board[square]


def _items(text: str, number: int) -> list[str]:
    if len(text) % 4 or not re.fullmatch(r"(\d\d[A-Z]{2})*", text):
        raise RecordSyntaxError(f"expected square-and-piece items like '82HI', got {text!r}", line=number)
    return [text[i : i + 4] for i in range(0, len(text), 4)]


def _piece_list(position: Position, owner: Color, text: str, number: int) -> None:
    for item in _items(text, number):
        square = (int(item[0]), int(item[1]))
        if item == "00AL":
            counts = position.piece_counts()
            for code in HAND_CODES:
                rest = FULL_SET[code] - counts.get(code, 0)
                if rest > 0:
                    position.hands[owner][code] = position.hands[owner].get(code, 0) + rest
            continue
        code = code_of_csa(item[2:], line=number)
        if square == (0, 0):
            if code not in HAND_CODES:
                raise RecordSyntaxError(f"{item[2:]} cannot be held in hand", line=number)
            position.hands[owner][code] = position.hands[owner].get(code, 0) + 1
        elif square in position.board or not (1 <= square[0] <= 9 and 1 <= square[1] <= 9):
            raise RecordSyntaxError(f"square {item[:2]} is occupied or not on the board", line=number)
        else:
            position.board[square] = (owner, code)


def _start(state: _State, turn: Color, number: int) -> None:
    if state.position is None:
        raise RecordSyntaxError("side to move given before any position line (PI or P1..P9)", line=number)
    state.position.turn = turn
    sfen = state.position.checked_sfen(line=state.position_line)
    state.record = GameRecord(sfen, headers=state.headers)
    state.tracker = Tracker(sfen)


def _move(state: _State, text: str, number: int) -> None:
    assert state.tracker is not None and state.record is not None
    tracker = state.tracker
    match = _MOVE.match(text)
    if match is None:
        raise RecordSyntaxError(
            f"expected a move like '+7776FU', a time 'T12' or a '%' special, got {text!r}", line=number
        )
    sign, fx, fy, tx, ty, name = match.groups()
    if _SIGN[sign] is not tracker.turn:
        raise RecordSyntaxError(f"move {tracker.ply + 1} is marked {sign} but it is the other side's turn", line=number)
    code = code_of_csa(name, line=number)
    dst = (int(tx), int(ty))
    if fx == fy == "0":
        usi = drop_usi(code, dst)
    else:
        src = (int(fx), int(fy))
        found = tracker.piece_at(src)
        if found is None or found[0] is not tracker.turn or code not in (found[1], promote(found[1])):
            raise RecordSyntaxError(
                f"move {tracker.ply + 1}: there is no {name} of the side to move on {fx}{fy} that could become {name}",
                line=number,
            )
        usi = board_usi(src, dst, code != found[1])
    tracker.play(usi, line=number)
    state.record.moves.append(RecordedMove(usi))


def format_csa(record: GameRecord) -> str:
    """Write a CSA V3.0 record, UTF-8, with its `'CSA encoding=UTF-8` line."""
    out = ["'CSA encoding=UTF-8", "V3.0"]
    for key, sign in ((HeaderKey.BLACK, "+"), (HeaderKey.WHITE, "-")):
        if key in record.headers:
            out.append(f"N{sign}{record.headers[key]}")
    lines, comments = csa_header_lines(record.headers)
    out += lines + comments + _position_lines(record.start_sfen)
    out += [f"'*{part}" for part in record.start_comment.split("\n")] if record.start_comment else []
    tracker = Tracker(record.start_sfen)
    for move in record.moves:
        turn = tracker.turn
        facts = tracker.facts(move.usi)
        tracker.play(move.usi)
        src = f"{facts.src[0]}{facts.src[1]}" if facts.src else "00"
        piece = promote(facts.piece) if facts.promotion else facts.piece
        out.append(f"{'+' if turn is Color.BLACK else '-'}{src}{facts.dst[0]}{facts.dst[1]}{CSA_OF[piece]}")
        if move.seconds is not None:
            out.append(f"T{_seconds(move.seconds)}")
        out += [f"'*{part}" for part in move.comment.split("\n")] if move.comment else []
    if record.result is not None:
        out.append("%" + csa_special(record.result, tracker.turn))
    return "\n".join(out) + "\n"


def _seconds(value: float) -> str:
    """A move's time in CSA's 'T' form: whole seconds as an integer, else up to three decimals ('2.5', never '2.')."""
    rounded = round(float(value), 3)
    return str(int(rounded)) if rounded.is_integer() else f"{rounded:.3f}".rstrip("0")


def _position_lines(sfen: str) -> list[str]:
    turn = "+" if sfen.split()[1] == "b" else "-"
    handicap = handicap_for_sfen(sfen)
    if handicap is not None:
        return [handicap.csa_pi, turn]
    position = Position.from_sfen(sfen)
    out = []
    for rank in range(1, 10):
        cells = ""
        for file in range(9, 0, -1):
            piece = position.board.get((file, rank))
            cells += " * " if piece is None else ("+" if piece[0] is Color.BLACK else "-") + CSA_OF[piece[1]]
        out.append(f"P{rank}{cells}")
    for owner, sign in ((Color.BLACK, "+"), (Color.WHITE, "-")):
        items = "".join(f"00{CSA_OF[code]}" * position.hands[owner].get(code, 0) for code in HAND_CODES)
        if items:
            out.append(f"P{sign}{items}")
    return [*out, turn]
