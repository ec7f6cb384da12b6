"""The HTTP side of the web page: static files, server-sent events with the view, the camera frame, commands
and record downloads. Standard library only (`http.server`), one thread per connection.

Bound to 127.0.0.1 by default. Listening on any other address requires a token: pages send it as a bearer
header (or `?token=` for the event stream, which browsers cannot give headers).
"""

from __future__ import annotations

import hmac
import json
import logging
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from typing import Any
from urllib.parse import parse_qs, urlsplit

from controller.web.hub import CommandError, ViewHub, parse_command

log = logging.getLogger(__name__)

STATIC = {"/": ("index.html", "text/html; charset=utf-8"), "/app.js": ("app.js", "text/javascript; charset=utf-8"),
          "/style.css": ("style.css", "text/css; charset=utf-8")}  # fmt: skip
RECORD_TYPES = {"kifu": "text/plain; charset=utf-8", "kif": "text/plain; charset=shift_jis", "csa": "text/plain"}
LOCAL_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})
HEARTBEAT_S = 15.0


class WebServer(ThreadingHTTPServer):
    """The page server; `start()` serves in a background thread."""

    daemon_threads = True

    def __init__(self, hub: ViewHub, host: str = "127.0.0.1", port: int = 8080, token: str | None = None) -> None:
        if host not in LOCAL_HOSTS and not token:
            raise ValueError(f"listening on {host} needs a token (--token-file); without one, bind 127.0.0.1")
        super().__init__((host, port), _Handler)
        self.hub = hub
        self.token = token
        self.closing = threading.Event()
        self._thread = threading.Thread(target=self.serve_forever, name="web", daemon=True)

    @property
    def url(self) -> str:
        """The page's address."""
        host, port = self.server_address[:2]
        return f"http://{host!s}:{port}/"

    def start(self) -> None:
        """Serve in the background."""
        self._thread.start()

    def stop(self) -> None:
        """Stop serving and end the event streams."""
        self.closing.set()
        self.shutdown()
        self.server_close()


class _Handler(BaseHTTPRequestHandler):
    server: WebServer

    def log_message(self, format: str, *args: Any) -> None:
        log.debug("web: " + format, *args)

    def do_GET(self) -> None:
        url = urlsplit(self.path)
        if url.path in STATIC:
            self._static(*STATIC[url.path])
            return
        if not self._authorised(parse_qs(url.query).get("token", [""])[0]):
            return
        if url.path == "/api/state":
            self._json(HTTPStatus.OK, self.server.hub.snapshot())
        elif url.path == "/api/events":
            self._events()
        elif url.path == "/api/camera.jpg":
            self._camera()
        elif url.path.startswith("/api/record."):
            self._record(url.path.rsplit(".", 1)[1])
        else:
            self._json(HTTPStatus.NOT_FOUND, {"error": f"no such page: {url.path}"})

    def do_POST(self) -> None:
        if not self._authorised(""):
            return
        if urlsplit(self.path).path != "/api/command":
            self._json(HTTPStatus.NOT_FOUND, {"error": "no such endpoint"})
            return
        length = int(self.headers.get("Content-Length") or 0)
        try:
            command = parse_command(json.loads(self.rfile.read(min(length, 65536)) or b"null"))
        except (json.JSONDecodeError, CommandError) as exc:
            self._json(HTTPStatus.BAD_REQUEST, {"error": str(exc)})
            return
        self.server.hub.submit(command)
        self._json(HTTPStatus.ACCEPTED, {"ok": True, "kind": str(command.kind)})

    def _authorised(self, query_token: str) -> bool:
        expected = self.server.token
        if not expected:
            return True
        header = self.headers.get("Authorization", "")
        given = header.removeprefix("Bearer ") if header.startswith("Bearer ") else query_token
        if given and hmac.compare_digest(given.encode(), expected.encode()):
            return True
        self._json(HTTPStatus.UNAUTHORIZED, {"error": "this page needs the access token"})
        return False

    def _static(self, name: str, content_type: str) -> None:
        data = resources.files("controller.web").joinpath("static", name).read_bytes()
        self._send(HTTPStatus.OK, data, content_type)

    def _camera(self) -> None:
        frame = self.server.hub.frame()
        if frame is None:
            self._json(HTTPStatus.NOT_FOUND, {"error": "no camera frame yet"})
        else:
            self._send(HTTPStatus.OK, frame, "image/jpeg", cache=False)

    def _record(self, fmt: str) -> None:
        data = self.server.hub.record(fmt) if fmt in RECORD_TYPES else None
        if data is None:
            self._json(HTTPStatus.NOT_FOUND, {"error": f"no {fmt} record to download"})
            return
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", RECORD_TYPES[fmt])
        self.send_header("Content-Disposition", f'attachment; filename="game.{fmt}"')
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _events(self) -> None:
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.end_headers()
        hub, seen = self.server.hub, -1
        try:
            snapshot: dict[str, Any] | None = hub.snapshot()
            while not self.server.closing.is_set():
                if snapshot is not None:
                    seen = int(snapshot["version"])
                    self.wfile.write(b"event: view\ndata: " + json.dumps(snapshot).encode() + b"\n\n")
                else:
                    self.wfile.write(b": keep-alive\n\n")
                self.wfile.flush()
                snapshot = hub.wait_for_change(seen, HEARTBEAT_S)
        except (BrokenPipeError, ConnectionResetError):
            return

    def _json(self, status: HTTPStatus, body: dict[str, Any]) -> None:
        self._send(status, json.dumps(body).encode(), "application/json")

    def _send(self, status: HTTPStatus, data: bytes, content_type: str, cache: bool = True) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        if not cache:
            self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(data)
