"""Round trips: the 500 lishogi games through every format, handicap and custom starts, times, comments,
headers and results, and random legal games (hypothesis)."""

from __future__ import annotations

import random
from pathlib import Path

import cshogi
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.records import RecordFormat, format_record, parse_record
from controller.records.errors import UnsupportedRecordError
from controller.rules.positions import HANDICAPS, STARTPOS_SFEN
from controller.rules.types import Color, GameRecord, GameResult, HeaderKey, RecordedMove, Termination

GAMES = Path(__file__).parents[2] / ".." / "shared" / "data" / "games" / "lishogi-500.usi"
CHAIN = ("kif", "csa", "kifu", "jkf", "ki2", "usi")
CUSTOM_SFEN = "ln5nl/1r3kg2/p1pp1p1pp/4p4/1p7/2P1P1P2/PP1P1P1PP/2G1K2R1/LN5NL b BG2Sbg2sp 1"
"""A middle-game position with pieces in both hands."""
T = Termination


def _games() -> list[str]:
    return [line for line in GAMES.read_text().splitlines() if line.strip()]


def _chain(record: GameRecord) -> GameRecord:
    """usi -> kif -> csa -> kifu -> jkf -> ki2 -> usi."""
    current = parse_record(format_record(record, "usi"), "usi")
    for fmt in CHAIN:
        current = parse_record(format_record(current, fmt), fmt)
    return current


def _random_game(sfen: str, plies: int, seed: int) -> GameRecord:
    """A legal random game (stops early at mate)."""
    board, rng, moves = cshogi.Board(sfen), random.Random(seed), []
    for _ in range(plies):
        legal = sorted(cshogi.move_to_usi(m) for m in board.legal_moves)
        if not legal:
            break
        usi = rng.choice(legal)
        board.push_usi(usi)
        moves.append(RecordedMove(usi))
    return GameRecord(sfen, moves=moves)


def test_twenty_lishogi_games_survive_the_format_chain() -> None:
    """It should convert 20 real games usi → kif → csa → kifu → jkf → ki2 → usi with identical moves."""
    for line in _games()[::25]:
        record = parse_record(f"startpos moves {line}", "usi")
        assert _chain(record).usi_moves == line.split()


@pytest.mark.slow
def test_all_500_lishogi_games_survive_the_format_chain() -> None:
    """It should convert every game of lishogi-500.usi through the whole chain with identical moves."""
    games = _games()
    assert len(games) == 500
    for index, line in enumerate(games):
        record = parse_record(f"startpos moves {line}", "usi")
        assert _chain(record).usi_moves == line.split(), f"game {index + 1}"


@pytest.mark.parametrize("name", sorted(HANDICAPS))
def test_handicap_games_keep_their_start_through_every_format(name: str) -> None:
    """It should keep each named handicap start (gote moving first) and the moves through the chain."""
    record = _random_game(HANDICAPS[name].sfen, 40, seed=len(name))
    again = _chain(record)
    assert again.start_sfen == HANDICAPS[name].sfen
    assert again.usi_moves == record.usi_moves


def test_bishop_handicap_is_written_by_name() -> None:
    """It should write a bishop handicap as `手合割：角落ち`, `PI22KA` with `-`, and JKF preset `KA`."""
    record = _random_game(HANDICAPS["bishop"].sfen, 6, seed=1)
    assert "手合割：角落ち" in format_record(record, "kif")
    assert "\nPI22KA\n-\n" in format_record(record, "csa")
    assert '"preset": "KA"' in format_record(record, "jkf")


def test_custom_position_with_hands_keeps_its_start_through_every_format() -> None:
    """It should keep a custom start with pieces in both hands (BOD, P1..P9 with P+/P-, JKF data)."""
    record = _random_game(CUSTOM_SFEN, 60, seed=7)
    for fmt in RecordFormat:
        again = parse_record(format_record(record, fmt), fmt)
        assert (again.start_sfen, again.usi_moves) == (CUSTOM_SFEN, record.usi_moves), fmt
    assert _chain(record).start_sfen == CUSTOM_SFEN


def test_custom_position_with_gote_to_move_keeps_the_side() -> None:
    """It should keep gote to move in a custom start (KIF `後手番`, CSA `-`, JKF color 1)."""
    sfen = "4k4/9/9/9/9/9/9/9/4K4 w 2P 1"
    record = GameRecord(sfen, moves=[RecordedMove("5a4b")])
    for fmt in RecordFormat:
        assert parse_record(format_record(record, fmt), fmt).start_sfen == sfen, fmt


