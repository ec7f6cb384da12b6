"""The lishogi Board API over HTTPS: event and game streams (NDJSON), moves, resign, draws, chat, seeks and
challenges. Blocking HTTP runs in worker threads; streams are delivered to asyncio through queues.

Owns: the HTTP exchange and the OAuth token handling. The token is read from a file with 0600 permissions and is
never printed, logged or put in an exception message.
"""

from __future__ import annotations

import asyncio
import contextlib
import http.client
import json
import logging
import threading
import urllib.parse
from collections.abc import AsyncIterator
from typing import Any

from controller.secrets import Token, TokenFileError

__all__ = ["LishogiApi", "LishogiError", "StreamBrokenError", "Token", "TokenFileError"]

log = logging.getLogger(__name__)

DEFAULT_BASE_URL = "https://lishogi.org"


class LishogiError(RuntimeError):
    """The server refused a request (status and its error text), or could not be reached."""

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


class StreamBrokenError(LishogiError):
    """A stream ended or failed before the server finished it."""


class LishogiApi:
    """The Board API endpoints, as coroutines."""

    def __init__(self, token: Token, base_url: str = DEFAULT_BASE_URL, timeout_s: float = 30.0) -> None:
        parsed = urllib.parse.urlsplit(base_url)
        if parsed.scheme not in ("http", "https") or not parsed.hostname:
            raise ValueError(f"not an http(s) base URL: {base_url!r}")
        self._scheme = parsed.scheme
        self._host = parsed.hostname
        self._port = parsed.port
        self._token = token
        self.timeout_s = timeout_s

    async def move(self, game_id: str, usi: str, offering_draw: bool = False) -> None:
        """Play a move in USI notation."""
        query = "?offeringDraw=true" if offering_draw else ""
        await self._post(f"/api/board/game/{_q(game_id)}/move/{_q(usi)}{query}")

    async def resign(self, game_id: str) -> None:
        """Resign the game."""
        await self._post(f"/api/board/game/{_q(game_id)}/resign")

    async def abort(self, game_id: str) -> None:
        """Abort the game (only before enough moves were played)."""
        await self._post(f"/api/board/game/{_q(game_id)}/abort")

    async def draw(self, game_id: str, accept: bool) -> None:
        """Offer or accept (True), or decline (False) a draw."""
        await self._post(f"/api/board/game/{_q(game_id)}/draw/{'yes' if accept else 'no'}")

    async def chat(self, game_id: str, text: str, room: str = "player") -> None:
        """Write a line in the game chat."""
        await self._post(f"/api/board/game/{_q(game_id)}/chat", {"room": room, "text": text})

    async def challenge(self, user: str, clock: dict[str, int]) -> dict[str, Any]:
        """Challenge a user; `clock` holds `clock.limit`, `clock.increment`, `clock.byoyomi`, `clock.periods`."""
        return await self._post(f"/api/challenge/{_q(user)}", {k: str(v) for k, v in clock.items()})

    async def accept_challenge(self, challenge_id: str) -> None:
        """Accept a challenge addressed to this account."""
        await self._post(f"/api/challenge/{_q(challenge_id)}/accept")

    def events(self) -> AsyncIterator[dict[str, Any]]:
        """The account's event stream (gameStart, gameFinish, challenge, challengeDeclined)."""
        return self._stream("GET", "/api/stream/event")

    def game(self, game_id: str) -> AsyncIterator[dict[str, Any]]:
        """A game's stream: gameFull first, then gameState per move and chatLine."""
        return self._stream("GET", f"/api/board/game/stream/{_q(game_id)}")

    def seek(self, minutes: float, increment_s: int, byoyomi_s: int, periods: int = 1) -> AsyncIterator[dict[str, Any]]:
        """A real-time seek: active while the returned stream is being read."""
        form = {"time": str(minutes), "increment": str(increment_s), "byoyomi": str(byoyomi_s), "periods": str(periods)}
        return self._stream("POST", "/api/board/seek", form)

    def _connection(self) -> http.client.HTTPConnection:
        cls = http.client.HTTPSConnection if self._scheme == "https" else http.client.HTTPConnection
        return cls(self._host, self._port, timeout=self.timeout_s)

    def _headers(self, form: bool) -> dict[str, str]:
        headers = {"Authorization": f"Bearer {self._token.value}", "Accept": "application/json"}
        if form:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        return headers

    def _request(self, method: str, path: str, form: dict[str, str] | None) -> http.client.HTTPResponse:
        conn = self._connection()
        body = urllib.parse.urlencode(form) if form is not None else None
        try:
            conn.request(method, path, body=body, headers=self._headers(form is not None))
            response = conn.getresponse()
        except OSError as exc:
            conn.close()
            raise LishogiError(f"{method} {path}: cannot reach the server: {exc}") from exc
        if response.status >= 400:
            text = response.read(2000).decode("utf-8", "replace")
            conn.close()
            raise LishogiError(f"{method} {path}: HTTP {response.status}: {_error_text(text)}", response.status)
        return response

    async def _post(self, path: str, form: dict[str, str] | None = None) -> dict[str, Any]:
        def call() -> dict[str, Any]:
            response = self._request("POST", path, form if form is not None else {})
            with contextlib.closing(response):
                text = response.read().decode("utf-8", "replace").strip()
            return dict(json.loads(text)) if text.startswith("{") else {}

        return await asyncio.to_thread(call)

    async def _stream(
        self, method: str, path: str, form: dict[str, str] | None = None
    ) -> AsyncIterator[dict[str, Any]]:
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[dict[str, Any] | BaseException | None] = asyncio.Queue()
        stop = threading.Event()
        response = await asyncio.to_thread(self._request, method, path, form)
        thread = threading.Thread(target=_pump, args=(response, queue, loop, stop, path), daemon=True)
        thread.start()
        try:
            while (item := await queue.get()) is not None:
                if isinstance(item, BaseException):
                    raise item
                yield item
        finally:
            # The pump thread owns the response and closes it: closing it from here would race with its read.
            # It notices `stop` at the next line (lishogi sends keep-alive newlines) or when the server closes.
            stop.set()


