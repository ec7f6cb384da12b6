"""The grid finder's shortcuts give the very values of the slower calls they replace (`vision.grid_fit._sample`
for `np.interp`, `_intersections` for one `np.linalg.solve` per pair, `vision.line_support.darkest_near` for
`cv2.erode`), so a grid is found exactly where it was found before them."""

from __future__ import annotations

import cv2
import numpy as np

from vision.grid_fit import _intersections, _sample
from vision.line_support import darkest_near, grid_samples, line_fractions


def test_sample_is_np_interp_to_the_bit() -> None:
    """Inside the profile, at its ends, at whole positions and beyond both ends."""
    rng = np.random.default_rng(3)
    for n in (2, 37, 360):
        profile = rng.random(n) * 40
        at = np.concatenate([rng.random(5000) * (n + 6) - 3, np.arange(n, dtype=np.float64), [n - 1 + 1e-9, -1e-12]])
        assert np.array_equal(_sample(profile, at), np.interp(at, np.arange(n, dtype=np.float64), profile))
        grid = at[:4000].reshape(400, 10)  # the search's shape: one row of ten lines per (spacing, start)
        assert np.array_equal(_sample(profile, grid), np.interp(grid, np.arange(n, dtype=np.float64), profile))


def test_intersections_solve_each_pair_as_before() -> None:
    """Row by row (each horizontal line with each vertical one), the same points as solving each pair alone."""
    rng = np.random.default_rng(4)
    h_lines = np.column_stack([rng.normal(0, 0.05, 10), np.ones(10), rng.random(10) * 360])
    v_lines = np.column_stack([np.ones(10), rng.normal(0, 0.05, 10), rng.random(10) * 360])
    one_by_one = [np.linalg.solve(np.array([h[:2], v[:2]]), np.array([h[2], v[2]])) for h in h_lines for v in v_lines]
    assert np.array_equal(_intersections(h_lines, v_lines), np.array(one_by_one))


def test_darkest_near_is_the_3x3_erosion_at_the_points() -> None:
    """Points anywhere in the picture, its edges and corners included."""
    rng = np.random.default_rng(5)
    gray = rng.integers(0, 256, (61, 83), dtype=np.uint8)
    eroded = cv2.erode(gray, np.ones((3, 3), np.uint8))
    yi = np.concatenate([rng.integers(0, 61, 500), [0, 0, 60, 60]])
    xi = np.concatenate([rng.integers(0, 83, 500), [0, 82, 0, 82]])
    assert np.array_equal(darkest_near(gray, yi, xi), eroded[yi, xi])


def test_grid_samples_are_shared_and_read_only() -> None:
    """One set of sample points per sample count; a caller cannot change them for the next grid."""
    pts, aside = grid_samples(40)
    assert grid_samples(40)[0] is pts and pts.shape == (800, 2) and aside.shape == (800, 2)
    assert not pts.flags.writeable and not aside.flags.writeable


def test_line_fractions_see_a_drawn_grid() -> None:
    """A grid drawn in black on grey: every line seen at its corners, none half a square off."""
    gray = np.full((400, 400), 180, np.uint8)
    for k in range(10):
        cv2.line(gray, (20 + 40 * k, 20), (20 + 40 * k, 380), 0, 2)
        cv2.line(gray, (20, 20 + 40 * k), (380, 20 + 40 * k), 0, 2)
    corners = np.array([[20.0, 20.0], [380.0, 20.0], [380.0, 380.0], [20.0, 380.0]])
    assert line_fractions(gray, corners).min() > 0.9
    assert line_fractions(gray, corners + 20.0).max() < 0.2
