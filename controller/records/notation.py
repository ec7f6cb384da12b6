"""Shared notation tables: piece codes in SFEN, kanji (KIF/KI2/BOD), CSA and JKF; squares and numerals.

Owns: turning one token into another (`歩` ↔ `P` ↔ `FU`, `７六` ↔ (7, 6) ↔ `7f`). Piece codes inside this
package are SFEN letters for sente, with `+` for promoted pieces: `P L N S G B R K +P +L +N +S +B +R`.
"""

from __future__ import annotations

from controller.records.errors import RecordSyntaxError, UnknownPieceError

PIECE_CODES: tuple[str, ...] = ("P", "L", "N", "S", "G", "B", "R", "K", "+P", "+L", "+N", "+S", "+B", "+R")
HAND_CODES: tuple[str, ...] = ("R", "B", "G", "S", "N", "L", "P")
"""Pieces that can be held, in SFEN hand order."""

CSHOGI_TYPE_CODES: tuple[str, ...] = ("", "P", "L", "N", "S", "B", "R", "G", "K", "+P", "+L", "+N", "+S", "+B", "+R")
"""cshogi piece type number (1..14) to piece code."""
CSHOGI_HAND_ORDER: tuple[str, ...] = ("P", "L", "N", "S", "G", "B", "R")
"""The order of `Board.pieces_in_hand` counts."""

KANJI_OF: dict[str, str] = {
    "P": "歩", "L": "香", "N": "桂", "S": "銀", "G": "金", "B": "角", "R": "飛", "K": "玉",
    "+P": "と", "+L": "成香", "+N": "成桂", "+S": "成銀", "+B": "馬", "+R": "龍",
}  # fmt: skip
"""Piece names as KIF and KI2 move text writes them."""

BOD_KANJI_OF: dict[str, str] = {**KANJI_OF, "+L": "杏", "+N": "圭", "+S": "全"}
"""One-character piece names of board diagrams."""

CODE_OF_KANJI: dict[str, str] = {
    **{kanji: code for code, kanji in KANJI_OF.items()},
    **{kanji: code for code, kanji in BOD_KANJI_OF.items()},
    "王": "K", "竜": "+R", "成香": "+L", "成桂": "+N", "成銀": "+S",
}  # fmt: skip
"""Every kanji piece name readers accept (both `玉` and `王`, `龍` and `竜`, `成銀` and `全`...)."""

PIECE_KANJI_PATTERN = "成香|成桂|成銀|[歩香桂銀金角飛玉王と杏圭全馬龍竜]"
"""Regular-expression alternative matching one kanji piece name."""

CSA_OF: dict[str, str] = {
    "P": "FU", "L": "KY", "N": "KE", "S": "GI", "G": "KI", "B": "KA", "R": "HI", "K": "OU",
    "+P": "TO", "+L": "NY", "+N": "NK", "+S": "NG", "+B": "UM", "+R": "RY",
}  # fmt: skip
"""CSA (and JKF) two-letter piece names."""
CODE_OF_CSA: dict[str, str] = {csa: code for code, csa in CSA_OF.items()}

FULLWIDTH_DIGITS = "０１２３４５６７８９"
KANJI_DIGITS = "〇一二三四五六七八九"
_DIGIT_VALUE: dict[str, int] = {
    **{str(i): i for i in range(10)},
    **{c: i for i, c in enumerate(FULLWIDTH_DIGITS)},
    **{c: i for i, c in enumerate(KANJI_DIGITS)},
}
USI_RANKS = "abcdefghi"


def promote(code: str) -> str:
    """The promoted code of an unpromoted piece that can promote."""
    return "+" + code


def unpromote(code: str) -> str:
    """The unpromoted code (captured pieces go to hand unpromoted)."""
    return code.lstrip("+")


def can_promote(code: str) -> bool:
    """Whether the piece has a promoted side (pawn, lance, knight, silver, bishop, rook)."""
    return code in ("P", "L", "N", "S", "B", "R")


def code_of_kanji(name: str, *, line: int | None = None) -> str:
    """The piece code for a kanji piece name, or UnknownPieceError naming it."""
    try:
        return CODE_OF_KANJI[name]
    except KeyError:
        raise UnknownPieceError(f"unknown piece name {name!r}", line=line) from None


def code_of_csa(name: str, *, line: int | None = None) -> str:
    """The piece code for a CSA/JKF two-letter name, or UnknownPieceError naming it."""
    try:
        return CODE_OF_CSA[name]
    except KeyError:
        raise UnknownPieceError(f"unknown CSA piece name {name!r}", line=line) from None


def digit_value(char: str, *, line: int | None = None) -> int:
    """The value of one ASCII, full-width or kanji digit."""
    try:
        return _DIGIT_VALUE[char]
    except KeyError:
        raise RecordSyntaxError(f"expected a digit, got {char!r}", line=line) from None


def usi_square(file: int, rank: int) -> str:
    """`(7, 6)` -> `7f`."""
    return f"{file}{USI_RANKS[rank - 1]}"


def square_of_usi(square: str) -> tuple[int, int]:
    """`7f` -> `(7, 6)`."""
    return int(square[0]), USI_RANKS.index(square[1]) + 1


def kanji_square(file: int, rank: int) -> str:
    """`(7, 6)` -> `７六`."""
    return FULLWIDTH_DIGITS[file] + KANJI_DIGITS[rank]


def kanji_number(value: int) -> str:
    """A count as kanji numerals (2 -> 二, 10 -> 十, 18 -> 十八), as board diagram hands write them."""
    if value < 10:
        return KANJI_DIGITS[value]
    tens, ones = divmod(value, 10)
    return ("" if tens == 1 else KANJI_DIGITS[tens]) + "十" + (KANJI_DIGITS[ones] if ones else "")


def parse_kanji_number(text: str, *, line: int | None = None) -> int:
    """Kanji (or ASCII/full-width) numerals to an int: `十八` -> 18, `四` -> 4, `１２` -> 12."""
    if not text:
        raise RecordSyntaxError("expected a number", line=line)
    if "十" in text:
        tens_text, _, ones_text = text.partition("十")
        tens = digit_value(tens_text, line=line) if tens_text else 1
        ones = digit_value(ones_text, line=line) if ones_text else 0
        return tens * 10 + ones
    value = 0
    for char in text:
        value = value * 10 + digit_value(char, line=line)
    return value
