"""The simulated world for the whole game with no hardware: the virtual board, a simulated person, the camera.

Owns: `VirtualBoard` (physical truth: pieces, places, gantry head events, a person's arm), `SimulatedHuman`
(a person's moves as timed world states), `VirtualCamera` (a frame source rendering the board), and the replay
pipeline (`controller.sim.replay`) that feeds those frames to the real motion gate, reader and reconciler.
Composition side: it may import `vision.render`, `hardware.geometry` and `controller`, never `firmware_bridge`.
"""

from controller.sim.camera import CameraSettings, VirtualCamera
from controller.sim.errors import SimError
from controller.sim.human import HumanSettings, SimulatedHuman, Step, Timeline
from controller.sim.places import AtFlipStation, InGripper, InHand, Loose, OnSquare, OnStand, Place
from controller.sim.world import LostPiece, SimPiece, VirtualBoard

__all__ = [
    "AtFlipStation",
    "CameraSettings",
    "HumanSettings",
    "InGripper",
    "InHand",
    "Loose",
    "LostPiece",
    "OnSquare",
    "OnStand",
    "Place",
    "SimError",
    "SimPiece",
    "SimulatedHuman",
    "Step",
    "Timeline",
    "VirtualBoard",
    "VirtualCamera",
]
