"""Small value types shared by rules, records and the game: colours, results, recorded moves and games."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field


class Color(enum.StrEnum):
    """A side. Values are the SFEN side-to-move letters."""

    BLACK = "b"
    """Sente, who moves first in an even game (uppercase pieces in SFEN)."""
    WHITE = "w"
    """Gote (lowercase pieces in SFEN); moves first in a handicap game."""

    @property
    def opponent(self) -> Color:
        """The other side."""
        return Color.WHITE if self is Color.BLACK else Color.BLACK

    @classmethod
    def from_cshogi(cls, turn: int) -> Color:
        """Convert cshogi's BLACK=0 / WHITE=1."""
        return cls.BLACK if turn == 0 else cls.WHITE

    def to_cshogi(self) -> int:
        """cshogi's colour number (BLACK=0, WHITE=1)."""
        return 0 if self is Color.BLACK else 1


class Termination(enum.StrEnum):
    """How a game ended."""

    RESIGN = "resign"
    CHECKMATE = "checkmate"
    NO_LEGAL_MOVES = "no_legal_moves"
    """The side to move has no legal move without being in check (loses, like mate)."""
    REPETITION = "repetition"
    """Sennichite: the fourth occurrence of a position, a draw."""
    PERPETUAL_CHECK = "perpetual_check"
    """Sennichite in which one side checked with every move: that side loses."""
    IMPASSE_WIN = "impasse_win"
    """A successful entering-king declaration (or a count that one side wins)."""
    IMPASSE_DRAW = "impasse_draw"
    """Jishogi: an impasse that is a draw."""
    IMPASSE_LOSE = "impasse_lose"
    """A failed entering-king declaration: the declarer loses."""
    TIMEOUT = "timeout"
    ILLEGAL_MOVE = "illegal_move"
    ABORT = "abort"
    """Interrupted (中断 / %CHUDAN): no result."""
    MAX_MOVES = "max_moves"
    """The move cap of a server or tournament was reached: a draw."""
    DRAW = "draw"
    """A draw agreed or declared without a more specific reason."""


@dataclass(frozen=True)
class GameResult:
    """The end of a game.

    Attributes:
        termination: how it ended.
        winner: the winning side, or None for a draw or no result.
        detail: free text (for example which rule was applied); not part of equality for records.
    """

    termination: Termination
    winner: Color | None
    detail: str = field(default="", compare=False)


@dataclass
class RecordedMove:
    """One move of a game as a record keeps it.

    Attributes:
        usi: the move in USI notation (`7g7f`, `8h2b+`, `P*5e`).
        seconds: time spent on the move in seconds, when known.
        comment: comment lines attached after the move ("" when none).
    """

    usi: str
    seconds: float | None = None
    comment: str = ""


class HeaderKey(enum.StrEnum):
    """Canonical header names. Records map their own keys (KIF `先手`, CSA `N+`, JKF `先手`) onto these;
    keys a format knows but this list does not are kept verbatim."""

    BLACK = "black"
    WHITE = "white"
    EVENT = "event"
    SITE = "site"
    START_TIME = "start_time"
    END_TIME = "end_time"
    TIME_CONTROL = "time_control"
    BYOYOMI = "byoyomi"
    OPENING = "opening"
    HANDICAP = "handicap"
    """The handicap's name (see `controller.rules.positions.HANDICAPS`)."""
    IMPASSE_RULE = "impasse_rule"
    """Which impasse rule the game uses: `24`, `27`, `count24` or `count27`."""


@dataclass
class GameRecord:
    """A game as records store it: a starting position, the moves, headers and the result.

    Attributes:
        start_sfen: the starting position as a full SFEN (with side to move, hands and move number).
        moves: the main line.
        headers: canonical `HeaderKey` values or verbatim format-specific keys, to text values.
        result: how the game ended, or None while it is in progress / unknown.
        start_comment: comment lines before the first move.
    """

    start_sfen: str
    moves: list[RecordedMove] = field(default_factory=list)
    headers: dict[str, str] = field(default_factory=dict)
    result: GameResult | None = None
    start_comment: str = ""

    @property
    def usi_moves(self) -> list[str]:
        """The main line as USI strings."""
        return [m.usi for m in self.moves]