def _pump(
    response: http.client.HTTPResponse,
    queue: asyncio.Queue[dict[str, Any] | BaseException | None],
    loop: asyncio.AbstractEventLoop,
    stop: threading.Event,
    path: str,
) -> None:
    """Read NDJSON lines in a worker thread (empty lines are keep-alives) and hand them to the event loop.

    This thread owns the response and closes it; it ends at the end of the stream, or at the next line after
    the reader stopped listening. A broken stream is handed over as a `StreamBrokenError`.
    """
    end: BaseException | None = None
    try:
        while not stop.is_set():
            line = response.readline()
            if not line:
                break
            item = _parse_line(line, path)
            if item is not None and not _offer(loop, queue, item):
                return
    except (OSError, http.client.HTTPException, ValueError) as exc:
        end = StreamBrokenError(f"stream {path} broke: {exc}")
    finally:
        with contextlib.suppress(OSError):
            response.close()
    if not stop.is_set():
        _offer(loop, queue, end)


def _parse_line(line: bytes, path: str) -> dict[str, Any] | None:
    text = line.decode("utf-8", "replace").strip()
    if not text:
        return None
    try:
        return dict(json.loads(text))
    except (json.JSONDecodeError, TypeError, ValueError):
        log.warning("skipping a line that is not a JSON object on %s: %.80r", path, text)
        return None


def _offer(
    loop: asyncio.AbstractEventLoop,
    queue: asyncio.Queue[dict[str, Any] | BaseException | None],
    item: dict[str, Any] | BaseException | None,
) -> bool:
    """Put `item` on the loop's queue; False when the loop is gone (nobody is listening any more)."""
    try:
        loop.call_soon_threadsafe(queue.put_nowait, item)
    except RuntimeError:
        return False
    return True


def _q(part: str) -> str:
    return urllib.parse.quote(part, safe="*+")


def _error_text(body: str) -> str:
    with contextlib.suppress(json.JSONDecodeError, AttributeError):
        return str(json.loads(body).get("error", body))
    return body[:200]
