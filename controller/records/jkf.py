"""JKF (JSON Kifu Format) records: `header`, `initial` (`preset` or `data`), `moves` (main line; forks ignored).

Owns: JKF objects. Move entries carry `color`, `from` (absent for drops), `to`, `piece` (before the move),
`promote`, `same`, `capture` and `relative`; `time.now`/`time.total`; `comments`; the last entry may be a
`special` (the CSA words: `TORYO`, `SENNICHITE`, ...). Errors name the move entry (`moves[12]`) and, for
JSON that does not parse, the line.
"""

from __future__ import annotations

import json
import math
from typing import Any

from controller.records.errors import RecordSyntaxError, UnsupportedRecordError
from controller.records.headers import KIF_KEY_OF, kif_header
from controller.records.ki2 import relative_modifiers, select
from controller.records.notation import CSA_OF, HAND_CODES, code_of_csa
from controller.records.position import Position
from controller.records.results import csa_special, result_from_csa
from controller.records.tracker import MoveFacts, Tracker, board_usi
from controller.rules.positions import HANDICAPS, handicap_for_sfen
from controller.rules.types import Color, GameRecord, HeaderKey, RecordedMove

_PRESETS = {h.jkf_preset: h for h in HANDICAPS.values()}
_RELATIVE_OF = {"左": "L", "直": "C", "右": "R", "上": "U", "寄": "M", "引": "D", "打": "H"}
_KANJI_OF_RELATIVE = {v: k for k, v in _RELATIVE_OF.items()}


def parse_jkf(text: str) -> GameRecord:
    """Read a JKF record (already decoded)."""
    try:
        data = json.loads(text.removeprefix("\ufeff"))
    except json.JSONDecodeError as exc:
        raise RecordSyntaxError(f"not valid JSON: {exc.msg}", line=exc.lineno) from exc
    if not isinstance(data, dict) or not isinstance(data.get("moves"), list):
        raise RecordSyntaxError("expected a JSON object with 'header', 'initial' and a 'moves' list")
    headers: dict[str, str] = {}
    for key, value in _object(data.get("header", {}), "header").items():
        kif_header(str(key), str(value), headers)
    sfen = _initial(data.get("initial"))
    record = GameRecord(sfen, headers=headers)
    tracker = Tracker(sfen)
    for index, entry in enumerate(data.get("moves", [])):
        _entry(_object(entry, f"moves[{index}]"), index, record, tracker)
    return record


