"""The camera on the web page: the latest frame about once a second, the detected grid drawn over it and the
squares the reader is unsure about outlined (on the frame and on the board diagram).

Owns: `FramesToPage` (eyes that also feed the page) and `camera_view` (the overlay of one read, in frame pixels).
"""

from __future__ import annotations

from typing import Any

from controller.reconcile.labels import square_index
from controller.web.view import CameraView

Polygon = tuple[tuple[float, float], ...]


def camera_view(read: Any, version: int, width: int, height: int) -> tuple[CameraView, frozenset[str]]:
    """The overlay of a `vision.board_read.BoardRead` (grid outline, squares in doubt) and the doubtful squares' names.

    No board found: no grid, and nothing outlined (the status says the board is not found).
    """
    geometry = getattr(read, "geometry", None) if read is not None else None
    if geometry is None or not read.board_found:
        return CameraView(version, width, height), frozenset()
    grid = _polygon(geometry.corners)
    doubtful = tuple(read.unreliable)
    outlines = tuple(_polygon(geometry.project(_square_corners(name))) for name in doubtful)
    return CameraView(version, width, height, grid, outlines), frozenset(doubtful)


def _square_corners(name: str) -> list[tuple[float, float]]:
    """Grid coordinates (0..9 from 9a) of a square's four corners."""
    rank, column = divmod(square_index(name), 9)
    return [(column, rank), (column + 1, rank), (column + 1, rank + 1), (column, rank + 1)]


def _polygon(points: Any) -> Polygon:
    return tuple((round(float(x), 1), round(float(y), 1)) for x, y in points)


class FramesToPage:
    """Eyes that also hand the web page the latest camera frame (JPEG) and its overlay about once a second."""

    def __init__(self, eyes: Any, hub: Any, clock: Any, every_s: float = 1.0) -> None:
        self._eyes, self._hub, self._clock, self._every = eyes, hub, clock, every_s
        self._sent = -every_s
        self._version = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self._eyes, name)

    def look(self, now: float) -> Any:
        """The wrapped eyes' observation; the frame goes to the page when it is time."""
        observation = self._eyes.look(now)
        frame = getattr(self._eyes, "last_frame", None)
        if frame is not None and now - self._sent >= self._every:
            import cv2

            ok, jpeg = cv2.imencode(".jpg", frame)
            if ok:
                self._version += 1
                height, width = frame.shape[:2]
                view, doubtful = camera_view(getattr(self._eyes, "last_read", None), self._version, width, height)
                self._hub.set_camera(jpeg.tobytes(), view, doubtful)
                self._sent = now
        return observation
