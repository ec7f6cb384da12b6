"""The replay loop (frames, motion gate, reconciler, recording) with a perfect reader standing in for vision."""

from __future__ import annotations

from sim_oracle import OracleReader

from controller.reconcile import Reconciler
from controller.rules.positions import STARTPOS_SFEN
from controller.sim import CameraSettings, HumanSettings, SimulatedHuman, VirtualBoard, VirtualCamera
from controller.sim.replay import GameReport, ReplaySettings, replay_game, summarise
from hardware.settings import load_settings
from vision.motion import MotionGate

GEOMETRY = load_settings(None).geometry
MOVES = ["3g3f", "8c8d", "3f3e", "8d8e", "6i7h", "8e8f", "8g8f", "8b8f", "P*8g", "8f8e"]


def _replay(human_settings: HumanSettings, seed: int) -> GameReport:
    board = VirtualBoard(GEOMETRY, seed=seed)
    camera = VirtualCamera(board, CameraSettings(size=(320, 240), seed=seed))
    return replay_game(
        MOVES,
        start_sfen=STARTPOS_SFEN,
        human=SimulatedHuman(board, human_settings, seed=seed),
        camera=camera,
        gate=MotionGate(),
        reader=OracleReader(board, camera),
        reconciler=Reconciler(),
        settings=ReplaySettings(),
    )


def test_loop_records_every_move_with_times() -> None:
    """With a perfect reader every move is recorded once, in order, with a time, and nothing is prompted."""
    report = _replay(HumanSettings(pair_rate=0.0), seed=1)
    assert report.ok, report.events
    assert report.record.usi_moves == MOVES
    assert all(m.seconds is not None and m.seconds > 0 for m in report.record.moves)
    summary = summarise([report])
    assert (summary.correct, summary.false_moves, summary.prompts) == (len(MOVES), 0, 0)
    assert len(report.latencies_ms) == len(MOVES)
    assert report.arm_reads == 0  # the moving hand never looked still to the motion gate


def test_two_quick_moves_are_committed_as_a_pair() -> None:
    """When every move follows the last at once, no frame is stable between them: pairs are committed."""
    report = _replay(HumanSettings(pair_rate=1.0), seed=2)
    assert report.record.usi_moves == MOVES
    assert len(report.latencies_ms) < len(MOVES)


def test_setup_check_fails_when_the_start_position_is_not_seen() -> None:
    """A board set up wrongly (a pawn missing) is never taken as the start: no move is played or recorded."""
    board = VirtualBoard(GEOMETRY, "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPP1/1B5R1/LNSGKGSNL b - 1", seed=3)
    camera = VirtualCamera(board, CameraSettings(size=(320, 240), seed=3))
    report = replay_game(
        MOVES,
        start_sfen=STARTPOS_SFEN,
        human=SimulatedHuman(board, seed=3),
        camera=camera,
        gate=MotionGate(),
        reader=OracleReader(board, camera),
        reconciler=Reconciler(),
        settings=ReplaySettings(stuck_s=1.0),
    )
    assert report.error.startswith("setup check failed")
    assert report.record.moves == [] and report.correct == 0
