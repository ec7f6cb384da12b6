"""What is wrong with a board that matches nothing legal, in words a player understands.

Owns: comparing the confidently read board with the expected position, recognising an attempted move or drop
there and asking the referee why it is illegal ("nifu: sente already has a pawn on file 3."), and otherwise
listing square by square how the board differs from the nearest legal explanation ("square 7g should be
empty", "a piece is missing from 5e: it should hold sente's pawn"). Also the sentences for wrong piece
stands and unreadable squares.
"""

from __future__ import annotations

import cshogi
import numpy as np

from controller.reconcile.evidence import Evidence
from controller.reconcile.hypotheses import Hypothesis
from controller.reconcile.labels import (
    EMPTY_INDEX,
    HAND_LABELS,
    SQUARE_LABELS,
    Hands,
    Labels,
    describe_label,
    kind_name,
    owner,
    square_name,
)
from controller.rules.referee import KIND_NAMES, SIDE_NAMES, check_move

Diagnosis = tuple[tuple[str, ...], tuple[str, ...]]
_SIDES = ("b", "w")


def strong_differences(evidence: Evidence, labels: Labels, log_odds: float) -> list[int]:
    """Squares whose best-read label beats `labels` by more than `log_odds`, most certain first."""
    lp = evidence.log_probs
    odds = lp[np.arange(81), evidence.best] - lp[np.arange(81), labels]
    return sorted((int(i) for i in np.flatnonzero(odds > log_odds)), key=lambda i: -float(odds[i]))


def explain_mismatch(
    board: cshogi.Board, expected: Labels, evidence: Evidence, nearest: Hypothesis, *, log_odds: float, limit: int
) -> Diagnosis:
    """Sentences and squares for a board that no legal explanation fits.

    Args:
        board: the last legal position (the side to move is the one expected to play).
        expected: its labels.
        evidence: the window's evidence.
        nearest: the best-scoring legal explanation.
        log_odds: how much more likely the read label must be for a square to count as different.
        limit: most sentences to return.
    """
    diff = strong_differences(evidence, expected, log_odds)
    attempt = _attempted_move(board, expected, evidence.best, diff)
    if attempt is not None:
        return (attempt,), tuple(square_name(i) for i in diff)
    return explain_against(evidence, nearest.labels(), log_odds, limit)


def explain_against(evidence: Evidence, target: Labels, log_odds: float, limit: int) -> Diagnosis:
    """Square-by-square sentences: how the read board differs from the position `target`."""
    squares = strong_differences(evidence, target, log_odds)
    messages = [_square_sentence(i, int(target[i]), int(evidence.best[i])) for i in squares[:limit]]
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


def _attempted_move(board: cshogi.Board, expected: Labels, seen: Labels, diff: list[int]) -> str | None:
    """The referee's sentence for a recognisable attempted move or drop, or None."""
    side = _SIDES[board.turn]
    if len(diff) == 1 and expected[diff[0]] == EMPTY_INDEX and seen[diff[0]] != EMPTY_INDEX:
        return _attempted_drop(board, side, diff[0], int(seen[diff[0]]))
    if len(diff) != 2:
        return None
    emptied = [i for i in diff if seen[i] == EMPTY_INDEX and expected[i] != EMPTY_INDEX]
    filled = [i for i in diff if seen[i] != EMPTY_INDEX]
    if len(emptied) != 1 or len(filled) != 1:
        return None
    src, dst = emptied[0], filled[0]
    moved, shown = int(expected[src]), int(seen[dst])
    if owner(moved) != owner(shown):
        return None
    if owner(moved) != board.turn:
        return (
            f"it is {SIDE_NAMES[side]}'s turn, but {describe_label(moved)} moved from "
            f"{square_name(src)} to {square_name(dst)}."
        )
    return _attempted_board_move(board, src, dst, moved, shown)


def _attempted_drop(board: cshogi.Board, side: str, dst: int, shown: int) -> str | None:
    label = SQUARE_LABELS[shown]
    if owner(shown) != board.turn:
        return f"it is {SIDE_NAMES[side]}'s turn, but {describe_label(shown)} appeared on {square_name(dst)}."
    if label.startswith("+"):
        return (
            f"a {kind_name(shown)} appeared on {square_name(dst)}: pieces are dropped unpromoted, "
            f"so turn it over to its {KIND_NAMES[label[1:].upper()]} side."
        )
    verdict = check_move(board, f"{label.upper()}*{square_name(dst)}")
    return None if verdict.legal else verdict.explanation


def _attempted_board_move(board: cshogi.Board, src: int, dst: int, moved: int, shown: int) -> str | None:
    kind, face = SQUARE_LABELS[moved].upper(), SQUARE_LABELS[shown].upper()
    plain = f"{square_name(src)}{square_name(dst)}"
    if face in (kind, f"+{kind}"):
        verdict = check_move(board, plain + ("+" if face != kind else ""))
        return None if verdict.legal else verdict.explanation
    verdict = check_move(board, plain)
    promoted = check_move(board, plain + "+")
    if not verdict.legal and not promoted.legal:
        return verdict.explanation
    return (
        f"square {square_name(dst)} shows a {KIND_NAMES[face]}, but the piece that moved there from "
        f"{square_name(src)} is a {KIND_NAMES[kind]}."
    )


def hands_sentences(seen: Hands, wanted: Hands) -> tuple[str, ...]:
    """One sentence per kind whose count on a stand differs from the position."""
    sentences = []
    for slot, (have, want) in enumerate(zip(seen, wanted, strict=True)):
        if have == want:
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
