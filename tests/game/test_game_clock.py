"""Game clocks: sudden death, byoyomi with periods, Fischer increment, untimed; USI go arguments; display."""

from __future__ import annotations

import math

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from controller.game.clock import (
    ClockConfig,
    ClockKind,
    GameClock,
    GoArgs,
    countdown_calls,
    display,
    format_hms,
    spoken,
)
from controller.game.errors import ClockError
from controller.rules.types import Color

B, W = Color.BLACK, Color.WHITE


def test_sudden_death_charges_and_flags() -> None:
    """It should charge the mover and flag a side only when its time is strictly exceeded."""
    clock = GameClock.new(ClockConfig(main_s=60)).start(B, 100.0)
    assert clock.flagged(160.0) is None
    assert clock.flagged(160.001) is B
    stopped, move = clock.stop(130.0)
    assert (move.side, move.spent_s, move.after.main_s, move.flagged) == (B, 30.0, 30.0, False)
    assert stopped.running is None and stopped.flagged(1e9) is None


def test_press_switches_sides() -> None:
    """It should stop the mover and start the opponent on a press."""
    clock = GameClock.new(ClockConfig(main_s=60)).start(B, 0.0)
    clock, move = clock.press(10.0)
    assert move.side is B and clock.running is W and clock.started_at == 10.0
    assert clock.remaining(W, 25.0) == pytest.approx(45.0)
    assert clock.remaining(B, 25.0) == pytest.approx(50.0)


def test_byoyomi_period_resets_each_move() -> None:
    """It should give a full byoyomi period for each move once the main time is gone."""
    clock = GameClock.new(ClockConfig(main_s=10, byoyomi_s=30)).start(B, 0.0)
    reading = clock.reading(B, 25.0)
    assert (reading.main_s, reading.byoyomi_s, reading.flagged) == (0.0, pytest.approx(15.0), False)
    clock, move = clock.stop(39.0)
    assert move.after == move.after.__class__(0.0, 1, 39.0) and not move.flagged
    clock = clock.start(B, 100.0)
    assert clock.reading(B, 129.0).byoyomi_s == pytest.approx(1.0)
    assert clock.flagged(130.0) is None
    assert clock.flagged(130.5) is B


def test_byoyomi_periods_are_used_up() -> None:
    """It should use one period per started period beyond the current one and flag after the last."""
    clock = GameClock.new(ClockConfig(main_s=0, byoyomi_s=10, periods=3)).start(W, 0.0)
    assert clock.reading(W, 15.0).periods == 2
    assert clock.reading(W, 15.0).byoyomi_s == pytest.approx(5.0)
    clock, move = clock.stop(15.0)
    assert move.after.periods == 2 and not move.flagged
    clock = clock.start(W, 0.0)
    assert clock.remaining(W, 0.0) == pytest.approx(20.0)
    assert clock.flagged(20.0) is None and clock.flagged(20.01) is W
    _, late = clock.stop(25.0)
    assert late.flagged and late.after.periods == 0


def test_fischer_increment_added_after_move() -> None:
    """It should add the increment after each move made in time."""
    clock = GameClock.new(ClockConfig(main_s=60, increment_s=5)).start(B, 0.0)
    clock, move = clock.stop(20.0)
    assert move.after.main_s == pytest.approx(45.0)
    clock, late = clock.start(B, 0.0).stop(46.0)
    assert late.flagged and late.after.main_s == 0.0


def test_untimed_measures_and_never_flags() -> None:
    """It should measure time used per side and never flag, and send no go clock."""
    clock = GameClock.new(ClockConfig(untimed=True)).start(B, 0.0)
    assert clock.flagged(1e7) is None and math.isinf(clock.remaining(B, 5.0))
    assert clock.go_args(5.0) is None
    clock, move = clock.stop(75.0)
    assert move.after.used_s == 75.0 and display(clock.reading(B, 0.0)) == "used 01:15"


def test_per_side_configs() -> None:
    """It should keep a different time control for gote when given."""
    clock = GameClock.new(ClockConfig(main_s=600), ClockConfig(main_s=300))
    assert clock.remaining(B, 0.0) == 600 and clock.remaining(W, 0.0) == 300


def test_go_args_byoyomi() -> None:
    """It should derive btime/wtime/byoyomi with the running side's elapsed time deducted."""
    clock = GameClock.new(ClockConfig(main_s=300, byoyomi_s=10)).start(W, 0.0)
    args = clock.go_args(12.3456)
    assert args == GoArgs(300000, 287654, byoyomi_ms=10000)
    assert args.usi() == "btime 300000 wtime 287654 byoyomi 10000"


def test_go_args_fischer() -> None:
    """It should derive binc/winc for a Fischer clock and no byoyomi."""
    clock = GameClock.new(ClockConfig(main_s=60, increment_s=2.5))
    args = clock.go_args(0.0)
    assert args is not None and args.usi() == "btime 60000 wtime 60000 binc 2500 winc 2500"


