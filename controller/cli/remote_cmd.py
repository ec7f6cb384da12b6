"""`shogi-robot remote csa|lishogi`: a game against a remote opponent on the physical (or simulated) board.

The remote player's moves are played on the board by the gantry (or announced in assist mode) and checked by the
camera; the local player's moves, read by the camera, go to the server. The server's clocks and verdicts rule. A
dropped connection is re-established with backoff and the game resynchronised from the server's move list; if the
board and the server disagree the game stops and names the squares to fix. The game is recorded (journal, KIFU,
CSA) as it goes.

- CSA (shogi-server, Floodgate): `remote csa --host H [--port 4081] --user U --password P [--game NAME]`; the
  game name, when given, is sent as the password's `NAME,` prefix the way shogi-server pairs players.
- lishogi Board API: `remote lishogi --token-file F [--seek TIME+INC | --challenge USER | --game ID]`; the token
  file must have 0600 permissions, and the token is never printed.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

from controller.cli.errors import CommandError
from controller.cli.game_args import add_world, session_options, summary


def register(subparsers: Any) -> None:
    """Add `remote csa` and `remote lishogi`."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "remote", help="play a remote opponent (CSA server or lishogi) on the board", description=__doc__
    )
    kinds = parser.add_subparsers(dest="server", required=True, metavar="csa|lishogi")
    csa = kinds.add_parser("csa", help="a CSA protocol server (shogi-server, Floodgate)")
    csa.add_argument("--host", required=True, help="the CSA server")
    csa.add_argument("--port", type=int, default=4081, help="its port (default 4081)")
    csa.add_argument("--user", required=True, help="the login name")
    secret = csa.add_mutually_exclusive_group(required=True)
    secret.add_argument("--password", help="the password (visible to other local users: prefer --password-file)")
    secret.add_argument("--password-file", type=Path, help="a 0600 file holding the password")
    csa.add_argument("--game", help="the game name shogi-server pairs by (sent as `GAME,password`)")
    _common(csa)
    csa.set_defaults(func=run_csa)
    lishogi = kinds.add_parser("lishogi", help="the lishogi Board API")
    lishogi.add_argument("--token-file", type=Path, required=True, help="a 0600 file holding the API token")
    lishogi.add_argument("--base-url", default="https://lishogi.org", help=argparse.SUPPRESS)
    how = lishogi.add_mutually_exclusive_group(required=True)
    how.add_argument("--seek", metavar="TIME+INC", help="seek a real-time game: minutes+increment seconds (10+0)")
    how.add_argument("--challenge", metavar="USER", help="challenge this user (the clock from --time, or 10 min)")
    how.add_argument("--game", metavar="ID", help="join this ongoing game")
    _common(lishogi)
    lishogi.set_defaults(func=run_lishogi)


def _common(parser: argparse.ArgumentParser) -> None:
    add_world(parser)
    parser.add_argument("--assist", action="store_true", help="no gantry: announce the remote moves for the human")
    parser.add_argument("--gantry-port", dest="port", help="the gantry's serial port (real hardware)")
    parser.add_argument("--time", default="600+0", help="the clock asked for by --challenge (seconds+byoyomi)")


def run_csa(args: argparse.Namespace) -> int:
    """Play one game on a CSA server."""
    from controller.remote.csa_client import CsaSettings
    from controller.remote.links import CsaLink
    from controller.secrets import Token, TokenFileError

    password = args.password
    if args.password_file is not None:
        try:
            password = Token.from_file(args.password_file).value
        except TokenFileError as exc:
            raise CommandError(str(exc)) from exc
    if args.game:
        password = f"{args.game},{password}"
    link = CsaLink(CsaSettings(host=args.host, port=args.port, user=args.user, password=password))
    return _play(args, link, f"csa://{args.host}:{args.port}")


def run_lishogi(args: argparse.Namespace) -> int:
    """Play one game through the lishogi Board API."""
    from controller.remote.links import LishogiLink
    from controller.remote.lishogi_api import LishogiApi, Token, TokenFileError

    try:
        token = Token.from_file(args.token_file)
    except TokenFileError as exc:
        raise CommandError(str(exc)) from exc
    find = _find(args)
    link = LishogiLink(LishogiApi(token, args.base_url), find)
    return _play(args, link, args.base_url)


def _find(args: argparse.Namespace) -> Any:
    from controller.remote.links import LishogiFind

    if args.game:
        return LishogiFind(game=args.game)
    if args.seek:
        minutes, _, increment = args.seek.partition("+")
        try:
            return LishogiFind(seek=True, main_s=int(float(minutes) * 60), increment_s=int(increment or 0))
        except ValueError as exc:
            raise CommandError(f"bad --seek {args.seek!r}: use minutes+increment, e.g. 10+0") from exc
    main, _, byoyomi = str(args.time).partition("+")
    try:
        return LishogiFind(challenge=args.challenge, main_s=int(float(main)), byoyomi_s=int(float(byoyomi or 0)))
    except ValueError as exc:
        raise CommandError(f"bad --time {args.time!r}: use seconds+byoyomi, e.g. 600+10") from exc


def _play(args: argparse.Namespace, link: Any, server: str) -> int:
    from controller.game.settings import Mode
    from controller.runner.remote_game import figure_lines
    from controller.runner.remote_opponent import RemoteGameError
    from controller.runner.session import run_session

    args.time = None  # the server's clock rules; --time only shaped a challenge
    options = session_options(
        args, Mode.PLAY, gantry=False if args.assist else None, port=args.port, remote=link, remote_server=server
    )
    start = time.monotonic()
    try:
        result = run_session(options, say=_say)
    except (ConnectionError, RemoteGameError) as exc:
        raise CommandError(f"the remote game could not go on: {exc}") from exc
    for line in summary(result, time.monotonic() - start):
        _say(line)
    if result.remote_figures is not None:
        for line in figure_lines(result.remote_figures):
            _say(line)
    return 0


def _say(text: str) -> None:
    print(text, flush=True)
