"""A photo's read fitted to the rules of a set-up (`controller.reconcile.setup_fit`)."""

from __future__ import annotations

import cshogi
import numpy as np
import pytest

from controller.reconcile.labels import EMPTY_INDEX, LABEL_INDEX, N_LABELS, PIECE_TO_LABEL, SFEN_TO_CS
from controller.reconcile.setup_fit import broken_rules, fit_setup

RANKS = "abcdefghi"


def sq(name: str) -> int:
    """SFEN-order index of a square name such as 7g."""
    return RANKS.index(name[1]) * 9 + (9 - int(name[0]))


def empty_read() -> np.ndarray:
    """Every square read as surely empty."""
    probs = np.full((81, N_LABELS), 1e-4)
    probs[:, EMPTY_INDEX] = 1.0
    return probs


def put(probs: np.ndarray, square: str, **shares: float) -> None:
    """Square `square` read as these labels with these probabilities (`plus_r` for +r, `R` for R)."""
    probs[sq(square)] = 1e-4
    for name, p in shares.items():
        probs[sq(square), LABEL_INDEX[name.replace("plus_", "+")]] = p


def position_read(sfen: str, p: float = 0.9) -> np.ndarray:
    """A read of a position: each square's true label at `p`, the rest spread over the others."""
    board = cshogi.Board(sfen)
    pieces = board.pieces
    probs = np.full((81, N_LABELS), (1 - p) / (N_LABELS - 1))
    for i in range(81):
        probs[i, PIECE_TO_LABEL[pieces[SFEN_TO_CS[i]]]] = p
    return probs


def test_a_legal_read_is_left_as_it_is() -> None:
    fit = fit_setup(position_read(cshogi.STARTING_SFEN))
    assert fit.changed == () and fit.broken == ()
    assert fit.board_field() == cshogi.STARTING_SFEN.split()[0]


def test_nifu_changes_the_pawn_read_less_surely() -> None:
    probs = empty_read()
    put(probs, "7g", P=0.9, S=0.1)
    put(probs, "7e", P=0.55, S=0.45)
    fit = fit_setup(probs)
    assert fit.changed == (("7e", "P", "S"),)
    assert fit.broken == ("nifu: sente's unpromoted pawns on 7e and 7g",)


def test_a_pawn_of_each_side_on_one_file_is_no_nifu() -> None:
    probs = empty_read()
    put(probs, "3g", P=0.6, L=0.4)
    put(probs, "3c", p=0.6, l=0.4)
    put(probs, "3d", plus_P=0.6, L=0.4)
    assert fit_setup(probs).changed == ()


@pytest.mark.parametrize(
    ("square", "read", "fitted"),
    [("5a", "P", "G"), ("1a", "L", "G"), ("2b", "N", "G"), ("5i", "p", "g"), ("9h", "n", "g"), ("8h", "N", "N")],
)
def test_pieces_that_could_never_move_are_read_again(square: str, read: str, fitted: str) -> None:
    probs = empty_read()
    put(probs, square, **{read: 0.7, fitted.replace("+", "plus_"): 0.2})
    fit = fit_setup(probs)
    assert fit.labels[sq(square)] == fitted
    assert bool(fit.broken) == (read != fitted)


def test_one_king_a_side() -> None:
    probs = empty_read()
    put(probs, "5i", K=0.95, G=0.05)
    put(probs, "4h", K=0.6, G=0.4)
    put(probs, "5a", k=0.9, g=0.1)
    fit = fit_setup(probs)
    assert fit.changed == (("4h", "K", "G"),)


def test_a_set_holds_two_rooks() -> None:
    """The board's rooks alone are counted: the stands' counts are read too often wrong to push a board piece out."""
    probs = empty_read()
    put(probs, "2h", R=0.9, S=0.1)
    put(probs, "8b", r=0.6, s=0.3, empty=0.1)
    assert fit_setup(probs).changed == ()
    put(probs, "5e", R=0.8, S=0.2)
    fit = fit_setup(probs)
    assert fit.changed == (("8b", "r", "s"),)
    assert fit.broken == ("3 pieces of kind R (a set holds 2)",)


def test_only_a_kind_is_changed_never_the_owner_or_whether_a_piece_is_there() -> None:
    """A sente pawn on rank a whose next likeliest labels are empty and gote's pawn is read as a sente silver."""
    probs = empty_read()
    put(probs, "4a", P=0.6, empty=0.2, p=0.15, S=0.05)
    assert fit_setup(probs).changed == (("4a", "P", "S"),)


def test_a_promoted_rook_counts_as_a_rook() -> None:
    probs = empty_read()
    put(probs, "2h", R=0.9, S=0.1)
    put(probs, "8b", r=0.9, s=0.1)
    put(probs, "5e", plus_R=0.6, plus_B=0.4)
    fit = fit_setup(probs)
    assert fit.changed == (("5e", "+R", "+B"),)


def test_a_change_never_breaks_another_rule() -> None:
    probs = empty_read()
    put(probs, "7g", P=0.9, S=0.1)
    put(probs, "7e", P=0.55, p=0.05, L=0.4)  # L would do but 7e's next best label after P
    put(probs, "7a", l=0.9)
    fit = fit_setup(probs)
    assert fit.labels[sq("7e")] == "L"
    assert broken_rules(np.array([LABEL_INDEX[label] for label in fit.labels])) == []


def test_probabilities_must_be_a_board() -> None:
    with pytest.raises(ValueError, match="81"):
        fit_setup(np.ones((80, N_LABELS)))


def noisy_read(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """A legal position (random legal moves from the start) and a read of it whose kinds are often wrong: each
    piece's probability spread over its owner's kinds at random, the true kind not always the likeliest."""
    rng = np.random.default_rng(seed)
    board = cshogi.Board()
    for _ in range(int(rng.integers(20, 120))):
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(moves[int(rng.integers(len(moves)))])
    truth = np.array([PIECE_TO_LABEL[board.pieces[SFEN_TO_CS[i]]] for i in range(81)])
    probs = np.full((81, N_LABELS), 1e-4)
    for i, label in enumerate(truth):
        if label == EMPTY_INDEX:
            probs[i, EMPTY_INDEX] = 1.0
            continue
        first = 0 if label < 14 else 14
        probs[i, first : first + 14] = rng.dirichlet(np.full(14, 0.4))
        probs[i, label] += rng.uniform(0.0, 0.5)
    return truth, probs / probs.sum(axis=1, keepdims=True)


@pytest.mark.parametrize("seed", range(40))
def test_noisy_reads_of_legal_positions_fit_to_no_broken_rule(seed: int) -> None:
    """Whatever the read breaks is mended, and no square changes owner or becomes empty or occupied."""
    truth, probs = noisy_read(seed)
    fit = fit_setup(probs)
    labels = np.array([LABEL_INDEX[label] for label in fit.labels])
    assert broken_rules(labels) == []
    read = probs.argmax(axis=1)
    owner = np.array([0 if j < 14 else 1 if j < 28 else 2 for j in range(N_LABELS)])
    assert np.array_equal(owner[labels], owner[read]) and np.array_equal(owner[read], owner[truth])
    assert len(fit.changed) == int(np.count_nonzero(read != labels))
