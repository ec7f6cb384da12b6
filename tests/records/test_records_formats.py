"""Format details: KI2 relative notation and multi-move lines, CSA V2.2/V3.0 reading and writing, KIF line
layout, JKF objects, USI lines, and the text-level `parse_record`/`format_record` entry points."""

from __future__ import annotations

import json

import pytest

from controller.records import format_record, parse_record
from controller.rules.positions import HANDICAPS, STARTPOS_SFEN
from controller.rules.types import Color, GameRecord, GameResult, HeaderKey, RecordedMove, Termination

KING_CORNERS = "k8/9/9/9/9/9/9/9/"


def _ki2_moves(sfen: str, usi: str) -> str:
    """The KI2 text of one move from `sfen`, without the header lines."""
    text = format_record(GameRecord(sfen, moves=[RecordedMove(usi)]), "ki2")
    return text.splitlines()[-1]


@pytest.mark.parametrize(
    ("board", "usi", "expected"),
    [
        ("3G1G2K b - 1", "6i5h", "▲５八金左"),
        ("3G1G2K b - 1", "4i5h", "▲５八金右"),
        ("4GG2K b - 1", "5i5h", "▲５八金直"),
        ("4GG2K b - 1", "4i5h", "▲５八金右"),
        ("4G3K b - 1", "5i5h", "▲５八金"),
    ],
)
def test_ki2_left_right_straight(board: str, usi: str, expected: str) -> None:
    """It should write 左/右/直 when two golds can reach the square and read them back as the same move."""
    sfen = KING_CORNERS + board
    assert _ki2_moves(sfen, usi) == expected
    record = parse_record(format_record(GameRecord(sfen, moves=[RecordedMove(usi)]), "ki2"), "ki2")
    assert record.usi_moves == [usi]


@pytest.mark.parametrize(
    ("sfen", "usi", "expected"),
    [
        ("k8/9/9/9/9/9/9/5G3/4G3K b - 1", "4h5h", "▲５八金寄"),
        ("k8/9/9/9/9/9/9/5G3/4G3K b - 1", "5i5h", "▲５八金上"),
        ("k8/9/9/9/9/9/5S3/9/3S4K b - 1", "4g5h", "▲５八銀引"),
        ("k8/9/9/9/9/9/5S3/9/3S4K b - 1", "6i5h", "▲５八銀上"),
        ("k8/9/9/9/9/9/9/9/5G2K b G 1", "G*5h", "▲５八金打"),
        ("k8/9/9/9/9/9/9/9/5G2K b G 1", "4i5h", "▲５八金"),
        ("3g1g2k/9/9/9/9/9/9/9/K8 w - 1", "6a5b", "△５二金右"),
        ("3g1g2k/9/9/9/9/9/9/9/K8 w - 1", "4a5b", "△５二金左"),
    ],
)
def test_ki2_direction_and_drop_modifiers(sfen: str, usi: str, expected: str) -> None:
    """It should write 寄/上/引/打 (and gote's 右/左 from gote's side) and read them back."""
    assert _ki2_moves(sfen, usi) == expected
    record = parse_record(format_record(GameRecord(sfen, moves=[RecordedMove(usi)]), "ki2"), "ki2")
    assert record.usi_moves == [usi]


def test_ki2_reads_several_moves_per_line() -> None:
    """It should read lines holding several moves with any spacing, ☗/☖ marks, 同 and an explicit 打."""
    text = (
        "手合割：平手\n▲７六歩    △３四歩    ▲２二角成  △同　銀\n☗４五角打 ☖４二玉\n▲３四角  △３三銀\nまで8手で中断\n"
    )
    record = parse_record(text, "ki2")
    assert record.usi_moves == ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e", "5a4b", "4e3d", "2b3c"]
    assert record.result == GameResult(Termination.ABORT, None)