@pytest.mark.parametrize(
    ("kwargs", "needle"),
    [
        ({"main_s": -1}, "main_s"),
        ({"main_s": math.nan}, "main_s"),
        ({"byoyomi_s": 10, "increment_s": 5}, "exclusive"),
        ({"periods": 0}, "periods"),
        ({"main_s": 0}, "no time"),
        ({"byoyomi_s": 4000}, "byoyomi_s"),
    ],
)
def test_config_validation(kwargs: dict[str, float], needle: str) -> None:
    """It should refuse impossible time controls with a message naming the field."""
    with pytest.raises(ClockError, match=needle):
        ClockConfig(**kwargs)  # type: ignore[arg-type]


def test_kinds_and_description() -> None:
    """It should name the family and describe the control."""
    assert ClockConfig(main_s=600, byoyomi_s=30).kind is ClockKind.BYOYOMI
    assert ClockConfig(main_s=600, byoyomi_s=30).describe() == "10:00 + 30 s byoyomi"
    assert ClockConfig(main_s=300, increment_s=5).describe() == "05:00 + 5 s/move"
    assert ClockConfig(main_s=60).kind is ClockKind.SUDDEN_DEATH


def test_start_and_stop_misuse() -> None:
    """It should refuse to start a second clock or stop a stopped one."""
    clock = GameClock.new(ClockConfig()).start(B, 0.0)
    with pytest.raises(ClockError, match="running"):
        clock.start(W, 1.0)
    with pytest.raises(ClockError, match="no clock"):
        GameClock.new(ClockConfig()).stop(1.0)
    with pytest.raises(ClockError, match="before"):
        clock.stop(-1.0)


def test_display_and_spoken_forms() -> None:
    """It should show mm:ss rounded up, a byoyomi countdown, and matching sentences."""
    clock = GameClock.new(ClockConfig(main_s=600, byoyomi_s=30, periods=3)).start(B, 0.0)
    assert display(clock.reading(B, 1.5)) == "09:59"
    assert spoken(clock.reading(B, 1.5)) == "9 minutes 59 seconds"
    assert display(clock.reading(B, 603.2)) == "B 27 x3"
    assert spoken(clock.reading(B, 603.2)) == "byoyomi, 27 seconds, 3 periods left"
    assert display(clock.reading(B, 700.0)) == "00:00 flag" and spoken(clock.reading(B, 700.0)) == "time is up"
    assert format_hms(3725) == "1:02:05"


def test_countdown_calls_in_main_time_and_byoyomi() -> None:
    """It should call the thresholds crossed: minutes and seconds left, byoyomi, periods, last seconds."""
    clock = GameClock.new(ClockConfig(main_s=70, byoyomi_s=30, periods=2)).start(B, 0.0)

    def calls(t0: float, t1: float) -> list[str]:
        return countdown_calls(clock.reading(B, t0), clock.reading(B, t1))

    assert calls(9.0, 10.5) == ["1 minute"]
    assert calls(59.0, 61.0) == ["10 seconds"]
    assert calls(64.0, 66.0) == []
    assert calls(69.5, 70.5) == ["byoyomi"]
    assert calls(89.5, 90.5) == ["10 seconds"]
    assert calls(95.5, 96.5) == ["4"]
    assert calls(99.5, 100.5) == ["last period"]
    assert calls(125.5, 126.5) == ["4"]
    assert calls(129.5, 131.0) == []


def test_countdown_calls_sudden_death_counts_the_last_seconds() -> None:
    """It should count the last five seconds when no byoyomi follows."""
    clock = GameClock.new(ClockConfig(main_s=20)).start(W, 0.0)
    assert countdown_calls(clock.reading(W, 14.5), clock.reading(W, 17.5)) == ["5", "4", "3"]


def test_go_args_feed_the_engine_client() -> None:
    """It should give arguments the USI client's GoLimits takes field for field, with the same `go` line."""
    from dataclasses import asdict

    from controller.engines.protocol import GoLimits

    for config in (ClockConfig(main_s=90, byoyomi_s=5), ClockConfig(main_s=60, increment_s=1)):
        args = GameClock.new(config).start(W, 0.0).go_args(2.5)
        assert args is not None
        assert GoLimits(**asdict(args)).go_command() == "go " + args.usi()


@given(
    main=st.floats(0, 600),
    byoyomi=st.sampled_from([0.0, 10.0, 30.0]),
    periods=st.integers(1, 3),
    increment=st.sampled_from([0.0, 5.0]),
    spent=st.floats(0, 1000),
)
def test_charge_agrees_with_reading(main: float, byoyomi: float, periods: int, increment: float, spent: float) -> None:
    """It should charge a move exactly as the face read at that instant showed, and flag in both or neither."""
    assume(not (byoyomi and increment) and main + byoyomi + increment > 0)
    config = ClockConfig(main_s=main, byoyomi_s=byoyomi, increment_s=increment, periods=periods)
    clock = GameClock.new(config).start(B, 100.0)
    reading = clock.reading(B, 100.0 + spent)
    _, move = clock.stop(100.0 + spent)
    assert move.flagged == reading.flagged == (clock.flagged(100.0 + spent) is B)
    if not move.flagged:
        assert move.after.main_s == pytest.approx(reading.main_s + increment)
        assert move.after.periods == (reading.periods if byoyomi else periods)
        assert clock.remaining(B, 100.0 + spent) >= 0
