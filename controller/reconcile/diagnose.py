"""What is wrong with a board that matches nothing legal, in words a player understands.

Owns: comparing the read board (who occupies each square; the kind only where a piece was dropped: the rest
comes from the game) with the expected position, recognising an attempted move or drop
there and asking the referee why it is illegal ("nifu: sente already has a pawn on file 3."), and otherwise
listing square by square how the board differs from the nearest legal explanation ("square 7g should be
empty", "a piece is missing from 5e: it should hold sente's pawn"). Also the sentences for wrong piece
stands and unreadable squares.
"""

from __future__ import annotations

from collections.abc import Iterable

import cshogi
import numpy as np

from controller.reconcile.evidence import Evidence
from controller.reconcile.hypotheses import Hypothesis, contradictions, dropped_squares
from controller.reconcile.labels import (
    EMPTY_INDEX,
    HAND_LABELS,
    LABEL_INDEX,
    SQUARE_LABELS,
    Hands,
    Labels,
    describe_label,
    kind_name,
    owner,
    square_name,
)
from controller.reconcile.types import ReconcileConfig
from controller.rules.referee import KIND_NAMES, SIDE_NAMES, check_move

Diagnosis = tuple[tuple[str, ...], tuple[str, ...]]
_SIDES = ("b", "w")


def seen_label(evidence: Evidence, square: int) -> int:
    """The label read on a square: empty, or the most likely kind of the most likely owner."""
    occupancy = int(evidence.occupancy[square])
    if occupancy == 2:
        return EMPTY_INDEX
    first = 14 * occupancy
    return first + int(np.argmax(evidence.log_probs[square, first : first + 14]))


def explain_mismatch(
    board: cshogi.Board, expected: Labels, evidence: Evidence, nearest: Hypothesis, *, config: ReconcileConfig
) -> Diagnosis:
    """Sentences and squares for a board that no legal explanation fits.

    Args:
        board: the last legal position (the side to move is the one expected to play).
        expected: its labels.
        evidence: the window's evidence.
        nearest: the best-scoring legal explanation.
        config: thresholds (`mismatch_log_odds`) and the most sentences to return (`max_messages`).
    """
    diff = contradictions(evidence, expected, set(), config)
    attempt = _attempted_move(board, expected, evidence, diff)
    if attempt is not None:
        return (attempt,), tuple(square_name(i) for i in diff)
    return explain_against(evidence, nearest.labels(), dropped_squares(nearest.moves), config)


def explain_against(evidence: Evidence, target: Labels, kind_checked: set[int], config: ReconcileConfig) -> Diagnosis:
    """Square-by-square sentences: how the read board differs from the position `target`."""
    squares = contradictions(evidence, target, kind_checked, config)
    limit = config.max_messages
    messages = [_square_sentence(i, int(target[i]), seen_label(evidence, i)) for i in squares[:limit]]
    if len(squares) > limit:
        messages.append(f"{len(squares) - limit} more squares differ from the position.")
    if not messages:
        messages = ["the board does not match the position."]
    return tuple(messages), tuple(square_name(i) for i in squares)


def _square_sentence(square: int, wanted: int, seen: int) -> str:
    name = square_name(square)
    if wanted == EMPTY_INDEX:
        return f"square {name} should be empty (it shows {describe_label(seen)})."
    if seen == EMPTY_INDEX:
        return f"a piece is missing from {name}: it should hold {describe_label(wanted)}."
    return f"square {name} should hold {describe_label(wanted)}, not {describe_label(seen)}."


def _attempted_move(board: cshogi.Board, expected: Labels, evidence: Evidence, diff: list[int]) -> str | None:
    """The referee's sentence for a recognisable attempted move or drop, or None."""
    side = _SIDES[board.turn]
    seen = {i: seen_label(evidence, i) for i in diff}
    if len(diff) == 1 and expected[diff[0]] == EMPTY_INDEX and seen[diff[0]] != EMPTY_INDEX:
        return _attempted_drop(board, side, diff[0], seen[diff[0]])
    if len(diff) != 2:
        return None
    emptied = [i for i in diff if seen[i] == EMPTY_INDEX and expected[i] != EMPTY_INDEX]
    filled = [i for i in diff if seen[i] != EMPTY_INDEX]
    if len(emptied) != 1 or len(filled) != 1:
        return None
    src, dst = emptied[0], filled[0]
    moved = int(expected[src])
    if owner(moved) != owner(seen[dst]):
        return None
    if owner(moved) != board.turn:
        return (
            f"it is {SIDE_NAMES[side]}'s turn, but {describe_label(moved)} moved from "
            f"{square_name(src)} to {square_name(dst)}."
        )
    return _attempted_board_move(board, src, dst, moved, evidence)


def _attempted_drop(board: cshogi.Board, side: str, dst: int, shown: int) -> str | None:
    label = SQUARE_LABELS[shown]
    if owner(shown) != board.turn:
        return f"it is {SIDE_NAMES[side]}'s turn, but {describe_label(shown)} appeared on {square_name(dst)}."
    if label.startswith("+"):
        return (
            f"a {kind_name(shown)} appeared on {square_name(dst)}: pieces are dropped unpromoted, "
            f"so turn it over to its {KIND_NAMES[label[1:].upper()]} side."
        )
    if label.upper() == "K":
        return f"a king appeared on {square_name(dst)}, where no piece should be."
    verdict = check_move(board, f"{label.upper()}*{square_name(dst)}")
    return None if verdict.legal else verdict.explanation


def _attempted_board_move(board: cshogi.Board, src: int, dst: int, moved: int, evidence: Evidence) -> str | None:
    """The moved piece's identity comes from the game; only its face (promoted or not) is read at `dst`."""
    label = SQUARE_LABELS[moved]
    plain = f"{square_name(src)}{square_name(dst)}"
    promoted = f"+{label}"
    promote = promoted in LABEL_INDEX and (
        evidence.log_probs[dst, LABEL_INDEX[promoted]] > evidence.log_probs[dst, moved]
    )
    verdict = check_move(board, plain + ("+" if promote else ""))
    return None if verdict.legal else verdict.explanation


def hands_sentences(seen: Hands, wanted: Hands, slots: Iterable[int] | None = None) -> tuple[str, ...]:
    """One sentence per kind (among `slots`, default all) whose count on a stand differs from the position."""
    sentences = []
    among = set(range(len(seen)) if slots is None else slots)
    for slot, (have, want) in enumerate(zip(seen, wanted, strict=True)):
        if have == want or slot not in among:
            continue
        letter = HAND_LABELS[slot]
        side = SIDE_NAMES["b" if letter.isupper() else "w"]
        name = KIND_NAMES[letter.upper()]
        sentences.append(f"{side}'s piece stand shows {_count(have, name)}; it should hold {_count(want, name)}.")
    return tuple(sentences)


def unclear_sentence(squares: list[int]) -> str:
    """The sentence for squares that cannot be read."""
    names = ", ".join(square_name(i) for i in squares)
    which = "square" if len(squares) == 1 else "squares"
    return f"{which} {names} cannot be read clearly: is a piece knocked over or off its square?"


def _count(n: int, name: str) -> str:
    return f"{n} {name}{'' if n == 1 else 's'}"
