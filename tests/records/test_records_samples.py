"""Realistic KIF files, in the styles of Kifu for Windows, Shogi Wars, 81Dojo, lishogi and ShogiHome, and a
custom position with a BOD diagram: each reads as expected and survives a trip through every format."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from controller.records import RecordFormat, format_record, parse_record, read_record
from controller.records.headers import CSA_KEY_OF
from controller.rules.positions import HANDICAPS, STARTPOS_SFEN
from controller.rules.types import Color, GameRecord, GameResult, HeaderKey, Termination

DATA = Path(__file__).parent / "data"
SAMPLES = sorted(p.name for p in DATA.iterdir())


def test_kifu_for_windows_sjis_crlf_keeps_the_main_line_headers_times_and_comments() -> None:
    """It should read a Shift_JIS, CRLF Kifu for Windows file: main line only, 王 as the king, 打, 不成, 同."""
    data = (DATA / "kifu-for-windows-variations.kif").read_bytes()
    assert b"\r\n" in data and "同　銀".encode("cp932") in data
    record = read_record(DATA / "kifu-for-windows-variations.kif")
    assert record.usi_moves == ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e", "5a4b", "4e3d", "2b3c", "3d2c"]
    assert record.result == GameResult(Termination.RESIGN, Color.BLACK)
    assert record.headers[HeaderKey.BLACK] == "先手太郎"
    assert record.headers[HeaderKey.TIME_CONTROL] == "3600"
    assert record.headers[HeaderKey.BYOYOMI] == "30"
    assert record.headers[HeaderKey.START_TIME] == "2024/02/03 10:00:00"
    assert record.start_comment == "対局開始前のコメント"
    assert record.moves[0].comment == "初手のコメント\n*解析 0 ▲７六歩(77) 評価値 50"
    assert [m.seconds for m in record.moves][:6] == [16, 5, 10, 3, 60, 120]


def test_shogi_wars_timeout_is_read_with_its_winner() -> None:
    """It should read Shogi Wars' `切れ負け` terminal line as a time-out won by the other side."""
    record = read_record(DATA / "shogi-wars.kif")
    assert len(record.moves) == 7
    assert record.result == GameResult(Termination.TIMEOUT, Color.BLACK)
    assert record.headers[HeaderKey.TIME_CONTROL] == "10分切れ負け"


def test_81dojo_kif_with_utf8_header_is_read_as_utf8() -> None:
    """It should read a `.kif` that declares `#KIF version=2.0 encoding=UTF-8` as UTF-8, with unpadded times."""
    record = read_record(DATA / "81dojo.kif")
    assert record.usi_moves == ["7g7f", "8c8d", "7i6h", "8d8e", "6h7g"]
    assert [m.seconds for m in record.moves] == [3, 5, 2, 1, 4]
    assert record.headers[HeaderKey.SITE] == "81Dojo"
    assert record.result == GameResult(Termination.RESIGN, Color.BLACK)


def test_lishogi_kif_with_bom_and_crlf() -> None:
    """It should read a UTF-8 file with a BOM and Windows line ends, and a terminal line without a time."""
    record = read_record(DATA / "lishogi-bom-crlf.kif")
    assert record.usi_moves == ["2g2f", "8c8d", "2f2e", "8d8e", "6i7h"]
    assert record.headers[HeaderKey.WHITE] == "gote_player"
    assert record.result == GameResult(Termination.RESIGN, Color.BLACK)


def test_shogihome_handicap_game_starts_with_gote() -> None:
    """It should start a `手合割：角落ち` game from the bishop handicap, gote first, 下手/上手 as the players."""
    record = read_record(DATA / "shogihome-handicap.kifu")
    assert record.start_sfen == HANDICAPS["bishop"].sfen
    assert record.usi_moves == ["3c3d", "7g7f", "4c4d"]
    assert record.headers[HeaderKey.BLACK] == "lower_player"
    assert record.headers[HeaderKey.WHITE] == "upper_player"
    assert record.result == GameResult(Termination.ABORT, None)
    assert record.moves[1].comment == "下手の作戦"


