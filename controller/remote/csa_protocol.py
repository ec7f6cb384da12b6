"""The CSA server protocol 1.2 as a client speaks it: pure parsing of server lines and formatting of commands.

Owns: the text of the protocol (LOGIN, Game_Summary, AGREE/START, moves with times, `#` results, `%` specials,
keep-alives). Moves are converted between CSA (`+7776FU`) and USI (`7g7f`) against a cshogi board. No sockets here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import cshogi

from controller.rules.errors import IllegalMoveError
from controller.rules.game import push_checked
from controller.rules.types import Color, GameResult, Termination

_MOVE = re.compile(r"^([+-])(\d{4}[A-Z]{2})(?:,T(\d+))?(?:,'.*)?$")
RESULT_REASONS = {
    "#RESIGN": Termination.RESIGN,
    "#TIME_UP": Termination.TIMEOUT,
    "#ILLEGAL_MOVE": Termination.ILLEGAL_MOVE,
    "#SENNICHITE": Termination.REPETITION,
    "#OUTE_SENNICHITE": Termination.PERPETUAL_CHECK,
    "#JISHOGI": Termination.IMPASSE_WIN,
    "#MAX_MOVES": Termination.MAX_MOVES,
    "#CENSORED": Termination.ABORT,
    "#CHUDAN": Termination.ABORT,
}
OUTCOMES = ("#WIN", "#LOSE", "#DRAW", "#CENSORED")


class CsaProtocolError(ValueError):
    """The server said something this client cannot accept (names the line)."""


@dataclass(frozen=True)
class TimeRules:
    """A CSA time control, in seconds (`Time_Unit:1sec`)."""

    total_s: int = 0
    byoyomi_s: int = 0
    increment_s: int = 0
    least_per_move_s: int = 0


@dataclass(frozen=True)
class GameSummary:
    """What `BEGIN Game_Summary ... END Game_Summary` announces.

    Attributes:
        game_id: the server's id for the game (sent back with AGREE).
        black, white: player names.
        my_side: the side this client plays.
        start_sfen: the starting position (handicaps and `P1..P9` positions included).
        moves: moves already played before the game resumes (USI), from the Position block.
        times: time rules (the same for both sides unless the server says otherwise).
        max_moves: the server's move cap (0 = none).
    """

    game_id: str
    black: str
    white: str
    my_side: Color
    start_sfen: str
    moves: tuple[str, ...] = ()
    times: TimeRules = field(default_factory=TimeRules)
    max_moves: int = 0


@dataclass(frozen=True)
class MoveEcho:
    """A move as the server confirms it to both players: side, CSA text and seconds the mover used."""

    side: Color
    csa: str
    seconds: int


@dataclass(frozen=True)
class GameEnd:
    """The `#REASON` + `#WIN|#LOSE|#DRAW` pair that ends a game, from this client's point of view."""

    reason: str
    outcome: str

    def result(self, my_side: Color) -> GameResult:
        """The result as a record stores it."""
        termination = RESULT_REASONS.get(self.reason, Termination.ABORT)
        if self.outcome == "#WIN":
            return GameResult(termination, my_side, self.reason)
        if self.outcome == "#LOSE":
            return GameResult(termination, my_side.opponent, self.reason)
        if termination is Termination.IMPASSE_WIN:
            termination = Termination.IMPASSE_DRAW
        return GameResult(termination, None, self.reason)


def parse_move(line: str) -> MoveEcho | None:
    """A move line (`+7776FU,T3`), or None if the line is not one."""
    match = _MOVE.match(line)
    if match is None:
        return None
    sign, body, seconds = match.groups()
    return MoveEcho(Color.BLACK if sign == "+" else Color.WHITE, body, int(seconds or 0))


