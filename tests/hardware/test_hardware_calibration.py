"""Calibration: the board transform from jogged reference points, with residuals."""

from __future__ import annotations

import math

import numpy as np
import pytest

from hardware.calibration import ReferencePoint, fit, reference_uv
from hardware.errors import CalibrationError
from hardware.geometry import Affine2D
from hardware.settings import load_settings


def _measure(true: Affine2D, names: list[str], noise_mm: float = 0.0, seed: int = 0) -> list[ReferencePoint]:
    g = load_settings(None).geometry
    rng = np.random.default_rng(seed)
    points = []
    for name in names:
        uv = reference_uv(g, name)
        x, y = true.apply(*uv)
        dx, dy = rng.normal(0.0, noise_mm, 2) if noise_mm else (0.0, 0.0)
        points.append(ReferencePoint(name, uv, (x + dx, y + dy)))
    return points


def test_two_points_recover_a_rotated_mirrored_board() -> None:
    """9a and 1i measured on a board turned by 1.5 degrees give back that pose exactly."""
    true = Affine2D.from_pose((163.0, 377.5), 1.5, mirrored=True)
    result = fit(_measure(true, ["9a", "1i"]), mirrored=True)
    assert result.model == "similarity"
    assert result.rotation_deg == pytest.approx(1.5)
    assert result.scale_u == pytest.approx(1.0)
    assert result.transform.apply(100.0, 50.0) == pytest.approx(true.apply(100.0, 50.0))
    assert result.dof_left == 0


def test_three_points_fit_an_affine_and_report_residuals() -> None:
    """With a stand slot as third point and 0.3 mm jog noise, the affine fit is within a millimetre."""
    true = Affine2D(1.002, 0.004, -0.003, -0.998, 158.0, 381.0)
    points = _measure(true, ["9a", "1i", "stand:b:P:0", "1a"], noise_mm=0.3, seed=4)
    result = fit(points)
    assert result.model == "affine"
    assert result.dof_left == 2
    assert 0.0 < result.rms_mm < 1.0
    centre = result.transform.apply(140.8, 154.4)
    assert math.dist(centre, true.apply(140.8, 154.4)) < 1.0
    assert "rms" in result.report()


def test_collinear_points_cannot_fit_an_affine() -> None:
    """Three squares on one rank do not determine an affine map."""
    true = Affine2D.from_pose((160.0, 380.0), 0.0, mirrored=True)
    with pytest.raises(CalibrationError, match="collinear"):
        fit(_measure(true, ["9a", "5a", "1a"]))


def test_too_few_points_are_refused() -> None:
    """One point is not enough for any model."""
    true = Affine2D.from_pose((160.0, 380.0), 0.0, mirrored=True)
    with pytest.raises(CalibrationError, match="at least 2"):
        fit(_measure(true, ["9a"]))


def test_bad_stand_reference_is_refused() -> None:
    """A stand reference must be stand:<b|w>:<kind>:<index>."""
    with pytest.raises(ValueError, match="stand reference"):
        reference_uv(load_settings(None).geometry, "stand:x:P")
