"""How each format writes the end of a game, and back: KIF terminal words, `まで…` trailers, CSA/JKF specials.

Owns: `GameResult` <-> format words. A format word names a termination relative to the side to move when the
game ended (`投了` and `%TORYO`: the side to move lost), so every conversion takes that side (`turn`).
Combinations a format cannot write raise `UnsupportedRecordError` rather than writing something else.
"""

from __future__ import annotations

import re

import cshogi

from controller.records.errors import RecordSyntaxError, UnsupportedRecordError
from controller.rules.types import Color, GameResult, Termination

T = Termination
WIN, LOSE, NONE = "win", "lose", "none"
"""How the side to move fared: it won, it lost, or nobody won."""

KIF_WORDS: dict[str, tuple[Termination, str]] = {
    "投了": (T.RESIGN, LOSE),
    "詰み": (T.CHECKMATE, LOSE),
    "千日手": (T.REPETITION, NONE),
    "持将棋": (T.IMPASSE_DRAW, NONE),
    "入玉勝ち": (T.IMPASSE_WIN, WIN),
    "切れ負け": (T.TIMEOUT, LOSE),
    "反則勝ち": (T.ILLEGAL_MOVE, WIN),
    "反則負け": (T.ILLEGAL_MOVE, LOSE),
    "中断": (T.ABORT, NONE),
}
"""KIF terminal words (written as the move after the last one)."""

_KIF_WRITE: dict[tuple[Termination, str], str] = {
    **{value: word for word, value in KIF_WORDS.items()},
    (T.NO_LEGAL_MOVES, LOSE): "詰み",
    (T.PERPETUAL_CHECK, WIN): "反則勝ち",
    (T.PERPETUAL_CHECK, LOSE): "反則負け",
    (T.IMPASSE_WIN, LOSE): "持将棋",
    (T.IMPASSE_LOSE, LOSE): "反則負け",
    (T.MAX_MOVES, NONE): "持将棋",
    (T.DRAW, NONE): "持将棋",
}
"""Terminations without a word of their own borrow the nearest one; the trailer then says which it was."""

_REFINEMENTS: dict[str, set[Termination]] = {
    "詰み": {T.NO_LEGAL_MOVES},
    "反則勝ち": {T.PERPETUAL_CHECK},
    "反則負け": {T.PERPETUAL_CHECK, T.IMPASSE_LOSE},
    "持将棋": {T.IMPASSE_WIN, T.MAX_MOVES, T.DRAW},
}
"""Which precise terminations a trailer may give to a borrowed KIF word."""

CSA_SPECIALS: dict[str, tuple[Termination, str]] = {
    "TORYO": (T.RESIGN, LOSE),
    "TSUMI": (T.CHECKMATE, LOSE),
    "SENNICHITE": (T.REPETITION, NONE),
    "OUTE_SENNICHITE": (T.PERPETUAL_CHECK, "checker"),
    "KACHI": (T.IMPASSE_WIN, WIN),
    "JISHOGI": (T.IMPASSE_DRAW, NONE),
    "HIKIWAKE": (T.DRAW, NONE),
    "TIME_UP": (T.TIMEOUT, LOSE),
    "ILLEGAL_MOVE": (T.ILLEGAL_MOVE, LOSE),
    "CHUDAN": (T.ABORT, NONE),
    "MAX_MOVES": (T.MAX_MOVES, NONE),
}
"""CSA `%` specials (also JKF `special` values), except the `±ILLEGAL_ACTION` pair, which name the loser."""

_CSA_WRITE: dict[tuple[Termination, str], str] = {
    **{value: word for word, value in CSA_SPECIALS.items() if value[1] != "checker"},
    (T.NO_LEGAL_MOVES, LOSE): "TSUMI",
    (T.IMPASSE_LOSE, LOSE): "ILLEGAL_MOVE",
}

