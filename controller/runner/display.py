"""What the players see while the game runs: progress lines on the console and the web page's view.

Owns: the text of a committed move (number, Japanese notation, USI, who, time), the clocks line, a compact board
(one character per square, pieces in hand beside it), and the `GameView` published to the web page.
"""

from __future__ import annotations

import cshogi

from controller.game.clock import ClockReading
from controller.game.state import GameState, Phase, PromptKind
from controller.rules.game import replay
from controller.rules.positions import board_from_sfen
from controller.rules.types import Color
from controller.web.view import ClockView, GameView, PromptView, japanese_moves

HAND_ORDER = "RBGSNLP"
STATUS = {
    Phase.SETUP_CHECK: "waiting for the starting position",
    Phase.WAIT_HUMAN: "{side} to move",
    Phase.ENGINE_THINKING: "the {opponent} is thinking",
    Phase.ROBOT_MOVING: "the robot is moving",
    Phase.ASSIST_WAIT: "please play the {opponent}'s move",
    Phase.PROMPT: "waiting for an answer",
    Phase.MISMATCH: "the board does not match the game",
    Phase.GAME_OVER: "game over",
    Phase.RESET: "set up a new game",
}


def side_mark(side: Color) -> str:
    """☗ for sente, ☖ for gote."""
    return "☗" if side is Color.BLACK else "☖"


def move_line(state: GameState) -> str:
    """The last committed move: `  12. △同　銀 (8b8f) engine 1.2s`."""
    ply = len(state.moves)
    played = state.moves[-1]
    japanese = japanese_moves(state.settings.start_sfen, state.usi_moves)[-1]
    spent = f" {played.spent_s:.1f}s" if played.spent_s is not None else ""
    return f"{ply:4d}. {japanese} ({played.usi}) {played.source.value}{spent}"


def clock_text(reading: ClockReading) -> str:
    """`9:58`, `0:00+27` in byoyomi, `1:02 used` when untimed."""
    if reading.untimed:
        return f"{_mmss(reading.used_s)} used"
    if reading.byoyomi_s is not None and reading.main_s <= 0:
        return f"0:00+{reading.byoyomi_s:.0f}"
    return _mmss(reading.main_s)


def clock_line(state: GameState, now: float) -> str:
    """Both clocks, the running one marked: `☗ 9:58 | ☖ 9:41 *`."""
    parts = []
    for side in (Color.BLACK, Color.WHITE):
        running = " *" if state.clock.running is side else ""
        parts.append(f"{side_mark(side)} {clock_text(state.clock.reading(side, now))}{running}")
    return " | ".join(parts)


def compact_board(sfen: str) -> str:
    """Nine rows of one character per square (sente upper case, gote lower case, promoted pieces as `+` before),
    with gote's hand above and sente's below."""
    board = board_from_sfen(sfen)
    fields = sfen.split()
    rows = []
    for row in fields[0].split("/"):
        cells: list[str] = []
        promoted = False
        for char in row:
            if char.isdigit():
                cells.extend(" ." for _ in range(int(char)))
            elif char == "+":
                promoted = True
            else:
                cells.append(("+" if promoted else " ") + char)
                promoted = False
        rows.append("".join(cells))
    black_hand, white_hand = _hands(board)
    return "\n".join([f"  ☖ hand: {white_hand}", *(f"  {r}" for r in rows), f"  ☗ hand: {black_hand}"])


def _hands(board: cshogi.Board) -> tuple[str, str]:
    texts = []
    for side in (0, 1):
        counts = board.pieces_in_hand[side]  # order P L N S G B R
        by_kind = dict(zip("PLNSGBR", counts, strict=True))
        text = " ".join(f"{k}{by_kind[k]}" if by_kind[k] > 1 else k for k in HAND_ORDER if by_kind[k])
        texts.append(text or "-")
    return texts[0], texts[1]


def status_text(state: GameState) -> str:
    """One sentence on what is going on."""
    opponent = state.settings.opponent.value
    side = "sente" if state.side_to_move is Color.BLACK else "gote"
    return STATUS[state.phase].format(side=side, opponent=opponent)


def game_view(state: GameState, now: float, *, prompt_id: int, names: dict[str, str], notice: str = "") -> GameView:
    """The web page's view of `state`."""
    prompt = None
    if state.phase is Phase.PROMPT and state.prompt is not None:
        typed = state.prompt.kind in (PromptKind.MOVE, PromptKind.PROMOTION)
        prompt = PromptView(str(prompt_id), _question(state), state.prompt.options, typed)
    black, white = state.clock.reading(Color.BLACK, now), state.clock.reading(Color.WHITE, now)
    running = state.clock.running.value if state.clock.running is not None else None
    clocks = ClockView(int(black.main_s * 1000), int(white.main_s * 1000), 0, running)
    result = None if state.result is None else state.result.termination.value
    return GameView(
        mode=state.settings.mode.value,
        start_sfen=state.settings.start_sfen,
        moves=state.usi_moves,
        status=status_text(state),
        clocks=clocks,
        prompt=prompt,
        result=result,
        names=names,
        notice=notice,
    )


def _question(state: GameState) -> str:
    assert state.prompt is not None
    return f"{state.prompt.kind.value}: {' / '.join(state.prompt.options)}"


def final_position(state: GameState) -> str:
    """The SFEN after every committed move."""
    text: str = replay(board_from_sfen(state.settings.start_sfen), state.usi_moves).sfen()
    return text


def _mmss(seconds: float) -> str:
    total = max(0, int(seconds))
    return f"{total // 60}:{total % 60:02d}"


def move_kinds(start_sfen: str, moves: tuple[str, ...], side: Color | None) -> dict[str, int]:
    """How many of `side`'s moves (every move when None) captured, dropped and promoted."""
    board = board_from_sfen(start_sfen)
    counts = {"captures": 0, "drops": 0, "promotions": 0}
    for usi in moves:
        mover = Color.BLACK if board.turn == cshogi.BLACK else Color.WHITE
        if side is None or mover is side:
            counts["drops"] += "*" in usi
            counts["promotions"] += usi.endswith("+")
            counts["captures"] += "*" not in usi and board.piece(cshogi.move_to(board.move_from_usi(usi))) != 0
        board.push_usi(usi)
    return counts
