"""The reader learns the piece set again from positions the game confirms (steady ones only, the squares worth
it, off the loop), forgets what a takeback shows was wrong, and reads on as before when a learning fails."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest
from numpy.typing import NDArray
from runner_sim import learning_reader_at_start

from controller.reconcile.types import NoChange, Observation, Result, Waiting
from controller.rules.positions import STARTPOS_SFEN
from controller.runner.set_learning import StartLearningReader
from controller.runner.set_places import MAX_SQUARES, Places
from controller.runner.set_relearning import MAX_FAILURES, STEADY_FRAMES, ConfirmedWatch, LaterJob, watch_confirmed
from vision.classifier import MODEL_PATH
from vision.labels import SQUARE_LABELS, labels_from_board_field

FRAME = np.zeros((6, 8, 3), np.uint8)
AFTER_76 = "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2"
"""After 7g7f."""
BISHOP_DROPPED = "lnsgkg1nl/1r5s1/pppppp1pp/6p2/5B3/2P6/PP1PPPPPP/7R1/LNSGKGSNL w b 6"
"""After 7g7f 3c3d 8h2b+ 3a2b B*4e."""
DROP_MOVES = ("7g7f", "3c3d", "8h2b+", "3a2b", "B*4e")
E4 = 4 * 9 + (9 - 4)  # 4e in SFEN order


def _probs(board_field: str, wrong: dict[int, str] | None = None) -> NDArray[np.float64]:
    """81×29 probabilities that read `board_field` right (0.9), but the squares in `wrong` as another label."""
    labels = labels_from_board_field(board_field)
    probs = np.full((81, len(SQUARE_LABELS)), 0.1 / (len(SQUARE_LABELS) - 1))
    for square, label in enumerate(labels):
        probs[square, SQUARE_LABELS.index((wrong or {}).get(square, label))] = 0.9
    return probs


@dataclass(frozen=True)
class _Read:
    probs: NDArray[np.float64]
    geometry: str = "grid"
    hidden: tuple[int, ...] = ()


class _Reader:
    """Stands in for `BoardReader`: reads `reads_as` (a `_Read`), records the calibration in use."""

    def __init__(self) -> None:
        self.calibration: Any = None
        self.reads_as = _Read(_probs(STARTPOS_SFEN.split()[0]))
        self.settings = type("Settings", (), {"sente_side": "bottom"})()

    def read(self, image: Any) -> _Read:
        return self.reads_as

    def use_calibration(self, calibration: Any) -> None:
        self.calibration = calibration


class _LearnMore:
    """Stands in for `VisionLearning`: the start gives `start`; each later learning records its job and gives
    `again <n>` (or raises `fail`), after `gate` opens when one is given."""

    def __init__(self, gate: threading.Event | None = None, fail: Exception | None = None) -> None:
        self.gate, self.fail = gate, fail
        self.jobs: list[LaterJob] = []

    def __call__(self, frame: Any, sente_side: Any) -> str:
        return "start"

    def more(self, job: LaterJob) -> str:
        self.jobs.append(job)
        if self.gate is not None:
            self.gate.wait(5.0)
        if self.fail is not None:
            raise self.fail
        return f"again {len(self.jobs)}"


def _learnt(learn: _LearnMore, *, again: bool = True) -> tuple[StartLearningReader, _Reader]:
    """A learning reader that has learnt the start (and learns again later, if `again`)."""
    inner = _Reader()
    reader = StartLearningReader(inner, learn, again=again)
    reader.read(FRAME)
    assert reader.start_confirmed(STARTPOS_SFEN)
    reader.settle(5.0)
    return reader, inner


def _show(reader: StartLearningReader, inner: _Reader, sfen: str, moves: tuple[str, ...], frames: int) -> bool:
    """`frames` reads, each confirmed as `sfen` after `moves`; True when one of them started a learning."""
    inner.reads_as = _Read(_probs(sfen.split(maxsplit=1)[0]), hidden=inner.reads_as.hidden)
    started = False
    for _ in range(frames):
        reader.read(FRAME)
        started |= reader.position_confirmed(sfen, moves)
    return started


def test_later_positions_teach_nothing_unless_asked() -> None:
    """By default (`[vision] learn_set_again = false`) only the start is learnt: the same steady position with
    pieces where none of their kind was learnt starts no learning."""
    learn = _LearnMore()
    reader, inner = _learnt(learn, again=False)
    assert not _show(reader, inner, BISHOP_DROPPED, DROP_MOVES, STEADY_FRAMES + 2)
    assert learn.jobs == []


def test_a_steady_confirmed_position_teaches_the_reader_again() -> None:
    """A position confirmed on `STEADY_FRAMES` reads in a row, showing pieces where none of their kind was
    learnt, is learnt from (its frame, the reader's grid, those squares); the result is read with from the next
    frame on, and the reconciler is told of the change."""
    learn = _LearnMore()
    reader, inner = _learnt(learn)
    changes: list[str] = []
    reader.on_change = lambda: changes.append(str(inner.calibration))
    assert not _show(reader, inner, BISHOP_DROPPED, DROP_MOVES, STEADY_FRAMES - 1)
    assert _show(reader, inner, BISHOP_DROPPED, DROP_MOVES, 1)
    reader.settle(5.0)
    job = learn.jobs[0]
    assert E4 in job.squares and job.board_field == BISHOP_DROPPED.split(maxsplit=1)[0] and job.geometry == "grid"
    assert job.keep == (0,) and job.ply == len(DROP_MOVES)
    reader.read(FRAME)
    assert inner.calibration == "again 1" and changes[-1] == "again 1"
    assert 0 in reader.kept_parts and job.part in reader.kept_parts


def test_a_position_the_set_knows_teaches_nothing() -> None:
    """7g7f moves one pawn one square: nothing new, nothing misread; no learning."""
    learn = _LearnMore()
    reader, inner = _learnt(learn)
    assert not _show(reader, inner, AFTER_76, ("7g7f",), 2 * STEADY_FRAMES)
    assert learn.jobs == []


def test_a_misread_square_is_learnt_first() -> None:
    """A square the reader gave little to what stands there is learnt from, even in a position with nothing new,
    and before new places (at most `MAX_SQUARES` squares a learning)."""
    learn = _LearnMore()
    reader, inner = _learnt(learn)
    board = AFTER_76.split(maxsplit=1)[0]
    inner.reads_as = _Read(_probs(board, {60: "L"}))
    for _ in range(STEADY_FRAMES):
        reader.read(FRAME)
        reader.position_confirmed(AFTER_76, ("7g7f",))
    reader.settle(5.0)
    assert learn.jobs[0].squares[0] == 60 and len(learn.jobs[0].squares) <= MAX_SQUARES


def test_only_positions_confirmed_on_consecutive_reads_are_learnt_from() -> None:
    """A read the reconciler did not confirm (hands, a move in progress) starts the count again."""
    learn = _LearnMore()
    reader, inner = _learnt(learn)
    for _ in range(3):
        assert not _show(reader, inner, BISHOP_DROPPED, DROP_MOVES, STEADY_FRAMES - 1)
        reader.read(FRAME)  # not confirmed
    assert learn.jobs == []


def test_hidden_squares_are_not_learnt_from() -> None:
    """A square the reader could not see teaches nothing."""
    learn = _LearnMore()
    reader, inner = _learnt(learn)
    inner.reads_as = _Read(inner.reads_as.probs, hidden=(E4,))
    _show(reader, inner, BISHOP_DROPPED, DROP_MOVES, STEADY_FRAMES)
    reader.settle(5.0)
    assert all(E4 not in job.squares for job in learn.jobs)


def test_a_takeback_forgets_what_was_learnt_after_it() -> None:
    """Learnt from a position the game then takes back: that learning is dropped and the set fitted again
    without it (a refit with no new squares, keeping the start)."""
    learn = _LearnMore()
    reader, inner = _learnt(learn)
    _show(reader, inner, BISHOP_DROPPED, DROP_MOVES, STEADY_FRAMES)
    reader.settle(5.0)
    reader.read(FRAME)
    earlier = "lnsgkg1nl/1r5s1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL b Bb 5"
    _show(reader, inner, earlier, DROP_MOVES[:4], STEADY_FRAMES)
    reader.settle(5.0)
    assert len(learn.jobs) == 2 and learn.jobs[1].keep == (0,) and learn.jobs[0].part not in reader.kept_parts
    reader.read(FRAME)
    assert inner.calibration == "again 2"


def test_the_loop_does_not_wait_for_a_later_learning() -> None:
    """While a later learning runs, reads go on with the set learnt before, and no second one starts."""
    gate = threading.Event()
    learn = _LearnMore(gate=gate)
    reader, inner = _learnt(learn)
    _show(reader, inner, BISHOP_DROPPED, DROP_MOVES, STEADY_FRAMES)
    assert reader.learning and not _show(reader, inner, BISHOP_DROPPED, DROP_MOVES, STEADY_FRAMES)
    assert inner.calibration == "start"
    gate.set()
    reader.settle(5.0)
    reader.read(FRAME)
    assert inner.calibration == "again 1" and len(learn.jobs) == 1


def test_a_failed_later_learning_leaves_the_game_reading_as_before() -> None:
    """A later learning that fails changes nothing: the reader reads with the set it had, the failed learning's
    places are not counted as learnt (the position is tried again when shown steady again), and after
    `MAX_FAILURES` failures the set is not learnt again in this game."""
    learn = _LearnMore(fail=ValueError("no features"))
    reader, inner = _learnt(learn)
    for _ in range(MAX_FAILURES + 2):
        _show(reader, inner, BISHOP_DROPPED, DROP_MOVES, STEADY_FRAMES)
        reader.settle(5.0)
        reader.read(FRAME)  # not confirmed: the next showing counts anew
        assert inner.calibration == "start" and reader.kept_parts == [0]
    assert len(learn.jobs) == MAX_FAILURES


def test_no_learning_again_without_a_start_learnt_in_this_game() -> None:
    """A generic reader (no start learnt), or the user's calibration, is never learnt again."""
    learn = _LearnMore()
    inner = _Reader()
    reader = StartLearningReader(inner, learn, again=True)
    assert not _show(reader, inner, BISHOP_DROPPED, DROP_MOVES, 2 * STEADY_FRAMES)
    learnt, inner2 = _learnt(learn)
    learnt.use_calibration("the user's")
    assert not _show(learnt, inner2, BISHOP_DROPPED, DROP_MOVES, 2 * STEADY_FRAMES)
    assert learn.jobs == []


class _Reconciler:
    """Stands in for the reconciler: gives `result`, knows one position."""

    sfen, moves = BISHOP_DROPPED, DROP_MOVES

    def __init__(self) -> None:
        self.result: Result = NoChange()
        self.calls: list[str] = []

    def observe(self, obs: Observation) -> Result:
        return self.result

    def set_position(self, sfen: str, moves: Any = ()) -> None:
        self.calls.append("set_position")

    def expect(self, move: str | None) -> None:
        self.calls.append("expect")

    def decide_now(self) -> None:
        self.calls.append("decide_now")


def test_the_shells_reconciler_tells_the_reader_of_each_confirmed_position() -> None:
    """`watch_confirmed`: each `NoChange` tells the learning reader the reconciler's position (a `Waiting` does
    not); the loop's other calls pass through; eyes without a learning reader, or with one that does not learn
    again, get the reconciler itself."""
    learn = _LearnMore()
    reader, inner = _learnt(learn)
    inner.reads_as = _Read(_probs(BISHOP_DROPPED.split(maxsplit=1)[0]))
    reconciler = _Reconciler()
    watched = watch_confirmed(reconciler, type("Eyes", (), {"reader": reader})())
    assert isinstance(watched, ConfirmedWatch)
    obs = Observation(np.full((81, 29), 1 / 29), stable=True, time=0.0)
    for _ in range(STEADY_FRAMES):
        reader.read(FRAME)
        watched.observe(obs)
    reader.settle(5.0)
    assert len(learn.jobs) == 1
    reconciler.result = Waiting("hands")
    reader.read(FRAME)
    assert isinstance(watched.observe(obs), Waiting)
    watched.set_position(STARTPOS_SFEN)
    watched.expect(None)
    watched.decide_now()
    assert reconciler.calls == ["set_position", "expect", "decide_now"]
    assert watch_confirmed(reconciler, object()) is reconciler
    reader.again = False
    assert watch_confirmed(reconciler, type("Eyes", (), {"reader": reader})()) is reconciler


def test_places_count_a_piece_turned_as_the_other_owners() -> None:
    """Learnt: sente's bishop on 8h. Gote's bishop on 2b (its turned place) is known; on 3d it is new but near
    (two such make a learning: `MIN_NEW`), on 9a far (alone enough: `FAR`); a tokin (never learnt) is new
    anywhere."""
    places = Places()
    places.add(1, (), "9/9/9/9/9/9/9/1B7/9", [64])
    assert places.choose("9/7b1/9/9/9/9/9/9/9", None, ()) == []
    assert places.choose("9/9/9/6b2/9/9/9/9/9", None, ()) == []  # one near place alone: fewer than MIN_NEW
    assert places.choose("9/9/9/6b1b/9/9/9/9/9", None, ()) == [27 + 6, 27 + 8]
    assert places.choose("b8/9/9/9/9/9/9/9/9", None, ()) == [0]  # one far place
    assert places.choose("9/9/9/9/4+P4/9/9/9/9", None, ()) == [40]


def test_places_are_bounded_and_forget_taken_back_positions() -> None:
    """The oldest later learnings go first over the bound (never the start's); a learning whose moves the game no
    longer passes through is forgotten."""
    places = Places()
    places.add(0, (), STARTPOS_SFEN.split()[0], range(81))
    places.add(1, ("7g7f",), "9/9/9/9/4P4/9/9/9/9", [40])
    places.add(2, ("7g7f", "3c3d"), "9/9/9/9/4p4/9/9/9/9", [40])
    assert places.over_bound(1) == [1] and places.over_bound(0) == [1, 2]
    assert places.forget_off(("7g7f", "8c8d")) == [2]
    assert places.parts == [0, 1]


LATER = (
    "b1s1kg1nl/1r2g4/pppp+Ppppp/9/9/9/PPPP1PPPP/1+R5B1/LNSGKGSNL b - 1",
    "lnsgkgsnl/9/pppppppp1/8r/4B4/9/PPPPPPPPP/7R1/LNSGKGSNb b - 1",
    "r1sgkgsnb/9/ppppppppp/9/9/9/PPPPPPPPP/9/BNSGKGSNR b - 1",
)
"""Later positions of a game (made up): promoted faces, a bishop and rooks in new places, rooks in the corners."""


@pytest.mark.slow
@pytest.mark.skipif(not MODEL_PATH.exists(), reason=f"no classifier model at {MODEL_PATH}")
def test_the_real_reader_reads_new_places_better_once_it_learnt_them() -> None:
    """A held-out set whose start shows the rooks on 8b and 2h only. The game confirms three later positions, one
    frame each, learnt off the loop (it learns a promoted rook, a tokin, bishops and a rook on squares the start
    never showed them on): on fresh frames of the three (every piece placed anew), the truth is likelier in all
    than with the start alone (the sum of its log-probabilities over the 243 squares), no more squares are read
    wrong, and every square read wrong with the start alone reads its truth likelier. With the model of session 51
    (ES7) two squares are wrong before, sente's corner rook on 1i (as a silver; its truth 0.02 -> 0.24) and the
    promoted rook on 8h (0.11 -> 0.14), and the same two after: log-likelihood -9.8 -> -7.1. (The model before it
    read 3 wrong before and 2 after, -16.7 -> -12.3: sente's rook on 2h as a silver until gote's rook was learnt on
    1d, which ES7 reads right from the start alone; earlier still, gote's corner rook on 9a.) The promoted rook's
    face is learnt, but while other promoted faces are unseen the promoted faces are read by the generic
    classifier: whether a face is promoted reads exactly as before on every square, and the promoted rook no worse
    (`vision.calibration._keep_unseen_mass`). One cut per square (`ReaderSettings.shifted_looks` off): shifted
    looks re-read the squares the calibration leaves unsure, so which squares are re-read changes as the set is
    learnt, and the promoted share, kept exactly in each reading, is then combined over other cuts. No lookalikes'
    pooling (`ReaderSettings.lookalikes` off) for the same reason: it moves an unsure square's kinds, promoted
    ones too, towards its lookalikes' readings, which change as the set is learnt. No square prior either
    (`ReaderSettings.square_prior` 0): its factors differ between a kind's faces square by square, so it moves the
    promoted share by how the kinds are shared out, which changes as the set is learnt."""
    from controller.sim import VirtualBoard, VirtualCamera

    reader, start_frame, geometry, look = learning_reader_at_start(
        again=True, shifted_looks=False, lookalikes=False, square_prior=0.0
    )
    reader.read(start_frame)
    assert reader.start_confirmed(STARTPOS_SFEN)
    reader.settle(300.0)

    def read(sfen: str) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """On a fresh frame of `sfen`: each square's probability of what stands there, and of a promoted face;
        every square classified on that frame (`reset`: the square memo would keep some readings of the frame read
        before, another position's; with the earlier classifier the third position's learning had just made the
        reader read every square again, with the one-ink one that position is not learnt from)."""
        frame = VirtualCamera(VirtualBoard(geometry, sfen, seed=103), look).read()
        reader.reset()
        labels = [SQUARE_LABELS.index(label) for label in labels_from_board_field(sfen.split(maxsplit=1)[0])]
        probs = np.asarray(reader.read(frame).probs, dtype=np.float64)
        promoted = [label.startswith("+") for label in SQUARE_LABELS]
        return probs[np.arange(81), labels], probs[:, promoted].sum(axis=1)

    before = [read(sfen) for sfen in LATER]
    for ply, sfen in enumerate(LATER, start=1):
        shown = VirtualCamera(VirtualBoard(geometry, sfen, seed=100), look).read()
        for _ in range(STEADY_FRAMES):
            reader.read(shown)
            reader.position_confirmed(sfen, ("7g7f",) * ply)
        reader.settle(300.0)
        assert reader.outcomes[-1].calibration is not None, reader.outcomes[-1].describe()
    after = [read(sfen) for sfen in LATER]
    right_before = np.concatenate([right for right, _ in before])
    right_after = np.concatenate([right for right, _ in after])
    likelihood_before, likelihood_after = np.log(right_before).sum(), np.log(right_after).sum()
    assert likelihood_after > likelihood_before, (likelihood_before, likelihood_after)
    assert (right_after < 0.5).sum() <= (right_before < 0.5).sum()
    wrong = right_before < 0.5
    assert wrong.any() and (right_after[wrong] > right_before[wrong]).all(), (right_before[wrong], right_after[wrong])
    assert reader.outcomes[-1].calibration.model.trained[SQUARE_LABELS.index("+R")]
    (rook_before, promoted_before), (rook_after, promoted_after) = before[0], after[0]
    np.testing.assert_allclose(promoted_after, promoted_before, rtol=1e-6)  # promoted or not: the generic's
    assert rook_after[64] >= rook_before[64]  # the promoted rook on 8h: the generic's own reading
