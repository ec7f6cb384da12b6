"""`shogi-robot sim grbl`: a real process serving the fake device; a gantry drives it over its pty path."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

from firmware_bridge import GantryTimings, GrblGantry, LinkTimings, Position

REPO = Path(__file__).resolve().parents[2]


def _start(*args: str) -> subprocess.Popen[str]:
    command = [sys.executable, "-m", "controller.cli.main", "sim", "grbl", *args]
    return subprocess.Popen(command, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _finish(process: subprocess.Popen[str], timeout: float = 20.0) -> str:
    """The process's stderr once it has exited; killed (and the test failed) if it does not exit in time, so a
    hung server never outlives its test."""
    try:
        return process.communicate(timeout=timeout)[1]
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        raise


def test_sim_grbl_prints_path_and_serves_until_interrupted() -> None:
    """It should print the device path, serve a gantry's home/move/grip, log head events and exit 0 on Ctrl-C."""
    process = _start("--fast", "--boot-delay", "0.05", "--events")
    try:
        assert process.stdout is not None
        path = process.stdout.readline().strip()
        assert path.startswith("/dev/")
        gantry = GrblGantry.open(
            path,
            timings=GantryTimings(motion_timeout_s=5.0, grip_dwell_s=0.01, release_dwell_s=0.01),
            link_timings=LinkTimings(boot_timeout_s=2.0),
        )
        gantry.home()
        gantry.move_to(50.0, 60.0, -5.0)
        gantry.grip()
        assert gantry.position() == Position(50.0, 60.0, -5.0)
        gantry.close()
    finally:
        process.send_signal(signal.SIGINT)
        stderr = _finish(process)
    assert process.returncode == 0
    assert "grip 50.000,60.000,-5.000" in stderr


def test_sim_grbl_rejects_unknown_fault() -> None:
    """It should exit 1 with a clear message for an unknown fault setting."""
    process = _start("--faults", "explode=1")
    stderr = _finish(process)
    assert process.returncode == 1
    assert "unknown fault setting 'explode=1'" in stderr
