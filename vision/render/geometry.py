"""The board model in millimetres and the pinhole camera that looks at it.

Board plane coordinates (mm): origin at the outer grid corner by square 9a (top left seen from sente), x to the
right (towards file 1), y down (towards rank i), z into the table (the camera sits at negative z). A square is
33.3 mm wide and 36.4 mm tall (taller than wide, seen from sente), so the grid is 299.7 x 327.6 mm.
Sente's piece stand (komadai) lies right of the board at sente's end, gote's left of the board at gote's end.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from vision.render.errors import RenderError

SQUARE_W_MM = 33.3
SQUARE_H_MM = 36.4
GRID_W_MM = 9 * SQUARE_W_MM
GRID_H_MM = 9 * SQUARE_H_MM
BOARD_MARGIN_MM = 16.0
"""Wood between the outer grid line and the board's edge."""
STAND_SIZE_MM = 165.0
STAND_GAP_MM = 35.0
"""Gap between the board's edge and a stand's top surface."""


def _stand_region(side: str) -> np.ndarray:
    """Corners (4x2, clockwise from top left) of a stand's top surface in board millimetres."""
    if side == "b":
        x0 = GRID_W_MM + BOARD_MARGIN_MM + STAND_GAP_MM
        y1 = GRID_H_MM + BOARD_MARGIN_MM
        x1, y0 = x0 + STAND_SIZE_MM, y1 - STAND_SIZE_MM
    else:
        x1 = -BOARD_MARGIN_MM - STAND_GAP_MM
        y0 = -BOARD_MARGIN_MM
        x0, y1 = x1 - STAND_SIZE_MM, y0 + STAND_SIZE_MM
    return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], dtype=np.float64)


STAND_REGIONS_MM: dict[str, np.ndarray] = {"b": _stand_region("b"), "w": _stand_region("w")}
"""Stand top surfaces in board mm: `b` sente's (right of the board, sente's end), `w` gote's (left, far end)."""
GRID_CORNERS_MM = np.array([[0, 0], [GRID_W_MM, 0], [GRID_W_MM, GRID_H_MM], [0, GRID_H_MM]], dtype=np.float64)
"""Outer grid corners: by 9a, 1a, 1i, 9i."""
BOARD_CENTRE_MM = (GRID_W_MM / 2, GRID_H_MM / 2)


def square_centre_mm(index: int) -> tuple[float, float]:
    """Centre of an SFEN-order square in board millimetres."""
    rank, col = divmod(index, 9)
    return ((col + 0.5) * SQUARE_W_MM, (rank + 0.5) * SQUARE_H_MM)


@dataclass(frozen=True)
class CameraPose:
    """Where the camera is. `tilt_deg`: angle of the optical axis from vertical (0 = straight down);
    `tilt_dir_deg`: side the camera leans in from (0 = sente's side, 90 = the file-1 side, 180 = gote's side);
    `roll_deg`: rotation of the picture about the optical axis (0 = sente at the bottom);
    `fill`: fraction of the picture's shorter side the board (edge to edge, long way) spans when seen from
    straight above; `cx`, `cy`: shift of the board centre from the picture centre (fractions of width, height);
    `fov_deg`: horizontal field of view of the lens."""

    tilt_deg: float = 0.0
    tilt_dir_deg: float = 0.0
    roll_deg: float = 0.0
    fill: float = 0.85
    cx: float = 0.0
    cy: float = 0.0
    fov_deg: float = 60.0

    def __post_init__(self) -> None:
        if not 0.0 <= self.tilt_deg <= 70.0:
            raise RenderError(f"camera tilt {self.tilt_deg} outside 0..70 degrees")
        if not 0.05 <= self.fill <= 3.0:
            raise RenderError(f"camera fill {self.fill} outside 0.05..3")
        if not 10.0 <= self.fov_deg <= 120.0:
            raise RenderError(f"lens field of view {self.fov_deg} outside 10..120 degrees")

    @staticmethod
    def overhead(fill: float = 0.85) -> CameraPose:
        """Straight above the board centre, sente at the bottom of the picture."""
        return CameraPose(fill=fill)

    @staticmethod
    def random(
        rng: np.random.Generator,
        max_tilt_deg: float = 45.0,
        size: tuple[int, int] | None = None,
        with_stands: bool = False,
    ) -> CameraPose:
        """A plausible camera: tilt up to `max_tilt_deg`, any roll, board filling 55-95 % of the short side.
        With the picture `size`, the fill is reduced as needed so that the whole board (and with `with_stands`
        both piece stands) is in the picture."""
        tilt = float(max_tilt_deg * math.sqrt(rng.uniform(0.0, 1.0)))
        pose = CameraPose(
            tilt_deg=tilt,
            tilt_dir_deg=float(rng.uniform(0.0, 360.0)),
            roll_deg=float(rng.uniform(-180.0, 180.0)),
            fill=float(rng.uniform(0.55, 0.95)),
            cx=float(rng.normal(0.0, 0.04)),
            cy=float(rng.normal(0.0, 0.04)),
            fov_deg=float(rng.uniform(40.0, 65.0)),
        )
        return pose if size is None else pose.fitted(size, with_stands=with_stands)

    def fitted(self, size: tuple[int, int], border: float = 0.02, with_stands: bool = False) -> CameraPose:
        """This pose with `fill` reduced (never raised) until the board, edges included (and with `with_stands`
        the stands), is inside the picture with `border` (fraction of the short side) to spare."""
        pose = self
        width, height = size
        pad = border * min(width, height)
        m = BOARD_MARGIN_MM
        corners = np.array([[-m, -m], [GRID_W_MM + m, -m], [GRID_W_MM + m, GRID_H_MM + m], [-m, GRID_H_MM + m]])
        if with_stands:
            corners = np.concatenate([corners, STAND_REGIONS_MM["b"], STAND_REGIONS_MM["w"]])
        for _ in range(40):
            px = apply_homography(Camera.from_pose(pose, size).homography(), corners)
            if (
                px[:, 0].min() >= pad
                and px[:, 1].min() >= pad
                and px[:, 0].max() <= width - pad
                and px[:, 1].max() <= height - pad
            ):
                return pose
            pose = replace(pose, fill=pose.fill * 0.93, cx=pose.cx * 0.8, cy=pose.cy * 0.8)
        return pose