def test_custom_bod_position_with_hands_and_gote_to_move() -> None:
    """It should build the start from the BOD diagram, both hands and `後手番`, not the even start."""
    record = read_record(DATA / "custom-bod.kif")
    assert record.start_sfen == "7nl/6gk1/6ppp/9/9/9/6PPP/6G2/7KL w BSN2Pr2gs3p 1"
    assert record.usi_moves == ["2c2d", "B*3e", "1c1d", "3e2d"]
    assert record.headers["表題"] == "詰みのある局面"


def test_kifu_for_windows_ki2_in_shift_jis() -> None:
    """It should read a Shift_JIS KI2 file with six moves per line, 同, implied drops and the trailer result."""
    record = read_record(DATA / "kifu-for-windows.ki2")
    assert len(record.moves) == 18
    assert record.usi_moves[9:12] == ["2c2d", "2h2d", "P*2c"]
    assert record.moves[11].comment == "飛車先の歩交換"
    assert record.result == GameResult(Termination.RESIGN, Color.WHITE)


def test_shogi_server_csa_record() -> None:
    """It should read a shogi-server V2 record: empty P+/P- lines, remarks, T0 times, %TORYO."""
    record = read_record(DATA / "shogi-server.csa")
    assert record.usi_moves == ["7g7f", "3c3d", "8h2b+", "3a2b", "B*5e"]
    assert [m.seconds for m in record.moves] == [0, 0, 1, 0, 2]
    assert record.headers[HeaderKey.EVENT].startswith("test+test-600-10")
    assert record.result == GameResult(Termination.RESIGN, Color.BLACK)


def _kept(record: GameRecord, fmt: RecordFormat) -> tuple[object, ...]:
    """What format `fmt` is able to keep of a record."""
    if fmt is RecordFormat.USI:
        return (record.start_sfen, record.usi_moves)
    times = [None if m.seconds is None else int(m.seconds) for m in record.moves]
    if fmt in (RecordFormat.KI2, RecordFormat.KI2U):
        times = []
    headers = dict(record.headers)
    if fmt is RecordFormat.CSA:
        csa_keys = {*CSA_KEY_OF, HeaderKey.BLACK, HeaderKey.WHITE, HeaderKey.TIME_CONTROL, HeaderKey.BYOYOMI}
        headers = {k: v for k, v in headers.items() if k in csa_keys}
        if not re.fullmatch(r"[0-9.]+(\+[0-9.]+)?", headers.get(HeaderKey.TIME_CONTROL, "0")):
            del headers[HeaderKey.TIME_CONTROL]  # free text such as 10分切れ負け has no CSA field
    comments = [m.comment for m in record.moves]
    return (record.start_sfen, record.usi_moves, times, comments, record.start_comment, headers, record.result)


@pytest.mark.parametrize("name", SAMPLES)
@pytest.mark.parametrize("fmt", list(RecordFormat))
def test_samples_survive_every_format(name: str, fmt: RecordFormat) -> None:
    """It should keep, through each format, everything that format can hold of each sample."""
    record = read_record(DATA / name)
    again = parse_record(format_record(record, fmt), fmt)
    assert _kept(again, fmt) == _kept(record, fmt)


def test_even_samples_start_from_the_even_position() -> None:
    """It should use the even start when a file names `手合割：平手` or no handicap at all."""
    assert read_record(DATA / "shogi-wars.kif").start_sfen == STARTPOS_SFEN
    assert read_record(DATA / "lishogi-bom-crlf.kif").start_sfen == STARTPOS_SFEN


def test_empty_hand_lines_without_a_diagram_keep_the_named_start() -> None:
    """It should ignore `先手の持駒：なし` lines that come without a board diagram, keeping `手合割`."""
    text = "手合割：香落ち\n後手の持駒：なし\n先手の持駒：なし\n   1 ５二玉(51)\n"
    record = parse_record(text, "kif")
    assert record.start_sfen == HANDICAPS["lance"].sfen
    assert record.usi_moves == ["5a5b"]
