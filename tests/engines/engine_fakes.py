"""Shared helpers of the engine tests: the fake engine's path and fast timeouts (imported as `engine_fakes`)."""

from __future__ import annotations

from pathlib import Path

from controller.engines import Timeouts

FAKE = Path(__file__).parent / "fakes" / "fake_engine.py"
"""The scriptable fake USI engine (run with sys.executable)."""

FAST = Timeouts(launch_s=3.0, ready_s=1.0, bestmove_margin_s=0.5, unbounded_search_s=2.0, stop_s=0.5, quit_grace_s=0.3)
"""Short timeouts so that hangs are detected quickly in tests."""