def _full_record() -> GameRecord:
    record = _random_game(STARTPOS_SFEN, 30, seed=3)
    for index, move in enumerate(record.moves):
        move.seconds = float(index * 7 % 95)
        move.comment = f"コメント {index}" if index % 4 == 0 else ""
    record.moves[5].comment = "two lines\n*engine: 評価値 120"
    record.start_comment = "before the first move"
    record.headers = {
        HeaderKey.BLACK: "羽生 善治",
        HeaderKey.WHITE: "Player Two",
        HeaderKey.EVENT: "Test Cup",
        HeaderKey.SITE: "Tokyo",
        HeaderKey.START_TIME: "2024/05/06 10:00:00",
        HeaderKey.END_TIME: "2024/05/06 12:34:56",
        HeaderKey.TIME_CONTROL: "600",
        HeaderKey.BYOYOMI: "30",
        HeaderKey.OPENING: "矢倉",
        HeaderKey.IMPASSE_RULE: "27",
    }
    record.result = GameResult(T.RESIGN, Color.WHITE if len(record.moves) % 2 == 0 else Color.BLACK)
    return record


@pytest.mark.parametrize("seconds", [2.0004, 2.9996, 0.5, 12.25, 3.1234])
def test_csa_writes_fractional_times_that_it_can_read_back(seconds: float) -> None:
    """A time that rounds to a whole second at three decimals is written 'T2' or 'T3', never 'T2.' (which no
    reader accepts; a remote game's clock once produced 2.0004 s); others keep three decimals."""
    record = GameRecord(STARTPOS_SFEN, moves=[RecordedMove("7g7f", seconds)])
    again = parse_record(format_record(record, "csa"), "csa")
    assert again.moves[0].seconds == pytest.approx(seconds, abs=0.0005)


@pytest.mark.parametrize("fmt", ["kif", "kifu", "csa", "jkf"])
def test_times_comments_headers_and_result_round_trip(fmt: str) -> None:
    """It should keep per-move times, comments, the start comment, headers and the result."""
    record = _full_record()
    again = parse_record(format_record(record, fmt), fmt)
    assert again.moves == record.moves
    assert again.start_comment == record.start_comment
    assert again.headers == record.headers
    assert again.result == record.result


@pytest.mark.parametrize("fmt", ["ki2", "ki2u"])
def test_ki2_keeps_comments_headers_and_result_but_not_times(fmt: str) -> None:
    """It should keep KI2's share: comments, headers and the result (from the `まで` trailer); no times."""
    record = _full_record()
    again = parse_record(format_record(record, fmt), fmt)
    assert [(m.usi, m.comment) for m in again.moves] == [(m.usi, m.comment) for m in record.moves]
    assert all(m.seconds is None for m in again.moves)
    assert (again.headers, again.result, again.start_comment) == (record.headers, record.result, record.start_comment)


def test_fischer_time_control_round_trips() -> None:
    """It should keep a Fischer increment (`600+10`) through KIF (`10分（1手10秒加算）`), CSA and JKF."""
    record = GameRecord(STARTPOS_SFEN, headers={HeaderKey.TIME_CONTROL: "600+10"})
    assert "持ち時間：10分（1手10秒加算）" in format_record(record, "kif")
    assert "$TIME:600+0+10" in format_record(record, "csa")
    for fmt in ("kif", "csa", "jkf", "ki2"):
        assert parse_record(format_record(record, fmt), fmt).headers == record.headers, fmt


NATURAL = [
    (T.RESIGN, "lose"), (T.CHECKMATE, "lose"), (T.NO_LEGAL_MOVES, "lose"), (T.REPETITION, None),
    (T.IMPASSE_WIN, "win"), (T.IMPASSE_WIN, "lose"), (T.IMPASSE_DRAW, None), (T.IMPASSE_LOSE, "lose"),
    (T.TIMEOUT, "lose"), (T.ILLEGAL_MOVE, "win"), (T.ILLEGAL_MOVE, "lose"), (T.ABORT, None),
    (T.MAX_MOVES, None), (T.DRAW, None),
]  # fmt: skip
"""Every meaningful (termination, how the side to move fared) pair, except perpetual check (tested below)."""
LOSSY = {
    ("csa", T.NO_LEGAL_MOVES): T.CHECKMATE,
    ("jkf", T.NO_LEGAL_MOVES): T.CHECKMATE,
    ("csa", T.IMPASSE_LOSE): T.ILLEGAL_MOVE,
    ("jkf", T.IMPASSE_LOSE): T.ILLEGAL_MOVE,
}
"""What CSA and JKF, having no word for it, record instead (the winner is kept)."""


