"""The interfaces the controller needs from the outside world (typing.Protocol ports).

Owns: the shapes of the gantry, the camera's observations and the clock as the controller sees them. Concrete
adapters (firmware_bridge, hardware, vision) satisfy these structurally; `controller.compose` wires them.
"""

from __future__ import annotations

from typing import Protocol

import numpy as np
import numpy.typing as npt


class Clock(Protocol):
    """Monotonic time in seconds, injected so that tests and simulations control it."""

    def now(self) -> float:
        """Seconds on a monotonic scale."""
        ...


class Gantry(Protocol):
    """An XY gantry with a lifting head and a gripper, in millimetres of machine coordinates."""

    def home(self) -> None:
        """Run the homing cycle and wait until it is done."""
        ...

    def move_to(self, x_mm: float, y_mm: float, z_mm: float | None = None) -> None:
        """Queue a rapid move to the point (z unchanged when None)."""
        ...

    def wait_idle(self) -> None:
        """Block until every queued motion has finished."""
        ...

    def grip(self) -> None:
        """Energise the magnet or pump (after motion has stopped)."""
        ...

    def release(self) -> None:
        """De-energise the magnet or pump (after motion has stopped)."""
        ...


class FrameSource(Protocol):
    """A camera: each `read()` returns the newest frame as a BGR uint8 array (height x width x 3).

    Real cameras live in `hardware.camera`; the simulated one is `controller.sim.camera.VirtualCamera`.
    """

    def read(self) -> npt.NDArray[np.uint8]:
        """The next frame (BGR, uint8); raises the source's own error when none can be had."""
        ...
