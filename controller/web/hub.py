"""The meeting point of the game and its pages: the latest view (pushed to every page on change), the latest
camera frame, the records to download, and the commands pages send (taken by the game loop).

Thread-safe: the HTTP server serves each page in its own thread; the game publishes from its own.
"""

from __future__ import annotations

import enum
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from controller.web.view import CameraView, GameView, view_json


class CommandKind(enum.StrEnum):
    """What a page may ask for."""

    NEW_GAME = "new_game"
    RESIGN = "resign"
    DECLARE = "declare"
    TAKEBACK = "takeback"
    ANSWER = "answer"
    CALIBRATE_BOARD = "calibrate_board"
    CALIBRATE_SET = "calibrate_set"
    CALIBRATE_GANTRY = "calibrate_gantry"
    JOG = "jog"
    EMERGENCY_STOP = "emergency_stop"
    OFFER_DRAW = "offer_draw"
    CHAT = "chat"


@dataclass(frozen=True)
class WebCommand:
    """A control used on a page: its kind and its arguments (as sent, validated by `parse_command`)."""

    kind: CommandKind
    args: dict[str, Any] = field(default_factory=dict)


class CommandError(ValueError):
    """A command a page sent that cannot be accepted (names what is wrong)."""


def parse_command(body: Any) -> WebCommand:
    """Validate a command's JSON body: `{"kind": ..., "args": {...}}`."""
    if not isinstance(body, dict):
        raise CommandError("a command is a JSON object with 'kind' and 'args'")
    try:
        kind = CommandKind(str(body.get("kind")))
    except ValueError as exc:
        raise CommandError(f"unknown command kind {body.get('kind')!r}") from exc
    args = body.get("args", {})
    if not isinstance(args, dict):
        raise CommandError("'args' must be an object")
    if kind is CommandKind.ANSWER and not {"prompt_id", "answer"} <= args.keys():
        raise CommandError("an answer needs 'prompt_id' and 'answer'")
    if kind is CommandKind.JOG and not all(isinstance(args.get(k), int | float) for k in ("dx_mm", "dy_mm")):
        raise CommandError("a jog needs numeric 'dx_mm' and 'dy_mm'")
    if kind is CommandKind.CHAT and not (isinstance(args.get("text"), str) and 0 < len(args["text"].strip()) <= 140):
        raise CommandError("a chat line needs 'text' of 1 to 140 characters")
    return WebCommand(kind, dict(args))


RecordSource = Callable[[str], bytes]
"""Gives the current game as a record file's bytes for a format (`kifu`, `kif`, `csa`)."""


class ViewHub:
    """Latest view, latest frame, commands; pages wait on `wait_for_change`."""

    def __init__(self) -> None:
        self._changed = threading.Condition()
        self._view = GameView()
        self._version = 0
        self._frame: bytes | None = None
        self._camera: CameraView | None = None
        self._doubtful: frozenset[str] = frozenset()
        self._commands: queue.Queue[WebCommand] = queue.Queue()
        self._records: RecordSource | None = None

    def publish(self, view: GameView) -> int:
        """Show a new view on every page; returns its version."""
        with self._changed:
            if view.camera is None and self._camera is not None:
                view = replace(view, camera=self._camera, doubtful=self._doubtful)
            self._view = view
            self._version += 1
            self._changed.notify_all()
            return self._version

    def set_frame(self, jpeg: bytes) -> None:
        """Keep the latest camera frame (JPEG bytes)."""
        with self._changed:
            self._frame = jpeg

    def set_camera(self, jpeg: bytes, camera: CameraView, doubtful: frozenset[str]) -> None:
        """A new camera frame with its overlay: kept, and shown on every page with the current view."""
        with self._changed:
            self._frame, self._camera, self._doubtful = jpeg, camera, doubtful
            self._view = replace(self._view, camera=camera, doubtful=doubtful)
            self._version += 1
            self._changed.notify_all()

    def frame(self) -> bytes | None:
        """The latest camera frame, if any."""
        with self._changed:
            return self._frame

    def snapshot(self) -> dict[str, Any]:
        """The latest view as JSON."""
        with self._changed:
            view, version = self._view, self._version
        return view_json(view, version)

    def wait_for_change(self, seen: int, timeout_s: float) -> dict[str, Any] | None:
        """The view as JSON once its version is past `seen`, or None after the timeout."""
        with self._changed:
            if not self._changed.wait_for(lambda: self._version > seen, timeout=timeout_s):
                return None
            view, version = self._view, self._version
        return view_json(view, version)

    def submit(self, command: WebCommand) -> None:
        """Queue a page's command for the game."""
        self._commands.put(command)

    def take_command(self, timeout_s: float = 0.0) -> WebCommand | None:
        """The next command from a page, or None (for the game loop)."""
        try:
            return self._commands.get(timeout=timeout_s) if timeout_s > 0 else self._commands.get_nowait()
        except queue.Empty:
            return None

    def set_record_source(self, source: RecordSource | None) -> None:
        """Where downloads of the current record come from."""
        self._records = source

    def record(self, fmt: str) -> bytes | None:
        """The current record in `fmt`, or None when there is no game."""
        return None if self._records is None else self._records(fmt)