@pytest.mark.parametrize("fmt", ["kif", "ki2", "csa", "jkf"])
@pytest.mark.parametrize(("termination", "relation"), NATURAL)
def test_every_result_round_trips_or_is_refused(fmt: str, termination: Termination, relation: str | None) -> None:
    """It should keep each result, or record the documented nearest one, or refuse it plainly."""
    record = GameRecord(STARTPOS_SFEN, moves=[RecordedMove("7g7f"), RecordedMove("3c3d")])
    winner = {"win": Color.BLACK, "lose": Color.WHITE, None: None}[relation]
    record.result = GameResult(termination, winner)
    if fmt in ("csa", "jkf") and (termination, relation) == (T.IMPASSE_WIN, "lose"):
        with pytest.raises(UnsupportedRecordError):
            format_record(record, fmt)
        return
    again = parse_record(format_record(record, fmt), fmt)
    assert again.result == GameResult(LOSSY.get((fmt, termination), termination), winner)


PERPETUAL_SFEN = "8k/9/9/9/9/9/9/9/K6R1 b - 1"
PERPETUAL_MOVES = ["2i1i", "1a2b", "1i2i", "2b1a"] * 3
"""Sente's rook checks on every move while gote's king shuffles: the fourth occurrence comes at ply 12."""


@pytest.mark.parametrize("fmt", ["kif", "ki2", "csa", "jkf"])
def test_perpetual_check_round_trips_with_the_checker_losing(fmt: str) -> None:
    """It should keep a perpetual-check result; CSA/JKF `OUTE_SENNICHITE` gets its winner from the moves."""
    record = GameRecord(PERPETUAL_SFEN, moves=[RecordedMove(m) for m in PERPETUAL_MOVES])
    record.result = GameResult(T.PERPETUAL_CHECK, Color.WHITE)
    again = parse_record(format_record(record, fmt), fmt)
    assert again.result == record.result


def test_kif_trailer_counts_and_words() -> None:
    """It should write the terminal word as the next move number and a `まで N手で…` trailer."""
    record = _full_record()
    text = format_record(record, "kif").splitlines()
    assert text[-2] == f"{len(record.moves) + 1:>4} 投了"
    winner = "先手" if record.result and record.result.winner is Color.BLACK else "後手"
    assert text[-1] == f"まで{len(record.moves)}手で{winner}の勝ち"


@st.composite
def _games_strategy(draw: st.DrawFn) -> GameRecord:
    start = draw(st.sampled_from([STARTPOS_SFEN, HANDICAPS["rook"].sfen, CUSTOM_SFEN]))
    board, moves = cshogi.Board(start), []
    for _ in range(draw(st.integers(0, 40))):
        legal = sorted(cshogi.move_to_usi(m) for m in board.legal_moves)
        if not legal:
            break
        usi = draw(st.sampled_from(legal))
        board.push_usi(usi)
        seconds = draw(st.one_of(st.none(), st.integers(0, 4000).map(float)))
        comment = draw(st.sampled_from(["", "好手", "a\nb", "*解析 評価値 -30", " indented"]))
        moves.append(RecordedMove(usi, seconds, comment))
    if draw(st.booleans()) and moves:
        for move in moves:
            move.seconds = None
    return GameRecord(start, moves=moves)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_games_strategy(), st.sampled_from(["kif", "kifu", "csa", "jkf"]))
def test_random_legal_games_round_trip(record: GameRecord, fmt: str) -> None:
    """It should keep the start, moves, whole-second times and comments of any legal game."""
    again = parse_record(format_record(record, fmt), fmt)
    assert again.start_sfen == record.start_sfen
    assert again.moves == record.moves


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_games_strategy())
def test_random_legal_games_round_trip_through_ki2(record: GameRecord) -> None:
    """It should write KI2 moves (relative modifiers, 打, 成/不成) that read back as the same moves."""
    again = parse_record(format_record(record, "ki2"), "ki2")
    assert (again.start_sfen, again.usi_moves) == (record.start_sfen, record.usi_moves)
    assert [m.comment for m in again.moves] == [m.comment for m in record.moves]
