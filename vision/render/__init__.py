"""The virtual camera (digital twin): renders realistic frames of a shogi position with their ground truth.

Deterministic from a seed (same inputs, same bytes); needs only numpy and OpenCV at run time (piece sprites ship
as PNGs in `vision/assets/pieces/`, built by `scripts/rasterize_pieces.py`). Used by tests, benchmarks,
classifier training and the simulated game.

    from vision.render import RenderOptions, CameraPose, render_position
    frame = render_position("startpos", RenderOptions(style="2kanji_3d", seed=7, size=(1280, 960), hand=True))
    frame.image                # HxWx3 uint8 BGR
    frame.board_corners_px     # 9a, 1a, 1i, 9i outer grid corners in pixels
    frame.homography           # board mm -> pixels (see geometry: 33.3 x 36.4 mm squares, origin at 9a)
    frame.labels, frame.hands  # ground truth; frame.occluded_squares: squares under the arm

Scenes (`Scene`, `PlacedPiece`, `Arm`, `Gantry`) draw anything else: pieces off their squares, lifted in the gripper,
a hand at a given place. `render_piece_crop` draws one square for classifier work. `RenderOptions.fast` skips
noise, blur and JPEG. `list_styles()` names the piece styles.
"""

from vision.render.assets import list_styles
from vision.render.crops import render_piece_crop
from vision.render.errors import RenderError, SceneError, StyleError
from vision.render.geometry import (
    BOARD_MARGIN_MM,
    GRID_CORNERS_MM,
    GRID_H_MM,
    GRID_W_MM,
    SQUARE_H_MM,
    SQUARE_W_MM,
    STAND_REGIONS_MM,
    CameraPose,
    square_centre_mm,
)
from vision.render.renderer import Rendered, RenderOptions, render_position, render_scene
from vision.render.scene import Arm, Gantry, PlacedPiece, Scene, scene_from_sfen

__all__ = [
    "BOARD_MARGIN_MM",
    "GRID_CORNERS_MM",
    "GRID_H_MM",
    "GRID_W_MM",
    "SQUARE_H_MM",
    "SQUARE_W_MM",
    "STAND_REGIONS_MM",
    "Arm",
    "CameraPose",
    "Gantry",
    "PlacedPiece",
    "RenderError",
    "RenderOptions",
    "Rendered",
    "Scene",
    "SceneError",
    "StyleError",
    "list_styles",
    "render_piece_crop",
    "render_position",
    "render_scene",
    "scene_from_sfen",
    "square_centre_mm",
]
