"""GrblGantry end to end: real pty, real pyserial, the fake GRBL 1.1h device."""

from __future__ import annotations

from collections.abc import Callable

from firmware_bridge import FakeGrblServer, GrblGantry, HeadEventKind, Position
from firmware_bridge.protocol import MachineState


def _kinds(server: FakeGrblServer) -> list[str]:
    return [e.kind.value for e in server.events() if e.kind is not HeadEventKind.RESET]


def test_home_then_position_is_origin(serve: Callable[..., FakeGrblServer], connect: Callable[..., GrblGantry]) -> None:
    """It should home ($H from the power-on alarm lock) and confirm the origin at Idle."""
    server = serve()
    gantry = connect(server.path)
    gantry.home()
    assert gantry.position() == Position(0.0, 0.0, 0.0)
    assert gantry.snapshot().position_trusted
    assert _kinds(server) == ["home"]


def test_move_and_wait_idle_confirms_target(
    serve: Callable[..., FakeGrblServer], connect: Callable[..., GrblGantry]
) -> None:
    """It should report the target as the confirmed position only after wait_idle."""
    server = serve()
    gantry = connect(server.path)
    gantry.home()
    gantry.move_to(120.5, 80.25, -10.0)
    gantry.wait_idle()
    assert gantry.position() == Position(120.5, 80.25, -10.0)
    assert gantry.status().state is MachineState.IDLE


def test_grip_and_release_happen_after_motion_stops(
    serve: Callable[..., FakeGrblServer], connect: Callable[..., GrblGantry]
) -> None:
    """It should grip at the pick point and release at the place point, each after the move has finished."""
    server = serve()
    gantry = connect(server.path)
    gantry.home()
    gantry.move_to(100.0, 50.0, -20.0)
    gantry.grip()
    gantry.move_to(100.0, 50.0, 0.0)
    gantry.move_to(300.0, 200.0, 0.0)
    gantry.move_to(300.0, 200.0, -20.0)
    gantry.release()
    events = [e for e in server.events() if e.kind in (HeadEventKind.GRIP, HeadEventKind.RELEASE, HeadEventKind.MOVE)]
    assert [e.kind.value for e in events] == ["move", "grip", "move", "move", "move", "release"]
    grip, release = events[1], events[5]
    assert (grip.x_mm, grip.y_mm, grip.z_mm) == (100.0, 50.0, -20.0)
    assert (release.x_mm, release.y_mm, release.z_mm) == (300.0, 200.0, -20.0)
    assert grip.time_s >= events[0].time_s and release.time_s >= events[4].time_s
    assert gantry.snapshot().gripper_on is False


def test_gpio_gripper_is_driven_after_sync(
    serve: Callable[..., FakeGrblServer], connect: Callable[..., GrblGantry]
) -> None:
    """It should call an injected gripper only once the controller reports the head Idle at the target."""
    server = serve()
    seen: list[tuple[bool, Position | None]] = []
    gantry: GrblGantry | None = None

    def gripper(on: bool) -> None:
        assert gantry is not None
        seen.append((on, gantry.position()))

    gantry = connect(server.path, gripper=gripper)
    gantry.home()
    gantry.move_to(42.0, 24.0, -5.0)
    gantry.grip()
    gantry.move_to(10.0, 20.0)
    gantry.release()
    assert seen == [(True, Position(42.0, 24.0, -5.0)), (False, Position(10.0, 20.0, -5.0))]
    assert HeadEventKind.GRIP not in {e.kind for e in server.events()}


def test_settings_are_read_as_numbers(serve: Callable[..., FakeGrblServer], connect: Callable[..., GrblGantry]) -> None:
    """It should read `$$` into numbers, e.g. the max rates and accelerations a planner needs."""
    gantry = connect(serve().path)
    settings = gantry.settings()
    assert settings[110] == 120000.0 and settings[120] == 20000.0 and settings[130] == 600.0
