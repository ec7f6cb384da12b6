"""`shogi-robot serve`: the web page on its own (play, record and remote serve it as part of the game).

On its own it shows an idle board, or steps through a record with `--replay`, and prints the commands pages send.
Binds 127.0.0.1 unless `--listen` says otherwise, which then needs `--token-file` (a file with 0600 permissions).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

from controller.cli.errors import CommandError


def register(subparsers: Any) -> None:
    """Add `serve`."""
    parser: argparse.ArgumentParser = subparsers.add_parser("serve", help="serve the web page", description=__doc__)
    parser.add_argument("--listen", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8080)
    parser.add_argument("--token-file", type=Path, help="access token for pages (required beyond loopback)")
    parser.add_argument("--replay", type=Path, help="a record to step through on the page")
    parser.add_argument("--step-s", type=float, default=2.0, help="seconds per move with --replay")
    parser.add_argument("--duration-s", type=float, default=0.0, help="stop after this long (0 = until Ctrl-C)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Serve until interrupted (or for --duration-s)."""
    from controller.secrets import Token
    from controller.web.hub import ViewHub
    from controller.web.server import WebServer
    from controller.web.view import GameView

    token = Token.from_file(args.token_file).value if args.token_file else None
    hub = ViewHub()
    try:
        server = WebServer(hub, args.listen, args.port, token)
    except OSError as exc:
        raise CommandError(f"cannot listen on {args.listen}:{args.port}: {exc.strerror}") from exc
    server.start()
    print(f"serving {server.url}", flush=True)
    record = _load(args.replay) if args.replay else None
    hub.publish(
        GameView(mode="replay" if record else "idle", start_sfen=record.start_sfen if record else GameView().start_sfen)
    )
    deadline = time.monotonic() + args.duration_s if args.duration_s > 0 else None
    ply, next_step = 0, time.monotonic() + args.step_s
    try:
        while deadline is None or time.monotonic() < deadline:
            command = hub.take_command(timeout_s=0.2)
            if command is not None:
                print(f"command from the page: {command.kind} {command.args}", flush=True)
            if record is not None and ply < len(record.moves) and time.monotonic() >= next_step:
                ply += 1
                moves = tuple(record.usi_moves[:ply])
                hub.publish(GameView(mode="replay", start_sfen=record.start_sfen, moves=moves, status=f"ply {ply}"))
                next_step += args.step_s
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
    return 0


def _load(path: Path) -> Any:
    from controller.records.io import read_record

    return read_record(path)
