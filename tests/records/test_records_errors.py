"""Malformed records are errors that name the line (and the ply for a bad move); nothing is guessed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from controller.records import format_record, parse_record, read_record, write_record
from controller.records.errors import (
    IllegalRecordMoveError,
    RecordEncodingError,
    RecordSyntaxError,
    UnknownFormatError,
    UnknownPieceError,
    UnsupportedRecordError,
)
from controller.rules.positions import STARTPOS_SFEN
from controller.rules.types import GameRecord, HeaderKey, RecordedMove

KIF = """手合割：平手
先手：a
後手：b
手数----指手---------消費時間--
   1 ７六歩(77)   ( 0:01/00:00:01)
   2 ３四歩(33)   ( 0:01/00:00:01)
   3 ２二角成(88) ( 0:01/00:00:02)
   4 同　銀(31)   ( 0:01/00:00:02)
"""


def _kif_with(line: str) -> str:
    return KIF + line + "\n"


def test_truncated_kif_move_line_names_the_line() -> None:
    """It should reject a move line cut short (`   5 ４五`) at line 9, saying what was expected."""
    with pytest.raises(RecordSyntaxError, match="expected a move") as info:
        parse_record(_kif_with("   5 ４五"), "kif")
    assert info.value.line == 9


def test_truncated_board_diagram_names_the_line() -> None:
    """It should reject a BOD diagram that stops after three rows."""
    rows = "|v香v桂v銀v金v玉v金v銀v桂v香|一\n| ・v飛 ・ ・ ・ ・ ・v角 ・|二\n"
    text = "後手の持駒：なし\n+---------------------------+\n" + rows
    with pytest.raises(RecordSyntaxError, match="2 rows; expected 9") as info:
        parse_record(text, "kif")
    assert info.value.line == 4


def test_illegal_move_names_the_ply_line_and_reason() -> None:
    """It should reject an illegal move (a rook through its own pawn), naming ply 5, its line and why."""
    with pytest.raises(IllegalRecordMoveError, match=r"move 5: sente's 2h2d is illegal: .*rook") as info:
        parse_record(_kif_with("   5 ２四飛(28)"), "kif")
    assert (info.value.ply, info.value.line) == (5, 9)


def test_a_move_by_a_piece_of_the_wrong_side() -> None:
    """It should reject a KIF move whose origin square holds no piece of the side to move."""
    with pytest.raises(RecordSyntaxError, match="move 6: gote has no piece on 79") as info:
        parse_record(_kif_with("   5 ６八銀(79)\n   6 ６八銀(79)"), "kif")
    assert info.value.line == 10


def test_dead_drop_in_csa_is_illegal_even_though_cshogi_push_accepts_it() -> None:
    """It should reject a pawn dropped on the last rank (cshogi's `push_usi` would play it)."""
    text = "V2.2\nP-51OU\nP+59OU00FU\n+\n+0011FU\n"
    with pytest.raises(IllegalRecordMoveError, match="never move") as info:
        parse_record(text, "csa")
    assert (info.value.ply, info.value.line) == (1, 5)


def test_pawn_not_promoting_on_the_last_rank_is_illegal() -> None:
    """It should reject a pawn moving to the last rank without promoting."""
    text = "V2.2\nP-51OU\nP+59OU12FU\n+\n+1211FU\n"
    with pytest.raises(IllegalRecordMoveError) as info:
        parse_record(text, "csa")
    assert info.value.line == 5


def test_nifu_in_ki2_names_the_line() -> None:
    """It should reject a second unpromoted pawn dropped on a file (KI2)."""
    text = "手合割：平手\n▲７六歩 △３四歩 ▲２六歩 △３五歩 ▲２五歩 △３六歩\n▲同　歩 △８四歩 ▲７五歩打\n"
    with pytest.raises(IllegalRecordMoveError, match="nifu") as info:
        parse_record(text, "ki2")
    assert (info.value.ply, info.value.line) == (9, 3)


@pytest.mark.parametrize(
    ("text", "fmt", "line"),
    [
        (_kif_with("   5 ７六猫(77)"), "kif", 9),
        ("V2.2\nPI\n+\n+7776XX\n", "csa", 4),
        ("後手の持駒：なし\n|v香v桂v銀v金v玉v金v銀v桂v猫|一\n", "kif", 2),
        ("後手の持駒：猫二\n", "kif", 1),
    ],
)
def test_unknown_piece_names_are_errors(text: str, fmt: str, line: int) -> None:
    """It should name an unknown piece and its line (KIF move, CSA move, BOD row, BOD hand)."""
    with pytest.raises(UnknownPieceError, match=r"猫|XX") as info:
        parse_record(text, fmt)
    assert info.value.line == line


def test_wrong_piece_on_the_origin_square() -> None:
    """It should reject a KIF move naming a piece that is not on its origin square."""
    with pytest.raises(RecordSyntaxError, match="77 is 歩, the record says 香"):
        parse_record("   1 ７六香(77)\n", "kif")


def test_move_numbers_must_follow_on() -> None:
    """It should reject a skipped move number instead of guessing."""
    with pytest.raises(RecordSyntaxError, match="expected move number 5, got 6") as info:
        parse_record(_kif_with("   6 ４五角打"), "kif")
    assert info.value.line == 9


def test_ki2_ambiguous_move_is_an_error() -> None:
    """It should refuse `▲５八金` when two golds can go there and no modifier says which."""
    text = "後手の持駒：なし\n" + "\n".join(
        [
            "|v玉 ・ ・ ・ ・ ・ ・ ・ ・|一",
            *["| ・ ・ ・ ・ ・ ・ ・ ・ ・|" + r for r in "二三四五六七八"],
            "| ・ ・ ・ 金 ・ 金 ・ ・ 玉|九",
        ]
    )
    with pytest.raises(RecordSyntaxError, match="ambiguous") as info:
        parse_record(text + "\n先手の持駒：なし\n▲５八金\n", "ki2")
    assert info.value.line == 12


def test_ki2_trailer_must_match_the_move_count() -> None:
    """It should treat a trailer that counts more moves than the record holds as truncation."""
    with pytest.raises(RecordSyntaxError, match="trailer says 3 moves, the record has 2"):
        parse_record("▲７六歩 △３四歩\nまで3手で先手の勝ち\n", "ki2")


def test_csa_wrong_side_and_missing_position() -> None:
    """It should reject a move marked for the wrong side, and moves before any position."""
    with pytest.raises(RecordSyntaxError, match="other side's turn") as info:
        parse_record("V2.2\nPI\n+\n-3334FU\n", "csa")
    assert info.value.line == 4
    with pytest.raises(RecordSyntaxError, match="before any position") as info:
        parse_record("V2.2\n+\n", "csa")
    assert info.value.line == 2


def test_truncated_csa_move() -> None:
    """It should reject a CSA move cut short."""
    with pytest.raises(RecordSyntaxError, match="expected a move like '\\+7776FU'") as info:
        parse_record("V2.2\nPI\n+\n+7776FU\n-33", "csa")
    assert info.value.line == 5


def test_csa_with_several_games_is_refused() -> None:
    """It should refuse a multi-game CSA file rather than silently keep the first game."""
    with pytest.raises(UnsupportedRecordError, match="several games") as info:
        parse_record("V2.2\nPI\n+\n+7776FU\n/\nPI\n+\n", "csa")
    assert info.value.line == 5


def test_truncated_jkf_names_the_line() -> None:
    """It should report JSON that stops early with its line."""
    text = format_record(GameRecord(STARTPOS_SFEN, [RecordedMove("7g7f"), RecordedMove("3c3d")]), "jkf")
    with pytest.raises(RecordSyntaxError, match="not valid JSON") as info:
        parse_record(text[: len(text) // 2], "jkf")
    assert info.value.line is not None and info.value.line > 1


def test_jkf_move_that_does_not_fit_names_the_entry() -> None:
    """It should name the JKF move entry whose piece is not on its origin square."""
    data = json.loads(format_record(GameRecord(STARTPOS_SFEN, [RecordedMove("7g7f")]), "jkf"))
    data["moves"][1]["move"]["piece"] = "KY"
    with pytest.raises(RecordSyntaxError, match=r"moves\[1\]"):
        parse_record(json.dumps(data), "jkf")


def test_usi_file_holds_one_game() -> None:
    """It should refuse a second line in a .usi record and name it."""
    with pytest.raises(RecordSyntaxError, match="second line") as info:
        parse_record("startpos moves 7g7f\nstartpos moves 2g2f\n", "usi")
    assert info.value.line == 2


def test_utf8_bytes_in_a_shift_jis_kif_are_an_encoding_error(tmp_path: Path) -> None:
    """It should refuse a `.kif` without an encoding line whose bytes are UTF-8 (not read them as mojibake)."""
    path = tmp_path / "game.kif"
    path.write_bytes(KIF.encode("utf-8"))
    with pytest.raises(RecordEncodingError, match="UTF-8") as info:
        read_record(path)
    assert info.value.line == 1
    assert read_record(path, encoding="utf-8").usi_moves == ["7g7f", "3c3d", "8h2b+", "3a2b"]


def test_shift_jis_bytes_in_a_kifu_are_an_encoding_error(tmp_path: Path) -> None:
    """It should refuse a `.kifu` (UTF-8) file whose bytes are Shift_JIS, naming the first bad line."""
    path = tmp_path / "game.kifu"
    path.write_bytes(("#comment\n" + KIF).encode("cp932"))
    with pytest.raises(RecordEncodingError) as info:
        read_record(path)
    assert info.value.line == 2
    assert len(read_record(path, encoding="shift_jis").moves) == 4


def test_invalid_bytes_are_an_encoding_error(tmp_path: Path) -> None:
    """It should refuse bytes that are neither valid Shift_JIS nor UTF-8."""
    path = tmp_path / "game.kif"
    path.write_bytes(KIF.encode("cp932") + b"\x81\x20\n")
    with pytest.raises(RecordEncodingError) as info:
        read_record(path)
    assert info.value.line == 9


def test_stray_bytes_cp932_maps_to_private_use_are_an_encoding_error(tmp_path: Path) -> None:
    """It should refuse 0xFD-0xFF bytes, which cp932 decodes to private-use characters, not text."""
    path = tmp_path / "game.kif"
    path.write_bytes(KIF.encode("cp932") + b"\xff\xfe\n")
    with pytest.raises(RecordEncodingError, match="private-use") as info:
        read_record(path)
    assert info.value.line == 9


def test_writing_a_character_shift_jis_cannot_hold(tmp_path: Path) -> None:
    """It should refuse to write an emoji into a Shift_JIS `.kif`, and write nothing."""
    record = GameRecord(STARTPOS_SFEN, headers={HeaderKey.BLACK: "player 🐉"})
    with pytest.raises(RecordEncodingError, match="cannot be written"):
        write_record(record, tmp_path / "out.kif")
    assert not (tmp_path / "out.kif").exists()
    write_record(record, tmp_path / "out.kifu")
    assert read_record(tmp_path / "out.kifu").headers[HeaderKey.BLACK] == "player 🐉"


def test_unknown_extension_and_unknown_handicap() -> None:
    """It should refuse an unknown file extension and a `手合割` it does not know without a diagram."""
    with pytest.raises(UnknownFormatError, match="unknown record extension"):
        read_record("game.pgn")
    with pytest.raises(UnsupportedRecordError, match="その他") as info:
        parse_record("手合割：その他\n", "kif")
    assert info.value.line == 1


def test_unexpected_text_after_the_end() -> None:
    """It should refuse moves after the terminal word."""
    with pytest.raises(RecordSyntaxError, match="after the terminal word") as info:
        parse_record(_kif_with("   5 投了\n   6 ４五角打"), "kif")
    assert info.value.line == 10


@pytest.mark.parametrize("fmt", ["kif", "ki2", "csa", "jkf", "usi"])
def test_an_empty_record_is_an_error(fmt: str) -> None:
    """It should refuse an empty (or blank, or BOM-only) text rather than return an empty game."""
    with pytest.raises(RecordSyntaxError, match="empty") as info:
        parse_record("\ufeff\r\n  \n", fmt)
    assert info.value.line == 1


def test_jkf_without_moves_is_an_error() -> None:
    """It should refuse a JSON object that has no `moves` list."""
    with pytest.raises(RecordSyntaxError, match="'moves' list"):
        parse_record('{"header": {}}', "jkf")
