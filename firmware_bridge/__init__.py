"""The serial link to the gantry's firmware (GRBL 1.1, grblHAL, FluidNC): knows G-code and millimetres, not shogi.

Layers (each module says what it owns): `transport` (the only module importing pyserial) -> `protocol` (pure
parser) -> `link` (send-response streaming, push routing, faults) -> `gantry` (the millimetre API), with
`gcode` (pure line builders), `codes` (error/alarm meanings from `grbl_codes.json`) and a byte-level fake
GRBL 1.1h device (`fake_grbl`, served on a pty by `fake_server`). Never imports `controller`, `vision` or
`hardware`.

Public API:
- `GrblGantry.open(url, timings=, link_timings=, gripper=, clock=, expect_reset=)` or
  `GrblGantry(GrblLink(SerialTransport(url), clock, LinkTimings(...)), GantryTimings(...), gripper)` then
  `.connect()`. Methods: `home()`, `unlock()`, `move_to(x_mm, y_mm, z_mm=None)` (queues a G0),
  `wait_idle()`, `grip()`, `release()` (M8/M9, or `gripper(on: bool)` after a sync), `status()`, `hold()`,
  `resume()`, `reset() -> ResetResult`, `position() -> Position | None` (last confirmed at Idle),
  `snapshot() -> HeadSnapshot`, `close()`. Satisfies `controller.ports.Gantry` structurally.
- Errors: `FirmwareBridgeError` > `ConnectionLost`, `NoResponse`, `GrblError(code, line)`,
  `GrblAlarm(code)` (`.requires_homing`: `$H` vs `$X`), `ControllerReset(banner)`, `GcodeError`; each has
  `.line` (the line in flight) and `.snapshot` (a `HeadSnapshot`, set by the gantry).
- Fake device: `FakeGrblServer(FakeGrblConfig(settings=FAST_MOTION, faults=FaultConfig(...)),
  on_event=callback).start() -> "/dev/pts/N"`, `.events() -> tuple[HeadEvent, ...]`, `.stop()`; or the
  transport-free `FakeGrbl(config, now)` on an injected clock, or `fake_transport.FakeGrblTransport(config)`
  (a Transport on a simulated `SimClock`: `GrblGantry(GrblLink(t, t.clock))`, no real waiting, for benchmarks).
  `HeadEvent(time_s, kind, x_mm, y_mm, z_mm, detail)`: `kind` in grip/release/move/home/alarm/reset/
  disconnect, at the physical head position.
- Fake flavours (`FakeGrblConfig.flavour`): GRBL 1.1h (default), grblHAL, FluidNC (banners, CRLF, boot noise).
- Fake machine frame: homing sets 0,0,0; X in [0, $130], Y in [0, $131], Z in [-$132, 0] (0 = top).
"""

from firmware_bridge.errors import (
    ConnectionLost,
    ControllerReset,
    FirmwareBridgeError,
    GcodeError,
    GrblAlarm,
    GrblError,
    HeadSnapshot,
    NoResponse,
    Position,
)
from firmware_bridge.fake_config import (
    FAST_MOTION,
    FakeGrblConfig,
    FaultConfig,
    FaultKind,
    HeadEvent,
    HeadEventKind,
)
from firmware_bridge.fake_server import FakeGrblServer
from firmware_bridge.gantry import GantryTimings, GrblGantry
from firmware_bridge.link import GrblLink, LinkState, LinkTimings, ResetResult

__all__ = [
    "FAST_MOTION",
    "ConnectionLost",
    "ControllerReset",
    "FakeGrblConfig",
    "FakeGrblServer",
    "FaultConfig",
    "FaultKind",
    "FirmwareBridgeError",
    "GantryTimings",
    "GcodeError",
    "GrblAlarm",
    "GrblError",
    "GrblGantry",
    "GrblLink",
    "HeadEvent",
    "HeadEventKind",
    "HeadSnapshot",
    "LinkState",
    "LinkTimings",
    "NoResponse",
    "Position",
    "ResetResult",
]
