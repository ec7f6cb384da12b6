"""Starting positions: the even start, the named handicaps, and parsing SFEN text into a cshogi board.

Owns: turning position text (an SFEN, `startpos`, or a handicap name) into a validated cshogi `Board`.
"""

from __future__ import annotations

from dataclasses import dataclass

import cshogi

from controller.rules.errors import PositionError

STARTPOS_SFEN = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"


@dataclass(frozen=True)
class Handicap:
    """A named handicap start: the upper player (gote, `上手`) gives up pieces and moves first.

    Attributes:
        name: the English key used on the command line and in configs.
        kif_name: the KIF `手合割` value.
        csa_pi: the CSA `PI` line removing the same pieces.
        jkf_preset: the JSON Kifu Format `initial.preset` value.
        sfen: the starting position.
    """

    name: str
    kif_name: str
    csa_pi: str
    jkf_preset: str
    sfen: str


_BLACK_HALF = "ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"

HANDICAPS: dict[str, Handicap] = {
    h.name: h
    for h in (
        Handicap("even", "平手", "PI", "HIRATE", STARTPOS_SFEN),
        Handicap("lance", "香落ち", "PI11KY", "KY", f"lnsgkgsn1/1r5b1/{_BLACK_HALF}"),
        Handicap("right_lance", "右香落ち", "PI91KY", "KY_R", f"1nsgkgsnl/1r5b1/{_BLACK_HALF}"),
        Handicap("bishop", "角落ち", "PI22KA", "KA", f"lnsgkgsnl/1r7/{_BLACK_HALF}"),
        Handicap("rook", "飛車落ち", "PI82HI", "HI", f"lnsgkgsnl/7b1/{_BLACK_HALF}"),
        Handicap("rook_lance", "飛香落ち", "PI82HI11KY", "HIKY", f"lnsgkgsn1/7b1/{_BLACK_HALF}"),
        Handicap("two", "二枚落ち", "PI82HI22KA", "2", f"lnsgkgsnl/9/{_BLACK_HALF}"),
        Handicap("three", "三枚落ち", "PI82HI22KA11KY", "3", f"lnsgkgsn1/9/{_BLACK_HALF}"),
        Handicap("four", "四枚落ち", "PI82HI22KA11KY91KY", "4", f"1nsgkgsn1/9/{_BLACK_HALF}"),
        Handicap("five", "五枚落ち", "PI82HI22KA11KY91KY81KE", "5", f"2sgkgsn1/9/{_BLACK_HALF}"),
        Handicap("left_five", "左五枚落ち", "PI82HI22KA11KY91KY21KE", "5_L", f"1nsgkgs2/9/{_BLACK_HALF}"),
        Handicap("six", "六枚落ち", "PI82HI22KA11KY91KY21KE81KE", "6", f"2sgkgs2/9/{_BLACK_HALF}"),
        Handicap("eight", "八枚落ち", "PI82HI22KA11KY91KY21KE81KE31GI71GI", "8", f"3gkg3/9/{_BLACK_HALF}"),
        Handicap(
            "ten",
            "十枚落ち",
            "PI82HI22KA11KY91KY21KE81KE31GI71GI41KI61KI",
            "10",
            f"4k4/9/{_BLACK_HALF}",
        ),
    )
}


def handicap_for_sfen(sfen: str) -> Handicap | None:
    """The named start whose position equals `sfen` (board, side and hands; the move number is ignored)."""
    key = _position_key(sfen)
    for handicap in HANDICAPS.values():
        if _position_key(handicap.sfen) == key:
            return handicap
    return None


def _position_key(sfen: str) -> tuple[str, ...]:
    return tuple(sfen.split()[:3])


def resolve_start(text: str) -> str:
    """Turn `startpos`, a handicap name (`bishop`, `角落ち`) or an SFEN into a validated full SFEN.

    Raises:
        PositionError: when the text is none of those, or the SFEN is not a usable position.
    """
    text = text.strip()
    if text in ("", "startpos"):
        return STARTPOS_SFEN
    for handicap in HANDICAPS.values():
        if text in (handicap.name, handicap.kif_name):
            return handicap.sfen
    if text.startswith("sfen "):
        text = text[5:].strip()
    sfen: str = board_from_sfen(text).sfen()
    return sfen


def board_from_sfen(sfen: str) -> cshogi.Board:
    """A cshogi board for `sfen`, checked: a king for each side, nine ranks of nine files, a side to move.

    Raises:
        PositionError: naming what is wrong with the text.
    """
    fields = sfen.split()
    if len(fields) < 2:
        raise PositionError(f"not an SFEN (need at least board and side to move): {sfen!r}")
    _check_board_field(fields[0])
    if fields[1] not in ("b", "w"):
        raise PositionError(f"SFEN side to move must be 'b' or 'w', got {fields[1]!r}")
    full = " ".join([*fields[:2], fields[2] if len(fields) > 2 else "-", fields[3] if len(fields) > 3 else "1"])
    try:
        board = cshogi.Board(full)
    except RuntimeError as exc:
        raise PositionError(f"cshogi rejected the SFEN {sfen!r}: {exc}") from exc
    return board


def _check_board_field(field: str) -> None:
    rows = field.split("/")
    if len(rows) != 9:
        raise PositionError(f"SFEN board needs 9 ranks separated by '/', got {len(rows)}")
    kings = {"K": 0, "k": 0}
    for rank, row in enumerate(rows, start=1):
        width = 0
        promoted = False
        for ch in row:
            if ch.isdigit():
                width += int(ch)
            elif ch == "+":
                promoted = True
                continue
            elif ch.upper() in "KRBGSNLP":
                width += 1
                if ch in kings:
                    kings[ch] += 1
                if promoted and ch.upper() in "KG":
                    raise PositionError(f"SFEN rank {rank}: a {ch!r} cannot be promoted")
            else:
                raise PositionError(f"SFEN rank {rank}: unknown piece letter {ch!r}")
            promoted = False
        if width != 9:
            raise PositionError(f"SFEN rank {rank} ({row!r}) covers {width} files, not 9")
    for king, count in kings.items():
        if count != 1:
            side = "sente" if king == "K" else "gote"
            raise PositionError(f"SFEN must have exactly one {side} king, found {count}")
