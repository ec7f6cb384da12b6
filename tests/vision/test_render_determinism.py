"""The virtual camera is deterministic: same inputs give the same bytes, another seed another picture."""

from __future__ import annotations

import numpy as np

from vision.render import RenderOptions, render_position

POSITION = "ln1g3nl/1r1s1kg2/p2ppp1pp/2p3s2/1p5P1/2P6/PPSPPPP1P/2G1K2R1/LN3GSNL b 2Bp 1"


def test_same_seed_gives_identical_bytes() -> None:
    """Two renders with every effect on (noise, blur, JPEG, arm) and the same seed are byte-identical."""
    options = RenderOptions(seed=11, size=(640, 480), hand=True, style="2kanji_3d")
    first = render_position(POSITION, options)
    second = render_position(POSITION, options)
    assert first.image.tobytes() == second.image.tobytes()
    assert np.array_equal(first.board_corners_px, second.board_corners_px)
    assert first.occluded_squares == second.occluded_squares


def test_different_seed_gives_a_different_picture() -> None:
    """Another seed changes the picture (pose, wood, light, noise)."""
    a = render_position(POSITION, RenderOptions(seed=1, size=(640, 480))).image
    b = render_position(POSITION, RenderOptions(seed=2, size=(640, 480))).image
    assert np.abs(a.astype(int) - b.astype(int)).mean() > 10


def test_output_has_the_requested_size_and_type() -> None:
    """The image is HxWx3 uint8 at the requested size, including the default 1280x960."""
    for size in ((640, 480), (1280, 960)):
        image = render_position("startpos", RenderOptions.fast(seed=3, size=size)).image
        assert image.shape == (size[1], size[0], 3)
        assert image.dtype == np.uint8


def test_switching_noise_off_keeps_the_scene() -> None:
    """The fast mode (no noise/blur/JPEG) draws the same scene: same pose and corners, close pixels."""
    full = render_position(POSITION, RenderOptions(seed=5, size=(640, 480)))
    fast = render_position(POSITION, RenderOptions.fast(seed=5, size=(640, 480)))
    assert np.allclose(full.board_corners_px, fast.board_corners_px)
    assert np.abs(full.image.astype(int) - fast.image.astype(int)).mean() < 12


def test_exposure_darkens_and_blows_out() -> None:
    """`exposure` scales brightness: a dark room is dark, a blown-out frame is mostly saturated."""
    base = RenderOptions.fast(seed=8, size=(640, 480))
    normal = render_position(POSITION, base).image.mean()
    dark = render_position(POSITION, RenderOptions.fast(seed=8, size=(640, 480), exposure=0.15)).image
    bright = render_position(POSITION, RenderOptions.fast(seed=8, size=(640, 480), exposure=4.0)).image
    assert dark.mean() < 0.2 * normal
    assert (bright == 255).mean() > 0.5


def test_a_set_seed_is_one_physical_set_in_every_frame() -> None:
    """Frames that give the same `set_seed` show the same set (piece size, king's face side, wood tone and grain)
    whatever their own seeds; without one, each frame's seed draws its own set."""
    from vision.render.renderer import set_make

    one = set_make(RenderOptions(seed=1, set_seed=9), np.random.default_rng(1))
    again = set_make(RenderOptions(seed=2, set_seed=9), np.random.default_rng(2))
    assert (one.scale, one.gyoku_side, one.tint) == (again.scale, again.gyoku_side, again.tint)
    assert np.array_equal(one.grain, again.grain)
    other = set_make(RenderOptions(seed=1, set_seed=10), np.random.default_rng(1))
    assert (other.scale, other.tint) != (one.scale, one.tint)
    own = [set_make(RenderOptions(seed=s), np.random.default_rng(s)) for s in (1, 2)]
    assert own[0].scale != own[1].scale and own[0].tint != own[1].tint
    assert set_make(RenderOptions(seed=1), np.random.default_rng(1)).scale == own[0].scale


def test_a_set_seed_keeps_the_frame_deterministic() -> None:
    """A render with a set seed is byte-identical when repeated and differs from the frame with its own set."""
    options = RenderOptions(seed=4, size=(640, 480), set_seed=3)
    first = render_position(POSITION, options).image
    assert first.tobytes() == render_position(POSITION, options).image.tobytes()
    assert first.tobytes() != render_position(POSITION, RenderOptions(seed=4, size=(640, 480))).image.tobytes()
