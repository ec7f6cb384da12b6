"""The virtual camera (digital twin): renders realistic frames of a shogi position with their ground truth.

Deterministic from a seed; needs only numpy and OpenCV at run time (piece sprites ship as PNGs in
`vision/assets/pieces/`, built by `scripts/rasterize_pieces.py`). Used by tests, benchmarks, classifier
training and the simulated game.
"""

from vision.render.assets import list_styles
from vision.render.crops import render_piece_crop
from vision.render.errors import RenderError, SceneError, StyleError
from vision.render.geometry import (
    GRID_H_MM,
    GRID_W_MM,
    SQUARE_H_MM,
    SQUARE_W_MM,
    STAND_REGIONS_MM,
    CameraPose,
)
from vision.render.renderer import Rendered, RenderOptions, render_position, render_scene
from vision.render.scene import Arm, PlacedPiece, Scene, scene_from_sfen

__all__ = [
    "GRID_H_MM",
    "GRID_W_MM",
    "SQUARE_H_MM",
    "SQUARE_W_MM",
    "STAND_REGIONS_MM",
    "Arm",
    "CameraPose",
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
]