def _object(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise RecordSyntaxError(f"{where}: expected a JSON object")
    return value


def _initial(initial: Any) -> str:
    if initial is None:
        return HANDICAPS["even"].sfen
    initial = _object(initial, "initial")
    preset = initial.get("preset", "HIRATE")
    if preset != "OTHER":
        if preset not in _PRESETS:
            raise UnsupportedRecordError(f"initial.preset {preset!r} is not a handicap this program knows")
        return _PRESETS[preset].sfen
    data = _object(initial.get("data"), "initial.data")
    position = Position(turn=Color.BLACK if data.get("color", 0) == 0 else Color.WHITE)
    board = data.get("board")
    if not isinstance(board, list) or len(board) != 9 or any(not isinstance(c, list) or len(c) != 9 for c in board):
        raise RecordSyntaxError("initial.data.board: expected 9 columns of 9 squares")
    for x, column in enumerate(board, start=1):
        for y, raw in enumerate(column, start=1):
            cell = _object(raw, f"initial.data.board[{x - 1}][{y - 1}]")
            if cell:
                owner = Color.BLACK if cell.get("color") == 0 else Color.WHITE
                position.board[(x, y)] = (owner, code_of_csa(str(cell.get("kind"))))
    hands = data.get("hands", [{}, {}])
    for owner, hand in zip((Color.BLACK, Color.WHITE), hands, strict=True):
        for kind, count in _object(hand, "initial.data.hands").items():
            if count:
                position.hands[owner][code_of_csa(kind)] = int(count)
    return position.checked_sfen(line=None)


def _entry(entry: dict[str, Any], index: int, record: GameRecord, tracker: Tracker) -> None:
    where = f"moves[{index}]"
    if record.result is not None:
        raise RecordSyntaxError(f"{where}: nothing may follow the special that ends the game")
    comments = entry.get("comments", [])
    if not isinstance(comments, list):
        raise RecordSyntaxError(f"{where}.comments: expected a list of strings")
    if "move" in entry:
        usi = _usi(_object(entry["move"], f"{where}.move"), tracker, where)
        tracker.play(usi)
        record.moves.append(RecordedMove(usi, seconds=_seconds(entry.get("time"), where)))
    if comments:
        text = "\n".join(str(c) for c in comments)
        if record.moves:
            record.moves[-1].comment = text
        else:
            record.start_comment = text
    if "special" in entry:
        special = str(entry["special"])
        try:
            record.result = result_from_csa(special, tracker.turn, record.start_sfen, record.usi_moves, line=None)
        except (UnsupportedRecordError, RecordSyntaxError) as exc:
            raise type(exc)(f"{where}: {exc}") from exc


def _usi(move: dict[str, Any], tracker: Tracker, where: str) -> str:
    try:
        color, to, piece = move["color"], _square(move["to"]), code_of_csa(str(move["piece"]))
    except (KeyError, TypeError, ValueError) as exc:
        raise RecordSyntaxError(f"{where}.move: expected color, to {{x, y}} and piece ({exc})") from exc
    if (color == 0) != (tracker.turn is Color.BLACK):
        raise RecordSyntaxError(f"{where}: move {tracker.ply + 1} has color {color} but it is the other side's turn")
    promote = bool(move.get("promote", False))
    if "from" in move:
        src = _square(move["from"])
        found = tracker.piece_at(src)
        if found is None or found[0] is not tracker.turn or found[1] != piece:
            raise RecordSyntaxError(f"{where}: move {tracker.ply + 1}: no {move['piece']} of the side to move on {src}")
        return board_usi(src, to, promote)
    candidates = tracker.candidates(to, piece)
    relative = "".join(_KANJI_OF_RELATIVE.get(ch, "") for ch in str(move.get("relative", "")))
    drops = [c for c in candidates if c.src is None]
    board = [c for c in candidates if c.src is not None and c.promotion == promote]
    chosen = drops if "打" in relative or not board else select(board, relative.replace("打", ""))
    if len(chosen) != 1:
        problem = "matches no legal move" if not chosen else "is ambiguous"
        raise RecordSyntaxError(f"{where}: move {tracker.ply + 1} ({json.dumps(move, ensure_ascii=False)}) {problem}")
    return chosen[0].usi


def _square(value: Any) -> tuple[int, int]:
    x, y = int(value["x"]), int(value["y"])
    if not (1 <= x <= 9 and 1 <= y <= 9):
        raise ValueError(f"square ({x}, {y}) is off the board")
    return x, y


def _seconds(time: Any, where: str) -> float | None:
    if time is None:
        return None
    now = _object(_object(time, f"{where}.time").get("now"), f"{where}.time.now")
    return float(int(now.get("h", 0)) * 3600 + int(now.get("m", 0)) * 60 + int(now.get("s", 0)))


def format_jkf(record: GameRecord) -> str:
    """Write a JKF record (UTF-8 JSON, indented)."""
    header = {KIF_KEY_OF.get(key, key): value for key, value in record.headers.items() if key != HeaderKey.HANDICAP}
    moves: list[dict[str, Any]] = [{"comments": record.start_comment.split("\n")} if record.start_comment else {}]
    tracker = Tracker(record.start_sfen)
    totals = [0, 0]
    for index, move in enumerate(record.moves):
        facts = tracker.facts(move.usi)
        entry: dict[str, Any] = {"move": _move_object(facts, tracker)}
        tracker.play(move.usi)
        if move.seconds is not None:
            spent = math.floor(move.seconds)
            totals[index % 2] += spent
            total = totals[index % 2]
            entry["time"] = {
                "now": {"m": spent // 60, "s": spent % 60},
                "total": {"h": total // 3600, "m": total % 3600 // 60, "s": total % 60},
            }
        if move.comment:
            entry["comments"] = move.comment.split("\n")
        moves.append(entry)
    if record.result is not None:
        moves.append({"special": csa_special(record.result, tracker.turn)})

    def dump(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False)

    entries = ",\n".join(f"  {dump(entry)}" for entry in moves)
    return (
        f'{{"header": {dump(header)},\n "initial": {dump(_initial_object(record.start_sfen))},\n'
        f' "moves": [\n{entries}\n ]}}\n'
    )


def _move_object(facts: MoveFacts, tracker: Tracker) -> dict[str, Any]:
    move: dict[str, Any] = {"color": 0 if facts.turn is Color.BLACK else 1}
    if facts.src is not None:
        move["from"] = {"x": facts.src[0], "y": facts.src[1]}
    move["to"] = {"x": facts.dst[0], "y": facts.dst[1]}
    move["piece"] = CSA_OF[facts.piece]
    if facts.same:
        move["same"] = True
    if facts.promotion or facts.optional_promotion:
        move["promote"] = facts.promotion
    if facts.captured is not None:
        move["capture"] = CSA_OF[facts.captured]
    relative = relative_modifiers(facts, tracker)
    if relative:
        move["relative"] = "".join(_RELATIVE_OF[ch] for ch in relative)
    return move


def _initial_object(sfen: str) -> dict[str, Any]:
    handicap = handicap_for_sfen(sfen)
    if handicap is not None:
        return {"preset": handicap.jkf_preset}
    position = Position.from_sfen(sfen)
    board = [[_cell(position.board.get((x, y))) for y in range(1, 10)] for x in range(1, 10)]
    hands = [{CSA_OF[code]: position.hands[owner].get(code, 0) for code in HAND_CODES} for owner in Color]
    return {
        "preset": "OTHER",
        "data": {"color": 0 if position.turn is Color.BLACK else 1, "board": board, "hands": hands},
    }


def _cell(piece: tuple[Color, str] | None) -> dict[str, Any]:
    if piece is None:
        return {}
    return {"color": 0 if piece[0] is Color.BLACK else 1, "kind": CSA_OF[piece[1]]}
