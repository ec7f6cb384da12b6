"""Board geometry: square centres, board pose in gantry coordinates, stand slots, limits."""

from __future__ import annotations

import dataclasses
import math

import pytest

from hardware.errors import GeometryError
from hardware.geometry import HAND_KINDS, SLOTS_PER_KIND, Affine2D, Side, parse_square
from hardware.settings import load_settings


def test_square_centres_follow_the_spacings() -> None:
    """9a is the board origin; 1a is 8 file spacings along u; 9i is 8 rank spacings along v."""
    g = load_settings(None).geometry
    assert g.square_uv("9a") == (0.0, 0.0)
    assert g.square_uv("1a") == pytest.approx((8 * g.file_spacing_mm, 0.0))
    assert g.square_uv("9i") == pytest.approx((0.0, 8 * g.rank_spacing_mm))


def test_default_pose_maps_rank_i_towards_the_gantry_origin() -> None:
    """The default board is mirrored: rank i (sente's side) has a smaller gantry Y than rank a."""
    g = load_settings(None).geometry
    x9a, y9a = g.square_xy("9a")
    x1i, y1i = g.square_xy("1i")
    assert (x9a, y9a) == (160.0, 380.0)
    assert x1i > x9a and y1i < y9a


def test_rotation_turns_the_board_frame() -> None:
    """A 90-degree rotation sends the u axis along gantry +Y."""
    t = Affine2D.from_pose((10.0, 20.0), 90.0, mirrored=False)
    x, y = t.apply(35.0, 0.0)
    assert (x, y) == pytest.approx((10.0, 55.0))


def test_stand_slots_are_distinct_and_reachable() -> None:
    """Every slot of both stands has its own centre, at least one slot pitch from any other, inside the limits."""
    g = load_settings(None).geometry
    points = [g.slot_xy(side, k, i) for side in Side for k in HAND_KINDS for i in range(SLOTS_PER_KIND[k])]
    assert len(points) == 2 * 38
    closest = min(math.dist(a, b) for n, a in enumerate(points) for b in points[n + 1 :])
    assert closest >= 30.0
    assert all(g.limits.violation(x, y, g.pick_z_mm) is None for x, y in points)


def test_eighteen_pawn_slots_and_no_more() -> None:
    """Pawns have slots 0..17; slot 18 is an error naming the range."""
    g = load_settings(None).geometry
    g.slot_xy(Side.BLACK, "P", 17)
    with pytest.raises(GeometryError, match=r"0\.\.17"):
        g.slot_xy(Side.BLACK, "P", 18)


def test_bad_square_names_are_rejected() -> None:
    """`0a`, `5j` and `55` are not USI squares."""
    for bad in ("0a", "5j", "55", "7g7f"):
        with pytest.raises(GeometryError, match="not a USI square"):
            parse_square(bad)


def test_no_flip_station_is_an_error_when_asked_for() -> None:
    """The default has no flip station; asking for its position says so."""
    g = load_settings(None).geometry
    with pytest.raises(GeometryError, match="no flip station"):
        g.flip_station_xy()
    with_station = dataclasses.replace(g, flip_station_uv=(140.8, -40.0))
    assert with_station.flip_station_xy() == pytest.approx((300.8, 420.0))


def test_limits_name_the_axis_out_of_range() -> None:
    """A point beyond X travel is reported with the axis and the range."""
    limits = load_settings(None).geometry.limits
    assert limits.violation(700.0, 10.0, -10.0) == "X=700.00 outside 0..600 mm"
    assert limits.violation(10.0, 10.0, -10.0) is None
