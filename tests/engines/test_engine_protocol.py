"""Pure USI parsing and formatting: option lines, info lines, bestmove, checkmate, go limits, engine quirks."""

from __future__ import annotations

import pytest

from controller.engines import (
    BestMove,
    BestMoveKind,
    Bound,
    EngineOption,
    EnginePosition,
    EngineUnsupported,
    GoLimits,
    MateStatus,
    OptionType,
)
from controller.engines.options import parse_option
from controller.engines.protocol import parse_bestmove, parse_checkmate, parse_info
from controller.engines.quirks import FAIRY_STOCKFISH, GENERIC, GPSSHOGI, quirks_for
from controller.engines.supervisor import spend

FAIRY_VARIANT = "option name UCI_Variant type combo default shogi var 3check var shogi var xiangqi"


def test_parse_spin_option_with_range() -> None:
    """A spin option keeps its default, min and max as numbers."""
    option = parse_option("option name Hash type spin default 16 min 1 max 131072")
    assert option == EngineOption("Hash", OptionType.SPIN, "16", 1, 131072)


def test_parse_option_name_with_spaces() -> None:
    """fairy-stockfish's option names contain spaces (`Skill Level`)."""
    option = parse_option("option name Skill Level type spin default 20 min -20 max 20")
    assert (option.name, option.min, option.max) == ("Skill Level", -20, 20)


def test_parse_combo_option_vars() -> None:
    """A combo option lists its choices in order."""
    option = parse_option(FAIRY_VARIANT)
    assert option.type is OptionType.COMBO
    assert option.vars == ("3check", "shogi", "xiangqi")
    assert option.default == "shogi"


def test_parse_check_button_string_filename_options() -> None:
    """check, button, string (`<empty>` and bare empty default) and filename options parse."""
    assert parse_option("option name Ponder type check default false").default == "false"
    assert parse_option("option name Clear Hash type button") == EngineOption("Clear Hash", OptionType.BUTTON)
    assert parse_option("option name SyzygyPath type string default <empty>").default == ""
    assert parse_option("option name Debug Log File type string default ").default == ""
    assert parse_option("option name Book type filename default my book.db").default == "my book.db"


def test_parse_option_rejects_unknown_type() -> None:
    """An unknown option type is a ValueError naming it."""
    with pytest.raises(ValueError, match="colour"):
        parse_option("option name X type colour default red")


def test_option_values_are_checked() -> None:
    """Values are checked against type, range and choices, and formatted for the wire."""
    spin = EngineOption("Hash", OptionType.SPIN, "16", 1, 1024)
    assert spin.check_value(64) == "64"
    with pytest.raises(ValueError, match="outside"):
        spin.check_value(4096)
    with pytest.raises(ValueError, match="number"):
        spin.check_value("big")
    assert EngineOption("Ponder", OptionType.CHECK).check_value(True) == "true"
    with pytest.raises(ValueError, match="true/false"):
        EngineOption("Ponder", OptionType.CHECK).check_value("yes")
    combo = EngineOption("Style", OptionType.COMBO, "A", vars=("A", "B"))
    with pytest.raises(ValueError, match="not one of"):
        combo.check_value("C")
    assert EngineOption("Clear", OptionType.BUTTON).check_value(None) is None
    with pytest.raises(ValueError, match="button"):
        EngineOption("Clear", OptionType.BUTTON).check_value(1)


def test_parse_info_fields() -> None:
    """A fairy-stockfish info line yields depth, seldepth, multipv, score, nodes, nps, time and pv."""
    info = parse_info(
        "info depth 10 seldepth 16 multipv 1 score cp -110 nodes 25523 nps 255230 hashfull 12 tbhits 0 time 100 "
        "pv 5a4b 4g4f 3c3d"
    )
    assert (info.depth, info.seldepth, info.multipv, info.nodes, info.nps) == (10, 16, 1, 25523, 255230)
    assert (info.hashfull, info.time_ms, info.pv) == (12, 100, ("5a4b", "4g4f", "3c3d"))
    assert info.score is not None and info.score.cp == -110 and not info.score.is_mate


def test_parse_info_mate_and_bounds() -> None:
    """`score mate -8`, `mate +` and lowerbound/upperbound are read."""
    mated = parse_info("info depth 8 score mate -8 pv 9i8h").score
    assert mated is not None and (mated.mate_sign, mated.mate_plies) == (-1, -8)
    assert mated.to_cp() == -(100_000 - 8)
    plus = parse_info("info score mate + upperbound").score
    assert plus is not None and plus.mate_sign == 1 and plus.mate_plies is None and plus.bound is Bound.UPPER
    lower = parse_info("info depth 3 score cp 40 lowerbound nodes 5").score
    assert lower is not None and lower.bound is Bound.LOWER and lower.cp == 40


def test_parse_info_gpsusi_huge_cp_is_mate() -> None:
    """With gpsusi's quirk a huge cp is a mate of unknown distance; without it, it stays a cp."""
    line = "info depth 2 seldepth 1 time 9 score cp 1148897 nodes 4 nps 440 pv G*5b"
    score = parse_info(line, mate_cp_threshold=GPSSHOGI.mate_cp_threshold).score
    assert score is not None and score.is_mate and score.mate_sign == 1
    plain = parse_info(line).score
    assert plain is not None and plain.cp == 1148897