def test_ki2_writes_promotion_choices() -> None:
    """It should write 成 and 不成 when the move could go either way, and read both back."""
    moves = ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e", "5a4b", "4e3d", "2b3c", "3d2c"]
    text = format_record(GameRecord(STARTPOS_SFEN, moves=[RecordedMove(m) for m in moves]), "ki2")
    assert "▲２二角成" in text and "▲２三角不成" in text and "△同　銀" in text
    assert parse_record(text, "ki2").usi_moves == moves


CSA_V22 = """V2.2
N+sente name
N-gote name
$EVENT:test event
$START_TIME:2005/01/01 10:00:00
$TIME_LIMIT:00:25+30
P1-KY-KE-GI-KI-OU-KI-GI-KE-KY
P2 * -HI *  *  *  *  * -KA *
P3-FU-FU-FU-FU-FU-FU-FU-FU-FU
P4 *  *  *  *  *  *  *  *  *
P5 *  *  *  *  *  *  *  *  *
P6 *  *  *  *  *  *  *  *  *
P7+FU+FU+FU+FU+FU+FU+FU+FU+FU
P8 * +KA *  *  *  *  * +HI *
P9+KY+KE+GI+KI+OU+KI+GI+KE+KY
+
+2726FU,T12
-3334FU,T6
'* a comment on 3334FU
+2625FU,T2
-8384FU,T1,'** 30 +7776FU
' a remark that is not a move comment
+7776FU
T3
%TORYO
"""


def test_csa_v22_with_grid_commas_times_and_comments() -> None:
    """It should read a V2.2 record: P1..P9 grid, comma-joined statements, T times, '* comments, %TORYO."""
    record = parse_record(CSA_V22, "csa")
    assert record.start_sfen == STARTPOS_SFEN
    assert record.usi_moves == ["2g2f", "3c3d", "2f2e", "8c8d", "7g7f"]
    assert [m.seconds for m in record.moves] == [12, 6, 2, 1, 3]
    assert record.moves[1].comment == " a comment on 3334FU"
    assert record.moves[3].comment == "* 30 +7776FU"
    assert record.headers == {
        HeaderKey.BLACK: "sente name",
        HeaderKey.WHITE: "gote name",
        HeaderKey.EVENT: "test event",
        HeaderKey.START_TIME: "2005/01/01 10:00:00",
        HeaderKey.TIME_CONTROL: "1500",
        HeaderKey.BYOYOMI: "30",
    }
    assert record.result == GameResult(Termination.RESIGN, Color.BLACK)


def test_csa_piece_lists_with_all_the_rest_in_hand() -> None:
    """It should read `P+`/`P-` piece lists and `00AL` (every remaining piece to gote's hand), then %TSUMI."""
    text = "V2.2\nP-51OU\nP+59OU53FU00KI\nP-00AL\n+\n+0052KI\n%TSUMI\n"
    record = parse_record(text, "csa")
    assert record.start_sfen == "4k4/9/4P4/9/9/9/9/9/4K4 b G2r2b3g4s4n4l17p 1"
    assert record.result == GameResult(Termination.CHECKMATE, Color.BLACK)


def test_csa_pi_handicap_with_gote_to_move() -> None:
    """It should read `PI82HI22KA` and `-` as the two-piece handicap."""
    record = parse_record("V2.2\nPI82HI22KA\n-\n-5142OU\n", "csa")
    assert record.start_sfen == HANDICAPS["two"].sfen
    assert record.usi_moves == ["5a4b"]


def test_csa_written_as_v3_with_encoding_line() -> None:
    """It should write `'CSA encoding=UTF-8` first, then `V3.0`, names, `PI`, the side, moves and times."""
    record = GameRecord(
        STARTPOS_SFEN,
        moves=[RecordedMove("7g7f", 3.0), RecordedMove("3c3d", 1.5, "why\nnot")],
        headers={HeaderKey.BLACK: "先手さん", HeaderKey.WHITE: "gote"},
        result=GameResult(Termination.RESIGN, Color.WHITE),
    )
    assert format_record(record, "csa").splitlines() == [
        "'CSA encoding=UTF-8", "V3.0", "N+先手さん", "N-gote", "PI", "+",
        "+7776FU", "T3", "-3334FU", "T1.5", "'*why", "'*not", "%TORYO",
    ]  # fmt: skip


