"""Measure remote play's move latency on the simulated board against the test CSA server (a developer's tool).

A simulated game: the local side is the simulated human on the virtual board, read by the real camera reader and
reconciler; the remote side is a scripted CSA player on the test server (tests/remote/csa_server.py) over
loopback. For each local move it prints: committed (from the camera's stable frame) -> sent to the server, sent ->
the other side received it, and sent -> the server's echo back on the board's connection.

    .venv/bin/python scripts/remote_latency.py [--plies 21] [--seed 3]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "remote"))

from test_remote_board import SAMPLE, ServerThread  # noqa: E402

from controller.game.settings import Mode  # noqa: E402
from controller.remote.links import CsaLink  # noqa: E402
from controller.runner.options import SessionOptions  # noqa: E402
from controller.runner.session import run_session  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--plies", type=int, default=21)
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    moves = SAMPLE[: args.plies]
    with tempfile.TemporaryDirectory() as tmp, ServerThread() as server:
        human = Path(tmp) / "human.usi"
        human.write_text("startpos moves " + " ".join(moves) + "\n", encoding="utf-8")
        arrivals: dict[int, float] = {}
        server.on_receive = lambda ply: arrivals.setdefault(ply, time.monotonic())
        server.start_opponent(moves)
        options = SessionOptions(
            Mode.PLAY, sim=True, sim_human=str(human), out=Path(tmp), name="latency", board_every=0,
            remote=CsaLink(server.settings("board")), remote_server="loopback", seed=args.seed,
        )  # fmt: skip
        started = time.monotonic()
        result = run_session(options, say=lambda _t: None)
        wall = time.monotonic() - started
    figures = result.remote_figures
    local = sorted(figures.sent)
    to_other = [(arrivals[p] - figures.sent[p]) * 1000 for p in local if p in arrivals]
    committed = figures.send_delays_ms()
    echo = figures.round_trips_ms()
    state = result.report.state
    print(f"game: {len(state.moves)} plies in {wall:.1f} s, result {state.result}")
    print(f"local moves measured: {len(local)}")
    for name, values in (
        ("committed -> sent", committed),
        ("sent -> other side received", to_other),
        ("sent -> echo back", echo),
    ):
        if values:
            print(f"  {name:28s} median {statistics.median(values):7.2f} ms  max {max(values):7.2f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
