"""SimulatedHuman: every kind of move ends in the position the rules give, made the way a person makes it."""

from __future__ import annotations

import cshogi
import pytest

from controller.reconcile.labels import SQUARE_LABELS, board_hands, board_labels, hands_from_mapping, square_index
from controller.sim import HumanSettings, InHand, SimError, SimulatedHuman, Timeline, VirtualBoard
from hardware.geometry import Side
from hardware.settings import load_settings

GEOMETRY = load_settings(None).geometry


def _play(board: VirtualBoard, human: SimulatedHuman, usi: str, mover: Side) -> tuple[bool, bool]:
    """Apply a planned move step by step; returns (an arm was over the board, a piece was held in the hand)."""
    timeline = Timeline()
    timeline.extend(human.plan_move(usi, mover, 0.0))
    arm = lifted = False
    t = 0.0
    while timeline.steps:
        timeline.advance(board, t)
        arm = arm or board.arm is not None
        lifted = lifted or any(isinstance(p.place, InHand) for p in board.pieces().values())
        t += human.settings.step_s
    return arm, lifted


def _assert_matches(board: VirtualBoard, rules: cshogi.Board) -> None:
    labels, hands = board.ground_truth()
    assert labels == tuple(SQUARE_LABELS[i] for i in board_labels(rules))
    assert hands_from_mapping(hands) == board_hands(rules)


@pytest.mark.parametrize(
    ("sfen", "usi"),
    [
        ("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", "7g7f"),
        ("lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3", "8h2b+"),
        ("lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3", "8h2b"),
        ("lnsgk1snl/6g2/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL b B 7", "B*5e"),
        ("lnsgk1snl/6g2/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL w Bb 8", "B*5e"),
        ("4k4/9/9/9/9/9/9/1+r7/4K4 w - 1", "8h8i"),
        ("4k4/9/4P4/9/9/9/9/9/4K4 b - 1", "5c5b+"),
    ],
    ids=["move", "capture-promote", "capture-decline", "drop-sente", "drop-gote", "promoted-moves", "promote"],
)
def test_move_kinds_give_the_rules_position(sfen: str, usi: str) -> None:
    """Moves, captures (demoted, to the mover's stand), drops from the stand and promotions end in the position
    cshogi gives, with an arm over the board and the piece lifted on the way."""
    for capture_first in (0.0, 1.0):
        board = VirtualBoard(GEOMETRY, sfen, seed=1)
        human = SimulatedHuman(board, HumanSettings(capture_first=capture_first), seed=2)
        rules = cshogi.Board(sfen)
        mover = Side.BLACK if rules.turn == cshogi.BLACK else Side.WHITE
        arm, lifted = _play(board, human, usi, mover)
        rules.push_usi(usi)
        _assert_matches(board, rules)
        assert arm and lifted and board.arm is None


def test_pieces_are_set_down_off_centre() -> None:
    """The moved piece sits a little off the square's centre and turned a few degrees."""
    board = VirtualBoard(GEOMETRY, seed=3)
    _play(board, SimulatedHuman(board, seed=3), "7g7f", Side.BLACK)
    placed = next(p for p in board.scene().pieces if p.square == square_index("7f"))
    assert (placed.dx, placed.dy) != (0.0, 0.0) and max(abs(placed.dx), abs(placed.dy)) < 0.15
    assert 0.0 < abs(placed.angle_deg) < 10.0


def test_a_game_opening_stays_in_step_with_the_rules() -> None:
    """Eighteen plies of a real game (captures and drops among them) leave the board as the rules say."""
    moves = [
        *("3g3f", "8c8d", "3f3e", "8d8e", "6i7h", "8e8f", "8g8f", "8b8f", "P*8g"),
        *("8f8e", "2h3h", "4a3b", "7g7f", "P*8f", "8g8f", "8e8f", "3h3f", "7a6b"),
    ]
    board = VirtualBoard(GEOMETRY, seed=4)
    human = SimulatedHuman(board, seed=4)
    rules = cshogi.Board()
    for usi in moves:
        _play(board, human, usi, Side.BLACK if rules.turn == cshogi.BLACK else Side.WHITE)
        rules.push_usi(usi)
    _assert_matches(board, rules)


def test_an_illegal_move_is_made_physically() -> None:
    """Told to move a pawn two squares, the person does it: the board shows what was done, not what is legal."""
    board = VirtualBoard(GEOMETRY, seed=5)
    _play(board, SimulatedHuman(board, seed=5), "7g7e", Side.BLACK)
    labels, _ = board.ground_truth()
    assert labels[square_index("7e")] == "P" and labels[square_index("7g")] == "empty"


def test_knocked_over_piece_leaves_its_square() -> None:
    """A knocked piece lies across squares: its own square reads empty and the piece is still drawn."""
    board = VirtualBoard(GEOMETRY, seed=6)
    human = SimulatedHuman(board, seed=6)
    timeline = Timeline()
    timeline.extend(human.plan_knock(square_index("5g"), Side.BLACK, 0.0))
    timeline.advance(board, 1e9)
    labels, _ = board.ground_truth()
    assert labels[square_index("5g")] == "empty"
    assert len(board.scene().pieces) == 40


def test_physically_impossible_moves_are_refused() -> None:
    """No piece to move, or a drop of a piece not in hand, is an error naming the problem."""
    board = VirtualBoard(GEOMETRY, seed=7)
    human = SimulatedHuman(board, seed=7)
    with pytest.raises(SimError, match="no piece"):
        human.plan_move("5e5d", Side.BLACK, 0.0)
    with pytest.raises(SimError, match="no P on the b stand"):
        human.plan_move("P*5e", Side.BLACK, 0.0)


def test_quick_follow_up_has_no_pause() -> None:
    """With pair_rate 1 the next move starts at once (two moves between stable frames); with 0 never."""
    board = VirtualBoard(GEOMETRY, seed=8)
    assert SimulatedHuman(board, HumanSettings(pair_rate=1.0), seed=1).pause() == 0.0
    assert SimulatedHuman(board, HumanSettings(pair_rate=0.0), seed=1).pause() > 0.0


def test_promotion_decided_after_the_piece_arrived() -> None:
    """With promote_after = 1 the bishop is first set down on 2b face up, then turned over where it lies."""
    sfen = "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3"
    board = VirtualBoard(GEOMETRY, sfen, seed=4)
    human = SimulatedHuman(board, HumanSettings(promote_after=1.0), seed=4)
    timeline = Timeline()
    timeline.extend(human.plan_move("8h2b+", Side.BLACK, 0.0))
    seen: list[str] = []
    t = 0.0
    while timeline.steps:
        timeline.advance(board, t)
        label = board.ground_truth()[0][square_index("2b")]
        if not seen or seen[-1] != label:
            seen.append(label)
        t += human.settings.step_s
    assert seen[0] == "b" and seen[-2:] == ["B", "+B"]  # (emptied first when the capture is taken off first)
    rules = cshogi.Board(sfen)
    rules.push_usi("8h2b+")
    _assert_matches(board, rules)
