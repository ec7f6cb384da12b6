"""Shared helpers of the engine tests: the fake engine's path and fast timeouts (imported as `engine_fakes`)."""

from __future__ import annotations

from pathlib import Path

from controller.engines import Timeouts

FAKE = Path(__file__).parent / "fakes" / "fake_engine.py"
"""The scriptable fake USI engine (run with sys.executable)."""

FAST = Timeouts(launch_s=10.0, ready_s=1.0, bestmove_margin_s=0.5, unbounded_search_s=2.0, stop_s=0.5, quit_grace_s=0.3)
"""Short timeouts so that hangs are detected quickly in tests; launching gets 10 s (a Python fake engine took more
than 3 s to start on a machine at load 6; the launch-hang test sets its own)."""
