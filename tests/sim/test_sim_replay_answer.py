"""The replay's simulated person answers a move question with the moves they really made when no candidate is."""

from __future__ import annotations

from sim_oracle import OracleReader

from controller.reconcile import Ambiguous, Candidate, MoveCommitted, Observation, Reconciler, Result
from controller.rules.positions import STARTPOS_SFEN
from controller.sim import CameraSettings, HumanSettings, SimulatedHuman, VirtualBoard, VirtualCamera
from controller.sim.replay import ReplaySettings, replay_game
from hardware.settings import load_settings
from vision.motion import MotionGate

GEOMETRY = load_settings(None).geometry
MOVES = ["7g7f", "3c3d", "2g2f", "4c4d"]


class WrongCandidates(Reconciler):
    """A reconciler that, whenever it would commit the game's first move, asks about two moves nobody played
    instead (only an answer with the move made gets the game going)."""

    def observe(self, obs: Observation) -> Result:
        result = super().observe(obs)
        if isinstance(result, MoveCommitted) and len(self.moves) == len(result.moves):
            self.take_back(len(result.moves))
            return Ambiguous(tuple(Candidate((usi,), 0, -1.0, usi) for usi in ("1g1f", "9g9f")))
        return result


def test_person_answers_with_the_moves_made_when_no_candidate_is_them() -> None:
    """The person gives the move played ("another move"): it is recorded right and the prompt is counted."""
    board = VirtualBoard(GEOMETRY, seed=4)
    camera = VirtualCamera(board, CameraSettings(size=(320, 240), seed=4))
    report = replay_game(
        MOVES,
        start_sfen=STARTPOS_SFEN,
        human=SimulatedHuman(board, HumanSettings(pair_rate=0.0), seed=4),
        camera=camera,
        gate=MotionGate(),
        reader=OracleReader(board, camera),
        reconciler=WrongCandidates(),
        settings=ReplaySettings(),
    )
    assert report.ok, report.events
    assert report.record.usi_moves == MOVES and report.prompts == 1
    assert any("answered another move: 7g7f" in event for event in report.events), report.events
