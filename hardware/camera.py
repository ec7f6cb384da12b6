"""Real frame sources: the Raspberry Pi camera (picamera2), a V4L2/USB camera through OpenCV, and image files.

Owns: `Picamera2Camera`, `OpenCvCamera`, `FileCamera` and `CameraError`. Each has `read() -> BGR uint8 frame`
(the controller's `FrameSource` port) and `close()`. Nothing heavy is imported until a camera is built:
picamera2 only by `Picamera2Camera`, OpenCV only by the other two. Which one runs is chosen explicitly by
configuration, never by falling back from one to another.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from hardware.errors import HardwareError

Frame = NDArray[np.uint8]


class CameraError(HardwareError):
    """A camera could not be opened or gave no frame (the message names which camera and why)."""


class Picamera2Camera:
    """The Raspberry Pi camera module through picamera2 (Raspberry Pi OS: `apt install python3-picamera2`)."""

    def __init__(self, size: tuple[int, int] = (1280, 960)) -> None:
        try:
            from picamera2 import Picamera2  # type: ignore[import-not-found]
        except ImportError as exc:
            raise CameraError(f"picamera2 is not installed ({exc}); on a Pi: apt install python3-picamera2") from exc
        except ValueError as exc:  # "numpy.dtype size changed": apt's simplejpeg is built for numpy 1, OpenCV wants 2
            raise CameraError(
                f"picamera2 cannot load beside this numpy ({exc}); install simplejpeg into the virtualenv:"
                " pip install -c constraints.txt -e '.[pi]'"
            ) from exc
        try:
            self._camera: Any = Picamera2()
            # picamera2's "RGB888" is laid out B, G, R in memory: what OpenCV calls BGR.
            config = self._camera.create_video_configuration(main={"size": size, "format": "RGB888"})
            self._camera.configure(config)
            self._camera.start()
        except Exception as exc:  # picamera2 raises bare RuntimeErrors and more
            raise CameraError(f"cannot start the Pi camera: {exc}") from exc

    def read(self) -> Frame:
        """The newest frame."""
        try:
            frame = self._camera.capture_array("main")
        except Exception as exc:
            raise CameraError(f"Pi camera gave no frame: {exc}") from exc
        return np.ascontiguousarray(frame[:, :, :3], dtype=np.uint8)

    def close(self) -> None:
        """Stop the camera."""
        self._camera.stop()
        self._camera.close()


class OpenCvCamera:
    """A camera OpenCV can open by index (`/dev/video<index>`), e.g. a USB webcam."""

    def __init__(self, index: int = 0, size: tuple[int, int] | None = None) -> None:
        import cv2

        self._index = index
        self._capture: Any = cv2.VideoCapture(index)
        if not self._capture.isOpened():
            raise CameraError(f"cannot open camera {index} (/dev/video{index})")
        if size is not None:
            self._capture.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
            self._capture.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])

    def read(self) -> Frame:
        """The next frame."""
        ok, frame = self._capture.read()
        if not ok or frame is None:
            raise CameraError(f"camera {self._index} gave no frame")
        return np.asarray(frame, dtype=np.uint8)

    def close(self) -> None:
        """Release the device."""
        self._capture.release()


class FileCamera:
    """Frames from image files, one per `read()`, in order; the last one repeats (a still scene)."""

    def __init__(self, paths: Sequence[str | Path]) -> None:
        if not paths:
            raise CameraError("a file camera needs at least one image")
        self._paths = [Path(p) for p in paths]
        missing = [str(p) for p in self._paths if not p.is_file()]
        if missing:
            raise CameraError(f"image files not found: {', '.join(missing)}")
        self._next = 0

    def read(self) -> Frame:
        """The next image (the last one again once all were read)."""
        import cv2

        path = self._paths[min(self._next, len(self._paths) - 1)]
        self._next += 1
        frame = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if frame is None:
            raise CameraError(f"cannot read image {path}")
        return np.asarray(frame, dtype=np.uint8)

    def close(self) -> None:
        """Nothing to release."""