_WINNER_PHRASES: dict[str, Termination] = {
    "": T.RESIGN,
    "投了": T.RESIGN,
    "詰み": T.CHECKMATE,
    "時間切れ": T.TIMEOUT,
    "切れ負け": T.TIMEOUT,
    "反則": T.ILLEGAL_MOVE,
    "連続王手の千日手": T.PERPETUAL_CHECK,
    "入玉宣言": T.IMPASSE_WIN,
    "持将棋": T.IMPASSE_WIN,
    "入玉宣言失敗": T.IMPASSE_LOSE,
    "指し手なし": T.NO_LEGAL_MOVES,
}
_PHRASE_OF: dict[Termination, str] = {
    T.RESIGN: "",
    T.CHECKMATE: "詰み",
    T.TIMEOUT: "時間切れ",
    T.ILLEGAL_MOVE: "反則",
    T.PERPETUAL_CHECK: "連続王手の千日手",
    T.IMPASSE_WIN: "入玉宣言",
    T.IMPASSE_LOSE: "入玉宣言失敗",
    T.NO_LEGAL_MOVES: "指し手なし",
}
_DRAW_PHRASES: dict[str, Termination] = {
    "千日手": T.REPETITION,
    "持将棋": T.IMPASSE_DRAW,
    "中断": T.ABORT,
    "引き分け": T.DRAW,
    "最大手数により引き分け": T.MAX_MOVES,
}
_SIDE_NAMES = {"先手": Color.BLACK, "下手": Color.BLACK, "後手": Color.WHITE, "上手": Color.WHITE}
_TRAILER = re.compile(r"^まで\s*(\d+)\s*手で\s*(.*?)\s*$")
_WIN_PHRASE = re.compile(r"^(?:(.+?)により)?(先手|後手|下手|上手)の(勝ち|反則勝ち|入玉勝ち)$")
_LOSE_PHRASE = re.compile(r"^(先手|後手|下手|上手)の(反則負け|負け)$")


def _relation(result: GameResult, turn: Color) -> str:
    if result.winner is None:
        return NONE
    return WIN if result.winner is turn else LOSE


def _winner(relation: str, turn: Color) -> Color | None:
    return {WIN: turn, LOSE: turn.opponent, NONE: None}[relation]


def kif_word(result: GameResult, turn: Color) -> str:
    """The KIF terminal word for `result`, the game having ended with `turn` to move."""
    key = (result.termination, _relation(result, turn))
    if key not in _KIF_WRITE:
        raise UnsupportedRecordError(f"KIF cannot record {_describe(result, turn)}")
    return _KIF_WRITE[key]


def result_from_kif(word: str, turn: Color, trailer: GameResult | None, *, line: int) -> GameResult:
    """The result a KIF terminal word gives, refined by the trailer when the word was borrowed."""
    if word not in KIF_WORDS:
        raise RecordSyntaxError(f"unknown terminal word {word!r} (expected one of {' '.join(KIF_WORDS)})", line=line)
    termination, relation = KIF_WORDS[word]
    result = GameResult(termination, _winner(relation, turn))
    if trailer is not None and trailer.termination in _REFINEMENTS.get(word, set()):
        same_winner = trailer.winner == result.winner or word == "持将棋"
        if same_winner:
            return trailer
    return result


def trailer_text(result: GameResult, turn: Color, plies: int) -> str:
    """`まで64手で後手の勝ち`, `まで80手で千日手`, ... (also KI2's only record of the result)."""
    if result.winner is None:
        phrase = next((p for p, t in _DRAW_PHRASES.items() if t is result.termination), None)
    else:
        reason = _PHRASE_OF.get(result.termination)
        side = "先手" if result.winner is Color.BLACK else "後手"
        phrase = None if reason is None else (f"{reason}により" if reason else "") + f"{side}の勝ち"
    if phrase is None:
        raise UnsupportedRecordError(f"KIF/KI2 cannot record {_describe(result, turn)}")
    return f"まで{plies}手で{phrase}"