def test_kif_move_lines_match_the_usual_layout() -> None:
    """It should write `   1 ７六歩(77)        ( 0:03/00:00:03)` and `   4 同　銀(31)` lines."""
    moves = [RecordedMove("7g7f", 3.0), RecordedMove("3c3d", 1.0), RecordedMove("8h2b+", 65.0), RecordedMove("3a2b")]
    lines = format_record(GameRecord(STARTPOS_SFEN, moves=moves), "kif").splitlines()
    assert "   1 ７六歩(77)        ( 0:03/00:00:03)" in lines
    assert "   3 ２二角成(88)      ( 1:05/00:01:08)" in lines
    assert "   4 同　銀(31)" in lines


def test_kifu_declares_utf8_and_kif_does_not() -> None:
    """It should start `.kifu` text with the `#KIF version=2.0 encoding=UTF-8` line, and not `.kif` text."""
    record = GameRecord(STARTPOS_SFEN)
    assert format_record(record, "kifu").startswith("#KIF version=2.0 encoding=UTF-8\n")
    assert not format_record(record, "kif").startswith("#KIF")


def test_kif_borrowed_words_keep_the_exact_result_in_the_trailer() -> None:
    """It should write a perpetual-check loss as 反則負け with a trailer naming 連続王手の千日手."""
    record = GameRecord(STARTPOS_SFEN, moves=[RecordedMove("7g7f")])
    record.result = GameResult(Termination.PERPETUAL_CHECK, Color.BLACK)
    lines = format_record(record, "kif").splitlines()
    assert lines[-2:] == ["   2 反則負け", "まで1手で連続王手の千日手により先手の勝ち"]


JKF_SAMPLE = {
    "header": {"先手": "a", "後手": "b", "場所": "somewhere"},
    "initial": {"preset": "HIRATE"},
    "moves": [
        {"comments": ["opening remark"]},
        {"move": {"from": {"x": 7, "y": 7}, "to": {"x": 7, "y": 6}, "color": 0, "piece": "FU"},
         "time": {"now": {"m": 0, "s": 12}, "total": {"h": 0, "m": 0, "s": 12}}},
        {"move": {"from": {"x": 3, "y": 3}, "to": {"x": 3, "y": 4}, "color": 1, "piece": "FU"},
         "comments": ["hello"], "forks": [[{"move": {"from": {"x": 8, "y": 3}, "to": {"x": 8, "y": 4},
                                                     "color": 1, "piece": "FU"}}]]},
        {"move": {"from": {"x": 8, "y": 8}, "to": {"x": 2, "y": 2}, "color": 0, "piece": "KA", "capture": "KA",
                  "promote": True}},
        {"move": {"to": {"x": 2, "y": 2}, "color": 1, "piece": "GI", "same": True}},
        {"move": {"to": {"x": 4, "y": 5}, "color": 0, "piece": "KA", "relative": "H"}},
        {"special": "TORYO"},
    ],
}  # fmt: skip


def test_jkf_reads_main_line_relative_moves_times_comments_and_special() -> None:
    """It should read a JKF object: forks ignored, a move without `from` found from the position, TORYO."""
    record = parse_record(json.dumps(JKF_SAMPLE, ensure_ascii=False), "jkf")
    assert record.usi_moves == ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"]
    assert record.moves[0].seconds == 12
    assert (record.start_comment, record.moves[1].comment) == ("opening remark", "hello")
    assert record.headers == {HeaderKey.BLACK: "a", HeaderKey.WHITE: "b", HeaderKey.SITE: "somewhere"}
    assert record.result == GameResult(Termination.RESIGN, Color.BLACK)