@dataclass(frozen=True)
class Camera:
    """A posed pinhole camera for one picture size: projects board-plane points (and points above it)."""

    rotation: np.ndarray
    """World-to-camera rotation (3x3)."""
    centre: np.ndarray
    """Camera position in board mm (z negative: above the board)."""
    intrinsics: np.ndarray

    @staticmethod
    def from_pose(pose: CameraPose, size: tuple[int, int]) -> Camera:
        """The camera for a pose and a picture size (width, height)."""
        width, height = size
        focal = (width / 2) / math.tan(math.radians(pose.fov_deg) / 2)
        board_long = GRID_H_MM + 2 * BOARD_MARGIN_MM
        distance = focal * board_long / (pose.fill * min(width, height))
        tilt, azimuth = math.radians(pose.tilt_deg), math.radians(pose.tilt_dir_deg)
        target = np.array([*BOARD_CENTRE_MM, 0.0])
        lean = np.array([math.sin(azimuth) * math.sin(tilt), math.cos(azimuth) * math.sin(tilt), -math.cos(tilt)])
        centre = target + distance * lean
        forward = -lean
        down = np.array([0.0, 1.0, 0.0]) - forward * forward[1]
        if np.linalg.norm(down) < 1e-6:
            down = np.array([-1.0, 0.0, 0.0]) - forward * forward[0]
        down /= np.linalg.norm(down)
        right = np.cross(down, forward)
        roll = math.radians(pose.roll_deg)
        right, down = (
            math.cos(roll) * right + math.sin(roll) * down,
            -math.sin(roll) * right + math.cos(roll) * down,
        )
        rotation = np.stack([right, down, forward])
        k = np.array([[focal, 0, width / 2 + pose.cx * width], [0, focal, height / 2 + pose.cy * height], [0, 0, 1]])
        return Camera(rotation, centre, k)

    def homography(self) -> np.ndarray:
        """Board-plane mm (z = 0) to picture pixels."""
        t = -self.rotation @ self.centre
        h: np.ndarray = self.intrinsics @ np.column_stack([self.rotation[:, 0], self.rotation[:, 1], t])
        out: np.ndarray = h / h[2, 2]
        return out

    def project(self, points: np.ndarray) -> np.ndarray:
        """Picture pixels (Nx2) of board-space points (Nx3 mm, z negative above the board)."""
        cam = (points - self.centre) @ self.rotation.T
        pix: np.ndarray = cam @ self.intrinsics.T
        out: np.ndarray = pix[:, :2] / pix[:, 2:3]
        return out

    def foot(self) -> tuple[float, float]:
        """The board point straight below the camera."""
        return (float(self.centre[0]), float(self.centre[1]))

    def parallax(self, height_mm: float) -> float:
        """Scale about `foot()` that maps a point `height_mm` above the board to where it appears on the board."""
        above = -float(self.centre[2])
        if height_mm >= above - 1.0:
            raise RenderError(f"a point {height_mm} mm high is at or above the camera ({above:.0f} mm)")
        return above / (above - height_mm)


def apply_homography(h: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Apply a 3x3 homography to Nx2 points."""
    pts: np.ndarray = np.column_stack([points, np.ones(len(points))]) @ h.T
    out: np.ndarray = pts[:, :2] / pts[:, 2:3]
    return out