def parse_trailer(text: str, turn: Color, *, line: int) -> tuple[int, GameResult | None]:
    """Read a `まで…` line: the number of plies it states and the result, when the phrase is one we know."""
    match = _TRAILER.match(text)
    if match is None:
        raise RecordSyntaxError("expected a trailer like 'まで64手で後手の勝ち'", line=line)
    plies, phrase = int(match.group(1)), match.group(2)
    if phrase in _DRAW_PHRASES:
        return plies, GameResult(_DRAW_PHRASES[phrase], None, detail=text)
    if phrase == "詰み":
        return plies, GameResult(T.CHECKMATE, turn.opponent, detail=text)
    win = _WIN_PHRASE.match(phrase)
    if win is not None:
        reason, side, kind = win.group(1) or "", _SIDE_NAMES[win.group(2)], win.group(3)
        termination = {"反則勝ち": T.ILLEGAL_MOVE, "入玉勝ち": T.IMPASSE_WIN}.get(kind, _WINNER_PHRASES.get(reason))
        return plies, None if termination is None else GameResult(termination, side, detail=text)
    lose = _LOSE_PHRASE.match(phrase)
    if lose is not None:
        termination = T.ILLEGAL_MOVE if lose.group(2) == "反則負け" else T.RESIGN
        return plies, GameResult(termination, _SIDE_NAMES[lose.group(1)].opponent, detail=text)
    return plies, None


def csa_special(result: GameResult, turn: Color) -> str:
    """The CSA special (without `%`) for `result`; JKF uses the same words."""
    relation = _relation(result, turn)
    if result.termination is T.ILLEGAL_MOVE and relation == WIN:
        return ("+" if turn.opponent is Color.BLACK else "-") + "ILLEGAL_ACTION"
    if result.termination is T.PERPETUAL_CHECK and relation != NONE:
        return "OUTE_SENNICHITE"
    key = (result.termination, relation)
    if key not in _CSA_WRITE:
        raise UnsupportedRecordError(f"CSA/JKF cannot record {_describe(result, turn)}")
    return _CSA_WRITE[key]


def result_from_csa(special: str, turn: Color, start_sfen: str, moves: list[str], *, line: int | None) -> GameResult:
    """The result of a CSA special (without `%`) ending the game with `turn` to move."""
    if special in ("+ILLEGAL_ACTION", "-ILLEGAL_ACTION"):
        loser = Color.BLACK if special[0] == "+" else Color.WHITE
        return GameResult(T.ILLEGAL_MOVE, loser.opponent)
    if special not in CSA_SPECIALS:
        raise UnsupportedRecordError(f"unsupported special {special!r}", line=line)
    termination, relation = CSA_SPECIALS[special]
    if relation == "checker":
        return GameResult(termination, perpetual_winner(start_sfen, moves, line=line))
    return GameResult(termination, _winner(relation, turn))


def perpetual_winner(start_sfen: str, moves: list[str], *, line: int | None) -> Color:
    """The winner of a perpetual-check repetition: the side that did not check with every move of the span."""
    board = cshogi.Board(start_sfen)
    keys, checks = [board.zobrist_hash()], [False]
    for usi in moves:
        board.push_usi(usi)
        keys.append(board.zobrist_hash())
        checks.append(board.is_check())
    first = keys.index(keys[-1])
    start_turn = Color(start_sfen.split()[1])
    checkers = []
    for side in (Color.BLACK, Color.WHITE):
        own = [
            checks[j + 1]
            for j in range(first, len(moves))
            if (start_turn if j % 2 == 0 else start_turn.opponent) is side
        ]
        if own and all(own):
            checkers.append(side)
    if len(checkers) != 1:
        raise RecordSyntaxError(
            "the record ends in perpetual check, but the moves do not show exactly one side checking "
            "throughout the repetition",
            line=line,
        )
    return checkers[0].opponent


def _describe(result: GameResult, turn: Color) -> str:
    winner = {None: "no winner", Color.BLACK: "sente winning", Color.WHITE: "gote winning"}[result.winner]
    mover = "sente" if turn is Color.BLACK else "gote"
    return f"{result.termination.value} with {winner} ({mover} to move)"
