"""Scenes of the virtual camera: the arm and the squares it hides, pieces in hand on the stands, bad input."""

from __future__ import annotations

import numpy as np
import pytest

from vision.labels import EMPTY, labels_from_board_field
from vision.render import (
    Arm,
    CameraPose,
    Gantry,
    PlacedPiece,
    RenderOptions,
    Scene,
    SceneError,
    StyleError,
    render_position,
    render_scene,
    scene_from_sfen,
)
from vision.render.geometry import STAND_REGIONS_MM, apply_homography, square_centre_mm
from vision.render.stands import stand_layout

START = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"


def test_arm_over_the_centre_reports_the_squares_it_hides() -> None:
    """An arm reaching for 5e from sente's side hides 5e and squares towards sente, not the far corners."""
    scene = Scene(scene_from_sfen(START).pieces, arm=Arm(tip_mm=square_centre_mm(40), from_deg=0.0))
    options = RenderOptions.fast(seed=1, size=(640, 480), pose=CameraPose.overhead(fill=0.8))
    with_arm = render_scene(scene, options)
    without = render_scene(Scene(scene.pieces), options)
    assert 40 in with_arm.occluded_squares and 76 in with_arm.occluded_squares
    assert not {0, 8} & with_arm.occluded_squares
    assert without.occluded_squares == frozenset()
    x, y = np.round(with_arm.square_centres_px()[67]).astype(int)  # 5h, under the palm
    assert np.abs(with_arm.image[y, x].astype(int) - without.image[y, x].astype(int)).max() > 20


def test_random_hand_option_occludes_some_squares() -> None:
    """`hand=True` adds an arm over the board for every seed tried, and its squares are listed."""
    for seed in range(5):
        r = render_position(START, RenderOptions.fast(seed=seed, size=(640, 480), hand=True))
        assert r.occluded_squares, seed
        assert all(0 <= sq < 81 for sq in r.occluded_squares)


def test_pieces_in_hand_are_drawn_on_the_stands_and_reported() -> None:
    """Hands from the SFEN are the ground truth and each piece changes the picture where it lies."""
    sfen = "4k4/9/9/9/9/9/9/9/4K4 b 2P3pB 1"
    options = RenderOptions.fast(seed=2, size=(1280, 960), pose=CameraPose.overhead(fill=0.5), lighting=0.0)
    full = render_position(sfen, options)
    empty = render_position("4k4/9/9/9/9/9/9/9/4K4 b - 1", options)
    assert full.hands == {"P": 2, "p": 3, "B": 1}
    assert set(full.stand_regions_px) == {"b", "w"}
    heights = {k: 27.0 for k in "KRBGSNLP"}
    spots = [centre for _, centre, _ in stand_layout(full.hands, heights, None)]
    assert len(spots) == 6
    px = np.round(apply_homography(full.homography, np.array(spots))).astype(int)
    diff = np.abs(full.image.astype(int) - empty.image.astype(int)).max(axis=2)
    for x, y in px:
        assert diff[y - 2 : y + 3, x - 2 : x + 3].mean() > 15


def test_stands_sit_beside_the_board_sente_right_gote_left() -> None:
    """Sente's stand is right of the board at sente's end; gote's left of it at the far end."""
    b, w = STAND_REGIONS_MM["b"], STAND_REGIONS_MM["w"]
    assert b[:, 0].min() > 299.7 and b[:, 1].max() > 300
    assert w[:, 0].max() < 0 and w[:, 1].min() < 30


def test_lifted_piece_is_not_on_the_board_in_the_ground_truth() -> None:
    """A piece in the gripper above 5e is drawn but the square reads empty in the labels."""
    scene = Scene((PlacedPiece("K", 76), PlacedPiece("G", 40, lifted=True)))
    r = render_scene(scene, RenderOptions.fast(seed=3, size=(640, 480)))
    assert r.labels[40] == EMPTY and r.labels[76] == "K"


def test_scene_labels_follow_the_sfen() -> None:
    """Labels of a parsed SFEN are its board field; random jitter stays within a seventh of a square."""
    scene = scene_from_sfen(START, np.random.default_rng(0))
    assert list(scene.labels()) == labels_from_board_field(START.split(maxsplit=1)[0])
    assert max(max(abs(p.dx), abs(p.dy)) for p in scene.pieces) <= 0.14


@pytest.mark.parametrize(
    ("sfen", "words"),
    [
        ("lnsgkgsnl/9/9 b - 1", "9 ranks"),
        ("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNLX b - 1", "malformed"),
        ("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSN b - 1", "rank 9"),
        ("lnsgkgsnl1/r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", "rank 1"),
        ("+k8/9/9/9/9/9/9/9/9 b - 1", "malformed"),
        (START.replace(" b ", " x "), "side to move"),
        ("9/9/9/9/9/9/9/9/9 b 19P 1", "more than 18"),
        ("9/9/9/9/9/9/9/9/9 b 2Q 1", "hands"),
        ("", "empty"),
    ],
)
def test_bad_sfen_gives_a_clear_error(sfen: str, words: str) -> None:
    """Malformed positions raise SceneError (a ValueError) naming what is wrong."""
    with pytest.raises(SceneError, match=words):
        render_position(sfen, RenderOptions.fast(size=(320, 240)))


def test_unknown_style_is_named_in_the_error() -> None:
    """An unknown style raises StyleError listing the known ones."""
    with pytest.raises(StyleError, match="kanji_light"):
        render_position("startpos", RenderOptions(style="no_such_style", size=(320, 240)))


def test_bad_piece_and_square_are_rejected() -> None:
    """PlacedPiece checks its label and square; a scene cannot hold two pieces on one square."""
    with pytest.raises(SceneError):
        PlacedPiece("X", 3)
    with pytest.raises(SceneError):
        PlacedPiece("P", 81)
    with pytest.raises(SceneError, match="two pieces"):
        Scene((PlacedPiece("P", 3), PlacedPiece("p", 3)))


def test_gantry_in_view_hides_the_squares_under_its_head() -> None:
    """A gantry head above 5e hides 5e (with the bridge across that rank); without it nothing is hidden."""
    pieces = scene_from_sfen(START).pieces
    options = RenderOptions.fast(seed=4, size=(640, 480), pose=CameraPose.overhead(fill=0.8))
    with_gantry = render_scene(Scene(pieces, gantry=Gantry(square_centre_mm(40), height_mm=90.0)), options)
    assert {36, 40, 44} <= with_gantry.occluded_squares
    assert 76 not in with_gantry.occluded_squares
    assert render_scene(Scene(pieces), options).occluded_squares == frozenset()
