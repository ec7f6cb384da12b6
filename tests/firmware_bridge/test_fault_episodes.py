"""Many single-fault episodes on the simulated clock: every fault surfaces as a FirmwareBridgeError with a
snapshot, the snapshot never claims more than the host knows, and reset + home always recovers."""

from __future__ import annotations

import pytest

from firmware_bridge import (
    FAST_MOTION,
    ConnectionLost,
    FakeGrblConfig,
    FaultConfig,
    FaultKind,
    FirmwareBridgeError,
    GantryTimings,
    GrblGantry,
    GrblLink,
    HeadEventKind,
    LinkTimings,
    Position,
)
from firmware_bridge.fake_transport import FakeGrblTransport

PICK, PLACE = (100.0, 50.0, -20.0), (400.0, 300.0, -20.0)
TIMINGS = GantryTimings(motion_timeout_s=10.0, homing_timeout_s=10.0)


def _transfer(gantry: GrblGantry) -> None:
    gantry.home()
    gantry.move_to(PICK[0], PICK[1], 0.0)
    gantry.move_to(*PICK)
    gantry.grip()
    gantry.move_to(PICK[0], PICK[1], 0.0)
    gantry.move_to(PLACE[0], PLACE[1], 0.0)
    gantry.move_to(*PLACE)
    gantry.release()
    gantry.move_to(PLACE[0], PLACE[1], 0.0)
    gantry.wait_idle()


def _episode(faults: FaultConfig) -> tuple[FirmwareBridgeError | None, FakeGrblTransport, GrblGantry]:
    transport = FakeGrblTransport(FakeGrblConfig(settings=FAST_MOTION, faults=faults))
    gantry = GrblGantry(GrblLink(transport, transport.clock, LinkTimings()), TIMINGS)
    try:
        gantry.connect()
        _transfer(gantry)
    except FirmwareBridgeError as exc:
        return exc, transport, gantry
    return None, transport, gantry


@pytest.mark.parametrize("kind", [FaultKind.DISCONNECT, FaultKind.RESET, FaultKind.ALARM, FaultKind.MISSING_OK])
def test_every_line_fault_is_reported_with_a_truthful_snapshot(kind: FaultKind) -> None:
    """It should raise, for a fault after any line of a transfer, an error whose snapshot matches the device."""
    for line in range(1, 15):
        for delay in (0.0, 0.03):
            error, transport, gantry = _episode(FaultConfig.single(kind, line, delay))
            assert error is not None, (kind, line, delay)
            snap = error.snapshot
            assert snap is not None, (kind, line, delay)
            gripping = transport.device.gripping
            if snap.gripper_on is not None:
                assert snap.gripper_on == gripping, (kind, line, delay)
            if kind is not FaultKind.MISSING_OK:
                assert not gripping
            if isinstance(error, ConnectionLost):
                continue
            gantry.reset()
            gantry.home()
            gantry.move_to(10.0, 10.0)
            gantry.wait_idle()
            assert gantry.position() == Position(10.0, 10.0, 0.0)


def test_garbage_and_slow_ok_do_not_interrupt_a_transfer() -> None:
    """It should finish the transfer under noise (several seeds) and under a 0.5 s response latency."""
    for faults in [*(FaultConfig.single(FaultKind.GARBAGE, seed=s) for s in range(5)), FaultConfig(ok_latency_s=0.5)]:
        error, transport, gantry = _episode(faults)
        assert error is None, faults
        assert gantry.position() == Position(PLACE[0], PLACE[1], 0.0)
        kinds = [e.kind for e in transport.device.events if e.kind in (HeadEventKind.GRIP, HeadEventKind.RELEASE)]
        assert kinds == [HeadEventKind.GRIP, HeadEventKind.RELEASE]
