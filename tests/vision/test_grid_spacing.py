"""The ten equally spaced lines of a rectified view found from thin line peaks (`vision.grid_fit._equal_spacing`).

A rectified view's grid lines are 1-3 px wide in its line profile. The coarse search tries spacings 0.5 px and
starts 1 px apart, so on the raw profile its comb can fall between the peaks at its far end and a comb on a few
lines win, which the fine search near the coarse start cannot undo (before `COARSE_SIGMA`: 494 of 1,227 such
profiles found off by more than a pixel, some by several squares).
"""

from __future__ import annotations

import numpy as np
import pytest

from vision.grid_fit import _equal_spacing

HEIGHTS = (5.0, 3.0, 5.0, 6.0, 6.0, 9.0, 12.0, 11.0, 11.0, 26.0)
"""Peak heights of a development start photo's file lines (`one` 4413): pieces hide the first lines, the last is
the board's edge."""


def thin_peaks(start: float, spacing: float, n: int = 440) -> np.ndarray:
    """A line profile: ten peaks of `HEIGHTS`, 0.6 px wide (sigma), `spacing` apart from `start`."""
    x = np.arange(n, dtype=np.float64)
    lines = start + spacing * np.arange(10)
    return np.asarray((np.asarray(HEIGHTS)[:, None] * np.exp(-0.5 * ((x[None, :] - lines[:, None]) / 0.6) ** 2)).sum(0))


@pytest.mark.parametrize("start", [30.0, 61.3, 100.3, 148.6])
def test_every_line_of_thin_peaks_is_found(start: float) -> None:
    """Over spacings 14-40 px the lines found lie within 1.5 px of every true line."""
    for spacing in np.arange(14.0, 40.0, 0.93):
        if start + 9 * spacing > 410:
            continue
        found = _equal_spacing(thin_peaks(start, spacing), 0.3)
        assert found is not None, f"start {start}, spacing {spacing:.2f}: no lines"
        error = float(np.abs(found - (start + spacing * np.arange(10))).max())
        assert error <= 1.5, f"start {start}, spacing {spacing:.2f}: a line {error:.1f} px off"