def test_parse_info_string_and_malformed() -> None:
    """`info string` keeps the rest of the line; a non-number value is a ValueError."""
    assert parse_info("info string hello engine world").string == "hello engine world"
    with pytest.raises(ValueError, match="depth"):
        parse_info("info depth x score cp ?")


def test_parse_bestmove_forms() -> None:
    """bestmove with and without ponder, resign and win parse; malformed lines are rejected."""
    assert parse_bestmove("bestmove 7g7f ponder 3c3d") == BestMove(BestMoveKind.MOVE, "7g7f", "3c3d")
    assert parse_bestmove("bestmove P*5e") == BestMove(BestMoveKind.MOVE, "P*5e")
    assert parse_bestmove("bestmove resign").kind is BestMoveKind.RESIGN
    assert parse_bestmove("bestmove win").kind is BestMoveKind.WIN
    for bad in ("bestmove", "bestmove xyz", "bestmove 7g7f extra", "bestmove 0a0b"):
        with pytest.raises(ValueError):
            parse_bestmove(bad)


def test_parse_checkmate_forms() -> None:
    """checkmate with a sequence, nomate, timeout and notimplemented."""
    assert parse_checkmate("checkmate G*5b").moves == ("G*5b",)
    assert parse_checkmate("checkmate nomate").status is MateStatus.NOMATE
    assert parse_checkmate("checkmate timeout").status is MateStatus.TIMEOUT
    assert parse_checkmate("checkmate notimplemented").status is MateStatus.NOT_IMPLEMENTED
    with pytest.raises(ValueError):
        parse_checkmate("checkmate ???")


def test_go_commands() -> None:
    """Clock, increment, fixed limits, ponder and infinite become the usual `go` lines."""
    assert GoLimits(btime_ms=60000, wtime_ms=50000, byoyomi_ms=10000).go_command() == (
        "go btime 60000 wtime 50000 byoyomi 10000"
    )
    assert GoLimits(btime_ms=1000, wtime_ms=2000, binc_ms=100, winc_ms=200).go_command(ponder=True) == (
        "go ponder btime 1000 wtime 2000 binc 100 winc 200"
    )
    assert GoLimits(nodes=5000).go_command() == "go nodes 5000"
    assert GoLimits(movetime_ms=300).go_command() == "go movetime 300"
    assert GoLimits(infinite=True).go_command() == "go infinite"


def test_go_limits_reject_mixtures() -> None:
    """byoyomi with binc, a clock with a fixed limit, or negative numbers are refused."""
    with pytest.raises(ValueError, match="exclusive"):
        GoLimits(byoyomi_ms=100, binc_ms=100)
    with pytest.raises(ValueError, match="not several"):
        GoLimits(btime_ms=100, nodes=10)
    with pytest.raises(ValueError, match="negative"):
        GoLimits(movetime_ms=-1)


def test_budget_is_own_time_plus_byoyomi() -> None:
    """The time budget is the side to move's time plus byoyomi or increment."""
    limits = GoLimits(btime_ms=3000, wtime_ms=1000, byoyomi_ms=500)
    assert limits.budget_ms(black_to_move=True) == 3500
    assert limits.budget_ms(black_to_move=False) == 1500
    assert GoLimits(nodes=10).budget_ms(True) is None


def test_gpsusi_quirks_adapt_limits() -> None:
    """For gpsusi, movetime becomes byoyomi, increments become byoyomi, nodes and infinite are refused."""
    assert GPSSHOGI.adapt(GoLimits(movetime_ms=300)) == GoLimits(btime_ms=0, wtime_ms=0, byoyomi_ms=300)
    adapted = GPSSHOGI.adapt(GoLimits(btime_ms=1000, wtime_ms=1000, binc_ms=100, winc_ms=100))
    assert adapted.go_command() == "go btime 1000 wtime 1000 byoyomi 100"
    with pytest.raises(EngineUnsupported, match="nodes"):
        GPSSHOGI.adapt(GoLimits(nodes=100))
    with pytest.raises(EngineUnsupported, match="infinite"):
        GPSSHOGI.adapt(GoLimits(infinite=True))
    assert GENERIC.adapt(GoLimits(nodes=100)) == GoLimits(nodes=100)


def test_quirks_recognised_from_id_name() -> None:
    """Engines are recognised by their `id name`."""
    assert quirks_for("gpsshogi (smp) vm r3033 wordsize 64 gcc 12.2.0") is GPSSHOGI
    assert quirks_for("Fairy-Stockfish 11.1 LB 64") is FAIRY_STOCKFISH
    assert quirks_for("YaneuraOu NNUE 7.6") is GENERIC


def test_position_command() -> None:
    """The even start is sent as startpos, other starts as sfen, with the moves appended."""
    assert EnginePosition().command() == "position startpos"
    assert EnginePosition().push("7g7f", "3c3d").command() == "position startpos moves 7g7f 3c3d"
    sfen = "4k4/9/4P4/9/9/9/9/9/4K4 b G 1"
    assert EnginePosition(sfen).push("G*5b").command() == f"position sfen {sfen} moves G*5b"


def test_spend_takes_time_off_the_side_to_move() -> None:
    """After a restart the time already spent comes off the mover's clock, never below zero."""
    limits = GoLimits(btime_ms=1000, wtime_ms=5000, byoyomi_ms=200)
    assert spend(limits, 0.4, black_to_move=True).btime_ms == 600
    assert spend(limits, 9.0, black_to_move=False).wtime_ms == 0
    assert spend(GoLimits(nodes=5), 1.0, black_to_move=True) == GoLimits(nodes=5)
