"""Runs `shogi-robot ARGS...` in a child process with the reader replaced by `runner_sim.TruthEyes` (the crash
and resume tests kill this process with SIGKILL). Everything else is the real command."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from runner_sim import TruthEyes

from controller import compose
from controller.cli.main import main

compose.camera_eyes = TruthEyes  # type: ignore[assignment]

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
