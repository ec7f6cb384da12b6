"""Spoken announcements (optional, off by default): moves in Japanese or English, check, byoyomi countdown.

Owns: turning game facts into sentences and handing them to a speech engine: espeak-ng (English, or its Japanese
voice) or Open JTalk (Japanese; needs an HTS voice file, which Debian does not package). A missing program is a
clear `SpeechUnavailableError` naming what to install, never silence pretending to work.
"""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from controller.records.ki2 import ki2_move_text
from controller.records.tracker import Tracker
from controller.rules.types import Color

ENGLISH_KINDS = {
    "FU": "pawn", "KY": "lance", "KE": "knight", "GI": "silver", "KI": "gold", "KA": "bishop", "HI": "rook",
    "OU": "king", "TO": "tokin", "NY": "promoted lance", "NK": "promoted knight", "NG": "promoted silver",
    "UM": "horse", "RY": "dragon",
    "P": "pawn", "L": "lance", "N": "knight", "S": "silver", "G": "gold", "B": "bishop", "R": "rook",
}  # fmt: skip
PACKAGES = {"espeak-ng": "espeak-ng", "open_jtalk": "open-jtalk open-jtalk-mecab-naist-jdic"}


class SpeechUnavailableError(RuntimeError):
    """The speech program (or its voice) is not installed; the message says what to install."""


class Speaker(Protocol):
    """Something that says a sentence."""

    def say(self, text: str) -> None:
        """Speak (or queue) `text`."""
        ...


@dataclass
class RecordingSpeaker:
    """Keeps what it was asked to say (tests, and the web page's transcript)."""

    said: list[str] = field(default_factory=list)

    def say(self, text: str) -> None:
        """Remember `text`."""
        self.said.append(text)


class EspeakSpeaker:
    """espeak-ng, to the sound card or to a WAV file."""

    def __init__(self, language: str = "en", wav_path: Path | None = None) -> None:
        self._program = _require("espeak-ng")
        self.language = language
        self.wav_path = wav_path

    def say(self, text: str) -> None:
        """Speak `text` (blocking until espeak-ng has rendered it)."""
        out = ["-w", str(self.wav_path)] if self.wav_path else []
        subprocess.run([self._program, "-v", self.language, *out, text], check=True, capture_output=True, timeout=30)


class OpenJTalkSpeaker:
    """Open JTalk (Japanese) writing WAV files; needs the NAIST dictionary and an HTS voice file."""

    def __init__(
        self, voice: Path, wav_path: Path, dictionary: Path = Path("/var/lib/mecab/dic/open-jtalk/naist-jdic")
    ) -> None:
        self._program = _require("open_jtalk")
        if not voice.is_file():
            raise SpeechUnavailableError(f"Open JTalk needs an HTS voice file; {voice} does not exist")
        if not dictionary.is_dir():
            raise SpeechUnavailableError(
                f"Open JTalk dictionary {dictionary} missing: install open-jtalk-mecab-naist-jdic"
            )
        self.voice, self.wav_path, self.dictionary = voice, wav_path, dictionary

    def say(self, text: str) -> None:
        """Render `text` to the WAV file."""
        argv = [self._program, "-x", str(self.dictionary), "-m", str(self.voice), "-ow", str(self.wav_path)]
        subprocess.run(argv, input=text.encode("utf-8"), check=True, capture_output=True, timeout=30)


def _require(program: str) -> str:
    path = shutil.which(program)
    if path is None:
        raise SpeechUnavailableError(f"{program} is not installed (Debian: apt-get install {PACKAGES[program]})")
    return path


def announce_move(start_sfen: str, moves: list[str], language: str = "ja") -> str:
    """The sentence for the last of `moves`: `先手 ７六歩` or `Black: pawn to 7f` (with check when it checks)."""
    tracker = Tracker(start_sfen)
    for usi in moves[:-1]:
        tracker.play(usi)
    facts = tracker.facts(moves[-1])
    if language == "ja":
        side = "先手" if facts.turn is Color.BLACK else "後手"
        text = f"{side} {ki2_move_text(facts, tracker)}"
    else:
        side = "Black" if facts.turn is Color.BLACK else "White"
        verb = "drops" if facts.src is None else "to"
        promotion = ", promotes" if facts.promotion else ""
        target = moves[-1][2:4]
        text = f"{side}: {ENGLISH_KINDS.get(facts.piece, facts.piece)} {verb} {target}{promotion}"
    tracker.play(moves[-1])
    if tracker.board.is_check():
        text += "、王手" if language == "ja" else ". Check."
    return text


def byoyomi_call(seconds_left: int, language: str = "ja") -> str | None:
    """The byoyomi call for this second, or None: `30秒`/`20秒`/`10秒` left, then the Japanese count of the last ten
    seconds (`1` with nine left ... `9` with one left; English counts down the seconds left)."""
    if seconds_left in (30, 20, 10):
        return f"{seconds_left}秒" if language == "ja" else f"{seconds_left} seconds"
    if 1 <= seconds_left <= 9:
        return str(10 - seconds_left) if language == "ja" else str(seconds_left)
    return None
