"""Spoken announcements: sentences for moves, checks and byoyomi; espeak-ng really renders speech."""

from __future__ import annotations

import shutil
import wave
from pathlib import Path

import pytest

from controller.rules.positions import STARTPOS_SFEN
from controller.speech import EspeakSpeaker, OpenJTalkSpeaker, SpeechUnavailableError, announce_move, byoyomi_call


def test_japanese_move() -> None:
    """It should announce a move in Japanese notation with the side."""
    assert announce_move(STARTPOS_SFEN, ["7g7f"]) == "先手 ７六歩"
    assert announce_move(STARTPOS_SFEN, ["7g7f", "3c3d", "8h2b+"]) == "先手 ２二角成"


def test_english_move_and_check() -> None:
    """It should announce in English, and add check when the move gives check."""
    sfen = "4k4/9/9/9/9/9/9/9/4K4 b G 1"
    assert announce_move(sfen, ["G*5b"], "en") == "Black: gold drops 5b. Check."
    assert announce_move(STARTPOS_SFEN, ["7g7f"], "en") == "Black: pawn to 7f"


def test_byoyomi_calls() -> None:
    """It should call 30/20/10 seconds, then count 1..9 in the last ten seconds."""
    assert [byoyomi_call(s) for s in (30, 25, 10, 9, 1, 0)] == ["30秒", None, "10秒", "1", "9", None]


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng not installed (scripts/install-debs.sh)")
def test_espeak_renders_audio(tmp_path: Path) -> None:
    """It should produce a real WAV with speech in it."""
    out = tmp_path / "move.wav"
    EspeakSpeaker("en", out).say(announce_move(STARTPOS_SFEN, ["7g7f"], "en"))
    with wave.open(str(out)) as wav:
        assert wav.getnframes() / wav.getframerate() > 0.5


def test_missing_voice_is_explained(tmp_path: Path) -> None:
    """It should say what is missing for Open JTalk instead of staying silent."""
    with pytest.raises(SpeechUnavailableError, match=r"open_jtalk is not installed|HTS voice"):
        OpenJTalkSpeaker(tmp_path / "none.htsvoice", tmp_path / "out.wav")
