"""The lamp's reflection on lacquered ink (`RenderOptions.ink_sheen`): off by default, drawn from its own stream,
and where it falls the ink turns lighter than the wood (as on the shared real photo's far rank)."""

from __future__ import annotations

import numpy as np
import pytest

from vision.render import RenderError, RenderOptions, render_position
from vision.render.pieces import SILVER_BGR, Light, silvered_ink

POSITION = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"


def _face(wood: int, ink: int) -> np.ndarray:
    """A premultiplied BGRA face: wood with an ink stroke across it, a transparent border."""
    face = np.zeros((20, 20, 4), np.uint8)
    face[2:18, 2:18] = (wood, wood, wood, 255)
    face[8:12, 4:16, :3] = ink
    return face


def test_silvered_ink_is_lighter_than_the_wood_and_the_wood_stays() -> None:
    """Full sheen brings the ink to the silver colour, above the wood's brightness; the wood is left alone, and
    no sheen changes nothing."""
    face = _face(wood=170, ink=25)
    shone = silvered_ink(face, 1.0)
    assert np.allclose(shone[10, 10, :3], SILVER_BGR, atol=2)
    assert shone[10, 10, :3].mean() > shone[4, 4, :3].mean()
    assert np.array_equal(shone[4, 4], face[4, 4])
    assert np.array_equal(shone[0, 0], face[0, 0])  # transparent stays transparent
    half = silvered_ink(face, 0.5)
    assert face[10, 10, 0] < half[10, 10, 0] < shone[10, 10, 0]


def test_sheen_falls_off_with_distance_from_the_lamps_mirror_image() -> None:
    """Full at the mirror image, weaker farther off, none without a sheen."""
    light = Light(0.0, 1.0, 0.5, 0.5, gloss_at=(100.0, 100.0), gloss_radius_mm=100.0, sheen_strength=0.8)
    assert light.sheen((100.0, 100.0)) == pytest.approx(0.8)
    assert 0 < light.sheen((200.0, 100.0)) < light.sheen((150.0, 100.0)) < 0.8
    assert Light(0.0, 1.0, 0.5, 0.5).sheen((100.0, 100.0)) == 0.0


def test_ink_sheen_is_off_by_default_and_changes_only_frames_it_falls_on() -> None:
    """A chance of 0 is the default frame byte for byte; a chance of 1 changes the frame (pose and corners kept:
    its draws come from their own stream); chances outside 0..1 are refused."""
    plain = render_position(POSITION, RenderOptions.fast(seed=4, size=(480, 360)))
    zero = render_position(POSITION, RenderOptions.fast(seed=4, size=(480, 360), ink_sheen=0.0))
    shone = render_position(POSITION, RenderOptions.fast(seed=4, size=(480, 360), ink_sheen=1.0))
    assert plain.image.tobytes() == zero.image.tobytes()
    assert np.array_equal(plain.board_corners_px, shone.board_corners_px)
    assert plain.image.tobytes() != shone.image.tobytes()
    for bad in (-0.1, 1.5):
        with pytest.raises(RenderError, match="ink sheen"):
            RenderOptions(ink_sheen=bad)
