"""Board calibration: fit the board-to-gantry transform from jogged reference points, with residuals.

Owns: least-squares fits (a similarity from two or more points, a full affine from three or more non-collinear
points) of board-frame points to the gantry positions the head was jogged to, and the residual report that says
how well they agree. Pure (numpy only).

Reference names: a USI square (`9a`, `1i`) or a stand slot `stand:<b|w>:<kind>:<index>` (`stand:b:P:0`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from hardware.errors import CalibrationError, GeometryError
from hardware.geometry import Affine2D, BoardGeometry, Side


@dataclass(frozen=True)
class ReferencePoint:
    """One jogged reference: its name, its nominal board-frame centre and where the head was measured."""

    name: str
    board_uv: tuple[float, float]
    measured_xy: tuple[float, float]


@dataclass(frozen=True)
class CalibrationResult:
    """A fitted transform and how well the references agree with it.

    Attributes:
        transform: the fitted board-to-gantry map.
        model: "similarity" or "affine".
        residuals_mm: per reference, the distance between the measured point and the fitted one.
        rms_mm, max_mm: summaries of the residuals.
        rotation_deg: angle of the board's u axis in the gantry frame.
        scale_u, scale_v: fitted length of one board-frame millimetre along u and v (1.0 = nominal spacing).
        dof_left: number of measurements beyond the model's unknowns (0 means residuals are zero by construction).
    """

    transform: Affine2D
    model: str
    residuals_mm: tuple[tuple[str, float], ...]
    rms_mm: float
    max_mm: float
    rotation_deg: float
    scale_u: float
    scale_v: float
    dof_left: int

    def report(self) -> str:
        """Human-readable lines for the CLI."""
        lines = [
            f"model {self.model}: rotation {self.rotation_deg:.3f} deg, scale u {self.scale_u:.4f} "
            f"v {self.scale_v:.4f}, residual rms {self.rms_mm:.3f} mm, max {self.max_mm:.3f} mm",
        ]
        if self.dof_left == 0:
            lines.append("  (no redundant measurement: residuals are zero by construction; add a point to check)")
        lines += [f"  {name}: {err:.3f} mm" for name, err in self.residuals_mm]
        lines.append("  transform = [" + ", ".join(f"{v:.6f}" for v in self.transform.as_list()) + "]")
        return "\n".join(lines)


def reference_uv(geometry: BoardGeometry, name: str) -> tuple[float, float]:
    """Nominal board-frame centre of a reference name (square or `stand:side:kind:index`)."""
    if name.startswith("stand:"):
        parts = name.split(":")
        if len(parts) != 4 or parts[1] not in ("b", "w") or not parts[3].isdigit():
            raise GeometryError(f"not a stand reference: {name!r} (want stand:<b|w>:<kind>:<index>)")
        return geometry.stands[Side(parts[1])].slot_uv(parts[2], int(parts[3]))
    return geometry.square_uv(name)


def fit(points: Sequence[ReferencePoint], model: str | None = None, mirrored: bool = False) -> CalibrationResult:
    """Fit the transform. Model defaults to similarity for two points and affine for three or more.

    `mirrored` says whether the board frame is mirrored in the gantry frame (only the similarity needs it; the
    affine finds it). Raises CalibrationError when the points cannot determine the model.
    """
    model = model or ("similarity" if len(points) < 3 else "affine")
    if model not in ("similarity", "affine"):
        raise CalibrationError(f"unknown calibration model {model!r} (similarity or affine)")
    needed = 2 if model == "similarity" else 3
    if len(points) < needed:
        raise CalibrationError(f"a {model} fit needs at least {needed} reference points, got {len(points)}")
    uv = np.array([p.board_uv for p in points], dtype=float)
    xy = np.array([p.measured_xy for p in points], dtype=float)
    if float(np.ptp(uv, axis=0).max()) < 1.0:
        raise CalibrationError("reference points coincide: pick points far apart (e.g. 9a and 1i)")
    transform = _fit_similarity(uv, xy, mirrored) if model == "similarity" else _fit_affine(uv, xy)
    return _result(points, transform, model, len(points) * 2 - (4 if model == "similarity" else 6))


def _fit_similarity(uv: np.ndarray, xy: np.ndarray, mirrored: bool) -> Affine2D:
    # x = p*u - q*s*v + tx ; y = q*u + p*s*v + ty, with s = -1 when mirrored: linear in (p, q, tx, ty).
    s = -1.0 if mirrored else 1.0
    rows, rhs = [], []
    for (u, v), (x, y) in zip(uv, xy, strict=True):
        rows.append([u, -s * v, 1.0, 0.0])
        rhs.append(x)
        rows.append([s * v, u, 0.0, 1.0])
        rhs.append(y)
    (p, q, tx, ty), *_ = np.linalg.lstsq(np.array(rows), np.array(rhs), rcond=None)
    return Affine2D(float(p), float(-q * s), float(q), float(p * s), float(tx), float(ty))


def _fit_affine(uv: np.ndarray, xy: np.ndarray) -> Affine2D:
    design = np.column_stack([uv, np.ones(len(uv))])
    if np.linalg.matrix_rank(design) < 3:
        raise CalibrationError("reference points are collinear: an affine fit needs one off the line")
    coef_x, *_ = np.linalg.lstsq(design, xy[:, 0], rcond=None)
    coef_y, *_ = np.linalg.lstsq(design, xy[:, 1], rcond=None)
    return Affine2D(*(float(c) for c in (coef_x[0], coef_x[1], coef_y[0], coef_y[1], coef_x[2], coef_y[2])))


def _result(points: Sequence[ReferencePoint], t: Affine2D, model: str, dof_left: int) -> CalibrationResult:
    residuals = []
    for p in points:
        fx, fy = t.apply(*p.board_uv)
        residuals.append((p.name, math.hypot(fx - p.measured_xy[0], fy - p.measured_xy[1])))
    errors = [e for _, e in residuals]
    return CalibrationResult(
        transform=t,
        model=model,
        residuals_mm=tuple(residuals),
        rms_mm=math.sqrt(sum(e * e for e in errors) / len(errors)),
        max_mm=max(errors),
        rotation_deg=math.degrees(math.atan2(t.c, t.a)),
        scale_u=math.hypot(t.a, t.c),
        scale_v=math.hypot(t.b, t.d),
        dof_left=max(dof_left, 0),
    )