def csa_to_usi(board: cshogi.Board, side: Color, body: str) -> str:
    """The USI form of CSA move `body` (`7776FU`) for `side` on `board`; IllegalMoveError if it is not legal."""
    if Color.from_cshogi(board.turn) is not side:
        raise IllegalMoveError(
            f"{body} is {side.name.lower()}'s move, but it is not their turn", usi=body, reason="turn"
        )
    move = board.move_from_csa(body)
    if move == 0 or move not in set(board.legal_moves):
        raise IllegalMoveError(f"the CSA move {body} is not legal here", usi=body, reason="illegal")
    return str(cshogi.move_to_usi(move))


def usi_to_csa(board: cshogi.Board, usi: str) -> str:
    """The CSA command for legal move `usi` on `board` (with its sign), e.g. `+7776FU`."""
    move = board.move_from_usi(usi)
    if move == 0 or move not in set(board.legal_moves):
        raise IllegalMoveError(f"{usi} is not legal here", usi=usi, reason="illegal")
    sign = "+" if board.turn == cshogi.BLACK else "-"
    return sign + str(cshogi.move_to_csa(move))


def parse_summary(lines: list[str]) -> GameSummary:
    """Parse the lines between `BEGIN Game_Summary` and `END Game_Summary` (exclusive)."""
    fields: dict[str, str] = {}
    position: list[str] = []
    section = ""
    for line in lines:
        if line.startswith("BEGIN "):
            section = line[6:]
        elif line.startswith("END "):
            section = ""
        elif section == "Position":
            position.append(line)
        elif ":" in line:
            key, _, value = line.partition(":")
            fields[f"{section}.{key}" if section else key] = value
    for key in ("Game_ID", "Name+", "Name-", "Your_Turn"):
        if key not in fields:
            raise CsaProtocolError(f"Game_Summary has no {key} line")
    start_sfen, moves = _read_position(position)
    return GameSummary(
        game_id=fields["Game_ID"],
        black=fields["Name+"],
        white=fields["Name-"],
        my_side=Color.BLACK if fields["Your_Turn"] == "+" else Color.WHITE,
        start_sfen=start_sfen,
        moves=tuple(moves),
        times=_time_rules(fields),
        max_moves=int(fields.get("Max_Moves", "0") or 0),
    )


def _time_rules(fields: dict[str, str]) -> TimeRules:
    unit = fields.get("Time.Time_Unit", fields.get("Time_Unit", "1sec"))
    if unit not in ("1sec", "1"):
        raise CsaProtocolError(f"unsupported Time_Unit {unit!r} (only 1sec)")

    def get(name: str) -> int:
        value = fields.get(f"Time.{name}", fields.get(name, "0"))
        if not value.isdigit():
            raise CsaProtocolError(f"Game_Summary {name} is not a whole number: {value!r}")
        return int(value)

    return TimeRules(get("Total_Time"), get("Byoyomi"), get("Increment"), get("Least_Time_Per_Move"))


def _read_position(lines: list[str]) -> tuple[str, list[str]]:
    """The starting SFEN and the moves of a Position block, through the CSA record reader."""
    from controller.records.io import parse_record

    board_lines = [line for line in lines if parse_move(line) is None]
    move_lines = [line for line in lines if parse_move(line) is not None]
    record = parse_record("\n".join(["V2.2", *board_lines]) + "\n", "csa")
    board = cshogi.Board(record.start_sfen)
    moves = []
    for line in move_lines:
        echo = parse_move(line)
        assert echo is not None
        usi = csa_to_usi(board, echo.side, echo.csa)
        push_checked(board, usi)
        moves.append(usi)
    return record.start_sfen, moves


def login(user: str, password: str) -> str:
    """The LOGIN command (names must not contain spaces)."""
    if " " in user or " " in password or not user or not password:
        raise ValueError("CSA user and password must be non-empty and contain no spaces")
    return f"LOGIN {user} {password}"


AGREE = "AGREE"
REJECT = "REJECT"
RESIGN = "%TORYO"
DECLARE = "%KACHI"
LOGOUT = "LOGOUT"
KEEPALIVE = ""
