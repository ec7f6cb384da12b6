"""A scriptable fake USI engine for the client's tests: `python fake_engine.py MODE [--log FILE] [--state FILE]`.

Normal behaviour: the `usi` handshake with one option of every type, `readyok`, and for `go` a few `info` lines
then `bestmove` with the first legal move (cshogi). MODE makes it misbehave:
  normal, hang-usi (never `usiok`), hang-ready (never `readyok`), hang-go (never `bestmove`, ignores `stop`),
  die-go (exits with status 3 mid-search), die-once (die-go on the first run only, per --state file),
  garbage (noise lines around every answer), illegal (an illegal bestmove), malformed (`bestmove xyz`),
  resign, win, mate (`checkmate` for `go mate`), slow-quit (ignores `quit`).
Every command received is appended to --log, one per line, prefixed with the process id.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import cshogi

OPTIONS = [
    "option name USI_Hash type spin default 16 min 1 max 1024",
    "option name USI_Ponder type check default false",
    "option name Style type combo default Normal var Solid var Normal var Risky",
    "option name Clear Hash type button",
    "option name BookFile type filename default book.db",
    "option name Greeting type string default <empty>",
]


def say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def board_for(command: str) -> cshogi.Board:
    tokens = command.split()
    board = cshogi.Board()
    moves: list[str] = []
    if tokens[1] == "sfen":
        end = tokens.index("moves") if "moves" in tokens else len(tokens)
        board.set_sfen(" ".join(tokens[2:end]))
        moves = tokens[end + 1 :]
    elif "moves" in tokens:
        moves = tokens[tokens.index("moves") + 1 :]
    for move in moves:
        board.push_usi(move)
    return board


def answer_go(mode: str, board: cshogi.Board, command: str) -> None:
    if "mate" in command.split():
        answer = "checkmate nomate" if mode != "mate" else "checkmate G*5b"
        say(answer)
        return
    say("info depth 1 seldepth 1 score cp 12 nodes 10 nps 1000 pv " + first_legal(board))
    if mode == "garbage":
        say("info depth x score cp ?")
        say("¡garbage! \x00 line")
    if mode in ("die-go", "die-once"):
        sys.stderr.write("fake engine: simulated crash\n")
        sys.stderr.flush()
        os._exit(3)
    if mode == "hang-go":
        return
    replies = {
        "illegal": "bestmove 5e5d",
        "malformed": "bestmove xyz",
        "resign": "bestmove resign",
        "win": "bestmove win",
    }
    say(replies.get(mode, "bestmove " + first_legal(board)))


def first_legal(board: cshogi.Board) -> str:
    moves = sorted(cshogi.move_to_usi(m) for m in board.legal_moves)
    return moves[0] if moves else "resign"


class FakeEngine:
    """The fake's state: mode, current position, and whether a ponder/infinite search is waiting."""

    def __init__(self, mode: str) -> None:
        self.mode = mode
        self.board = cshogi.Board()
        self.waiting = False

    def handle(self, command: str) -> bool:
        """Answer one command; False means quit."""
        if self.mode == "garbage":
            say("random noise from the engine")
        word = command.split(maxsplit=1)[0] if command else ""
        if word == "usi":
            say("id name FakeEngine 1.0")
            say("id author tests")
            for option in OPTIONS:
                say(option)
            if self.mode != "hang-usi":
                say("usiok")
        elif word == "isready" and self.mode != "hang-ready":
            say("readyok")
        elif word == "position":
            self.board = board_for(command)
        elif word == "go":
            self.waiting = "ponder" in command.split() or "infinite" in command.split()
            if not self.waiting:
                answer_go(self.mode, self.board, command)
        elif word in ("stop", "ponderhit") and self.waiting and self.mode != "hang-go":
            self.waiting = False
            say("bestmove " + first_legal(self.board))
        elif word == "quit":
            if self.mode == "slow-quit":
                time.sleep(60)
            return False
        return True


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("mode")
    parser.add_argument("--log")
    parser.add_argument("--state")
    args = parser.parse_args()
    mode = args.mode
    if mode == "die-once":
        state = Path(args.state)
        mode = "normal" if state.exists() else mode
        state.write_text("died once\n")
    engine = FakeEngine(mode)
    log = open(args.log, "a", encoding="utf-8") if args.log else None  # noqa: SIM115
    for raw in sys.stdin:
        if log is not None:
            log.write(f"{os.getpid()} {raw.strip()}\n")
            log.flush()
        if not engine.handle(raw.strip()):
            break


if __name__ == "__main__":
    main()