def test_jkf_writes_presets_and_custom_data() -> None:
    """It should write `initial.preset` for named starts and `OTHER` with `data` (board[x-1][y-1], hands)."""
    handicap = json.loads(format_record(GameRecord(HANDICAPS["rook"].sfen), "jkf"))
    assert handicap["initial"] == {"preset": "HI"}
    custom = json.loads(format_record(GameRecord("4k4/9/9/9/9/9/9/9/4K4 w 2Pr 1"), "jkf"))
    data = custom["initial"]["data"]
    assert custom["initial"]["preset"] == "OTHER" and data["color"] == 1
    assert data["board"][4][0] == {"color": 1, "kind": "OU"} and data["board"][4][8] == {"color": 0, "kind": "OU"}
    assert data["hands"][0]["FU"] == 2 and data["hands"][1]["HI"] == 1


def test_usi_lines_with_position_prefix_and_sfen() -> None:
    """It should read `position sfen ... moves ...` and write `sfen ...` for a non-even start."""
    sfen = HANDICAPS["lance"].sfen
    record = parse_record(f"position sfen {sfen} moves 5a4b 7g7f\n", "usi")
    assert (record.start_sfen, record.usi_moves) == (sfen, ["5a4b", "7g7f"])
    assert format_record(record, "usi") == f"sfen {sfen} moves 5a4b 7g7f\n"
    assert format_record(GameRecord(STARTPOS_SFEN, [RecordedMove("7g7f")]), "usi") == "startpos moves 7g7f\n"


def test_parse_record_accepts_format_names() -> None:
    """It should take the format as a `RecordFormat` or its extension text."""
    assert parse_record("startpos moves 7g7f", "usi").usi_moves == ["7g7f"]
    with pytest.raises(ValueError, match="'pgn'"):
        parse_record("1. e4", "pgn")


def test_csa_output_reads_the_same_in_cshogi() -> None:
    """It should write CSA that an independent reader (cshogi's C++ parser) reads as the same game."""
    import cshogi
    import cshogi.CSA

    moves = ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e", "5a4b", "4e3d", "2b3c", "3d2c", "3c2b", "2c1b+"]
    record = GameRecord(STARTPOS_SFEN, moves=[RecordedMove(m, float(i)) for i, m in enumerate(moves)])
    record.result = GameResult(Termination.RESIGN, Color.BLACK)
    parsed = cshogi.CSA.Parser.parse_str(format_record(record, "csa"))[0]
    assert [cshogi.move_to_usi(m) for m in parsed.moves] == moves
    assert list(parsed.times) == list(range(len(moves)))
    assert parsed.endgame == "%TORYO"


def test_csa_writes_free_text_time_control_as_remarks_not_invented_numbers() -> None:
    """It should not turn a free-text time control (`10分切れ負け`) into a `$TIME` figure it cannot know."""
    record = GameRecord(STARTPOS_SFEN, headers={HeaderKey.TIME_CONTROL: "10分切れ負け", HeaderKey.BYOYOMI: "10"})
    lines = format_record(record, "csa").splitlines()
    assert not any(line.startswith("$TIME") for line in lines)
    assert "'持ち時間：10分切れ負け" in lines and "'秒読み：10" in lines


def test_ki2_dragons_use_left_right_not_straight() -> None:
    """It should write 右/左 (never 直) to tell two dragons apart, and read it back."""
    sfen = "k8/9/9/5+R3/4+R4/9/9/9/8K b - 1"
    assert _ki2_moves(sfen, "5e5c") == "▲５三龍左"
    assert _ki2_moves(sfen, "4d5c") == "▲５三龍右"
    for usi in ("5e5c", "4d5c"):
        record = parse_record(format_record(GameRecord(sfen, moves=[RecordedMove(usi)]), "ki2"), "ki2")
        assert record.usi_moves == [usi]
