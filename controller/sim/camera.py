"""The virtual camera: a frame source that photographs the VirtualBoard as it is at the moment of `read()`.

Owns: `CameraSettings` (style, seed, picture size, pose, per-frame variation) and `VirtualCamera`. The board's
look (wood, table, lamp, piece set, pose) is fixed for the camera's life by the seed; every frame adds its own
small brightness drift and sensor noise, as a real camera's frames differ while nothing moves. A scene that has
not changed is not rendered again (only the per-frame variation is redrawn), so still frames are cheap.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from controller.sim.errors import SimError
from controller.sim.world import VirtualBoard
from vision.render import CameraPose, Rendered, RenderOptions, list_styles, render_scene


@dataclass(frozen=True)
class CameraSettings:
    """How the virtual camera is set up for one game.

    Attributes:
        style: piece artwork style (`vision.render.list_styles()`), or the name of the sprites in `style_dir`.
        style_dir: a folder of piece sprites drawn elsewhere (the development font styles of `vision.train`,
            which no training run used); None: the shipped artwork `style`.
        seed: fixes the board's look, the lamp and (when `pose` is None) the camera pose.
        size: picture (width, height).
        pose: where the camera is; None for a plausible random one from the seed (tilt up to `max_tilt_deg`).
        max_tilt_deg: largest random tilt.
        frame_noise: per-frame sensor noise (standard deviation in grey levels).
        frame_gain: per-frame brightness drift (standard deviation, as a fraction).
    """

    style: str = "kanji_light"
    seed: int = 0
    size: tuple[int, int] = (800, 600)
    pose: CameraPose | None = None
    max_tilt_deg: float = 30.0
    frame_noise: float = 1.5
    frame_gain: float = 0.01
    style_dir: Path | None = None

    def __post_init__(self) -> None:
        if self.style_dir is not None:
            if not self.style_dir.is_dir():
                raise SimError(f"piece sprites folder {str(self.style_dir)!r} is not a directory")
        elif self.style not in list_styles():
            raise SimError(f"unknown piece style {self.style!r} (known: {', '.join(list_styles())})")
        if not 0.0 <= self.frame_noise <= 20.0 or not 0.0 <= self.frame_gain <= 0.2:
            raise SimError("camera: frame_noise in 0..20 and frame_gain in 0..0.2")


class VirtualCamera:
    """`read()` returns a BGR uint8 frame of the board now (a `controller.ports.FrameSource`)."""

    def __init__(self, board: VirtualBoard, settings: CameraSettings | None = None) -> None:
        self.board = board
        self.settings = s = settings or CameraSettings()
        self._rng = np.random.default_rng([abs(int(s.seed)), 0xCA3])
        pose = s.pose or CameraPose.random(self._rng, s.max_tilt_deg, s.size)
        self.options = RenderOptions(style=s.style, seed=s.seed, size=s.size, pose=pose, style_dir=s.style_dir)
        self._key: str | None = None
        self.last: Rendered | None = None
        """The last render (its ground truth: corners, occluded squares)."""
        self.renders = 0
        """Scenes rendered so far (still frames reuse the last)."""

    @property
    def pose(self) -> CameraPose:
        """The camera pose."""
        assert self.options.pose is not None
        return self.options.pose

    def read(self) -> np.ndarray:
        """The next frame."""
        scene = self.board.scene()
        key = repr(scene)
        if key != self._key or self.last is None:
            self.last = render_scene(scene, self.options)
            self._key = key
            self.renders += 1
        s = self.settings
        return vary(np.asarray(self.last.image, dtype=np.uint8), self._rng, noise=s.frame_noise, gain=s.frame_gain)


def vary(image: np.ndarray, rng: np.random.Generator, *, noise: float = 1.5, gain: float = 0.01) -> np.ndarray:
    """The picture as a camera takes it once more: a brightness drift (standard deviation `gain`, a fraction) and
    sensor noise (standard deviation `noise` grey levels)."""
    frame = image.astype(np.float32) * (1.0 + float(rng.normal(0.0, gain)))
    if noise > 0:
        frame += rng.standard_normal(image.shape, dtype=np.float32) * np.float32(noise)
    out: np.ndarray = np.clip(frame, 0, 255).astype(np.uint8)
    return out
