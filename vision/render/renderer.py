"""The virtual camera: `render_scene` / `render_position` draw a realistic BGR frame of a position with its
ground truth (board corners, homography, labels, hands, occluded squares, stand regions). Deterministic: the
same scene and options give the same bytes.

Pipeline: pose -> camera; draw the visible board plane (table, board wood, grid, stands) on a canvas; pieces'
shadows, then sides and faces; warp the canvas through the camera; arm over it; lighting, blur, noise, JPEG.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.render.arm import covered_regions, covered_squares, draw_arm, draw_arm_shadow, random_arm
from vision.render.assets import PIECE_HEIGHT_MM, Sprite, load_style, load_style_dir, sprite_code
from vision.render.board import BoardLook, Plane, board_box, draw_grid, draw_surface, plan_plane
from vision.render.effects import jpeg, lens_blur, lighting, sensor_noise
from vision.render.errors import RenderError
from vision.render.gantry import draw_gantry, draw_gantry_shadow
from vision.render.geometry import (
    GRID_CORNERS_MM,
    SQUARE_H_MM,
    SQUARE_W_MM,
    STAND_REGIONS_MM,
    Camera,
    CameraPose,
    apply_homography,
    square_centre_mm,
)
from vision.render.lens import distort_image, distort_points
from vision.render.pieces import (
    Light,
    PieceDraw,
    PieceTone,
    apply_shadow,
    draw_piece_face,
    draw_piece_shadow,
    piece_patch,
    piece_size_mm,
    tinted,
)
from vision.render.scene import Arm, Gantry, Scene, scene_from_sfen
from vision.render.stands import stand_layout
from vision.render.table import draw_background
from vision.render.wood import WoodLook, wood_texture


@dataclass(frozen=True)
class RenderOptions:
    """How to draw: piece style, seed, picture size (width, height), camera pose (None = random from the seed),
    strengths of the lighting (uneven light, shadows), sensor noise, blur and JPEG effects (0 = off, 1 = the
    usual random amounts), an arm over the board (`hand`), and whether the stands are drawn."""

    style: str = "kanji_light"
    seed: int = 0
    size: tuple[int, int] = (1280, 960)
    pose: CameraPose | None = None
    lighting: float = 1.0
    noise: float = 1.0
    blur: float = 1.0
    jpeg: float = 1.0
    hand: bool = False
    stands: bool = True
    max_tilt_deg: float = 45.0
    distortion: float = 0.0
    """Radial lens distortion coefficient (`vision.render.lens`; > 0 barrel). Off by default."""
    exposure: float = 1.0
    """Overall brightness factor on top of the random lighting (0.15 = a dark room, 2.5 = blown out)."""
    stands_in_view: bool = False
    """With a random pose, also keep both stands inside the picture (for reading pieces in hand)."""
    style_dir: Path | None = None
    """A folder of sprites to draw instead of the shipped style (training data, e.g. faces drawn from fonts;
    `style` then only names them). Off by default: the shipped styles."""
    ink_sheen: float = 0.0
    """Chance that the lamp's reflection also turns the pieces' lacquered ink silver near its mirror image (the
    ink then lighter than the matt wood, as on the right of the shared real photo's far rank); 0 (the default):
    never. Drawn from its own stream: frames of other seeds, and every frame with 0, are unchanged by it."""
    set_seed: int | None = None
    """The piece set's own make (its pieces' size, wood tone and grain, which side's king is written 玉), drawn
    from this seed: frames that give the same `set_seed` show one physical set (as a calibrated set is, under
    other cameras, boards and light). None (the default): drawn from the frame's `seed`, every seed its own set."""

    def __post_init__(self) -> None:
        w, h = self.size
        if not (160 <= w <= 8000 and 120 <= h <= 8000):
            raise RenderError(f"picture size {w}x{h} outside 160x120 .. 8000x8000")
        if not 0.0 <= self.ink_sheen <= 1.0:
            raise RenderError(f"ink sheen chance {self.ink_sheen} outside 0..1")
        for name in ("lighting", "noise", "blur", "jpeg"):
            value = getattr(self, name)
            if not 0.0 <= value <= 3.0:
                raise RenderError(f"{name} strength {value} outside 0..3")
        if not 0.02 <= self.exposure <= 10.0:
            raise RenderError(f"exposure {self.exposure} outside 0.02..10")
        if not -0.3 <= self.distortion <= 0.3:
            raise RenderError(f"lens distortion {self.distortion} outside -0.3..0.3")

    @staticmethod
    def fast(**kwargs: object) -> RenderOptions:
        """Cheaper frames: no sensor noise, no JPEG round trip, no blur (lighting kept)."""
        return RenderOptions(**{"noise": 0.0, "jpeg": 0.0, "blur": 0.0, **kwargs})  # type: ignore[arg-type]


@dataclass(frozen=True)
class Rendered:
    """A rendered frame and its ground truth.

    `board_corners_px`: outer grid corners (4x2) by 9a, 1a, 1i, 9i (top left, top right, bottom right, bottom
    left seen from sente). `homography`: board mm (see `vision.render.geometry`) to pixels; `grid_homography`:
    the unit square (0,0)=9a corner, (1,1)=1i corner to pixels. Both are the pinhole part: with lens
    `distortion` (off by default) map points with `to_image`; corners and stand regions include it.
    `stand_regions_px` / `stand_regions_mm`: the stands' top surfaces (`b` sente's, `w` gote's), empty when
    not drawn. `labels`: 81 SFEN-order labels of resting pieces; `hands`: pieces in hand (`{"P": 2, "p": 1}`);
    `occluded_squares`: squares the arm or gantry covers at least in part; `occluded_stands`: stands touched."""

    image: np.ndarray
    board_corners_px: np.ndarray
    homography: np.ndarray
    grid_homography: np.ndarray
    occluded_squares: frozenset[int]
    occluded_stands: frozenset[str]
    stand_regions_px: dict[str, np.ndarray]
    stand_regions_mm: dict[str, np.ndarray]
    labels: tuple[str, ...]
    hands: dict[str, int]
    pose: CameraPose
    style: str
    distortion: float = 0.0

    def to_image(self, points_mm: np.ndarray) -> np.ndarray:
        """Picture pixels (Nx2) of board-plane points in mm, lens distortion included."""
        size = (self.image.shape[1], self.image.shape[0])
        return distort_points(apply_homography(self.homography, np.asarray(points_mm)), size, self.distortion)

    def square_centres_px(self) -> np.ndarray:
        """81x2 picture positions of the square centres (on the board plane), SFEN order."""
        return self.to_image(np.array([square_centre_mm(i) for i in range(81)]))


@dataclass(frozen=True)
class _Randoms:
    """Independent generators per concern, so switching one effect off leaves the others' draws unchanged."""

    pose: np.random.Generator
    look: np.random.Generator
    light: np.random.Generator
    pieces: np.random.Generator
    arm: np.random.Generator
    tone: np.random.Generator
    blur: np.random.Generator
    noise: np.random.Generator
    jpeg: np.random.Generator

    @staticmethod
    def from_seed(seed: int) -> _Randoms:
        seeds = np.random.SeedSequence([abs(int(seed)), 0x5A0]).spawn(9)
        return _Randoms(*(np.random.default_rng(s) for s in seeds))


def render_position(sfen: str, options: RenderOptions) -> Rendered:
    """Render an SFEN position (pieces jittered with a generator from the seed)."""
    scene = scene_from_sfen(sfen, np.random.default_rng([abs(int(options.seed)), 0x5CE]))
    return render_scene(scene, options)


def render_scene(scene: Scene, options: RenderOptions) -> Rendered:
    """Render a scene."""
    rand = _Randoms.from_seed(options.seed)
    sprites = load_style(options.style) if options.style_dir is None else load_style_dir(options.style_dir)
    in_view = options.stands_in_view and options.stands
    pose = options.pose or CameraPose.random(rand.pose, options.max_tilt_deg, options.size, with_stands=in_view)
    camera = Camera.from_pose(pose, options.size)
    plane = plan_plane(camera, options.size, board_box(options.stands))
    look = BoardLook.random(rand.look)
    canvas, cover = draw_surface(rand.look, plane, look, options.stands)
    draw_grid(canvas, plane, look)
    light = Light.random(rand.light, options.lighting)
    if options.ink_sheen > 0:
        light = light.with_sheen(np.random.default_rng([abs(int(options.seed)), _SHEEN_SALT]), options.ink_sheen)
    draws = _piece_draws(scene, options, sprites, rand.pieces, camera=camera, light=light)
    arm = scene.arm or (random_arm(rand.arm, camera) if options.hand else None)
    _draw_pieces(canvas, cover, plane, camera, draws=draws, light=light, occluders=(arm, scene.gantry))
    fall = (light.dx * light.shadow_per_mm, light.dy * light.shadow_per_mm)
    image = draw_background(rand.look, camera, options.size, look=look, stands=options.stands, light=fall)
    _warp_onto(image, canvas, cover, plane, camera)
    mask = draw_gantry(image, camera, scene.gantry) if scene.gantry is not None else None
    if arm is not None:
        hand = draw_arm(image, camera, arm, rand.arm)
        mask = hand if mask is None else cv2.max(mask, hand)
    if options.distortion:
        image = distort_image(image, options.distortion)
    image = _effects(image, options, rand)
    return _result(image, scene, options, pose, camera=camera, mask=mask)


def _piece_draws(
    scene: Scene,
    options: RenderOptions,
    sprites: dict[str, Sprite],
    rng: np.random.Generator,
    *,
    camera: Camera,
    light: Light,
) -> list[PieceDraw]:
    """Every piece to draw (board, stands, air), farthest from the camera first, lifted ones last."""
    make = set_make(options, rng)
    set_scale, gyoku_side, tint, grain = make.scale, make.gyoku_side, make.tint, make.grain
    toned: dict[str, Sprite] = {}
    out: list[tuple[float, PieceDraw]] = []
    foot = np.array(camera.foot())

    def add(label: str, centre: tuple[float, float], angle: float, lifted: float) -> None:
        height, thick = piece_size_mm(label, set_scale)
        code = sprite_code(label, king_gyoku=label.isupper() == gyoku_side)
        if code not in toned:
            toned[code] = tinted(sprites[code], tint, grain)
        size = height * (1.06 if lifted else 1.0)
        draw = PieceDraw(
            toned[code], centre, size, angle, lifted, thick, gloss=light.gloss(centre), sheen=light.sheen(centre)
        )
        key = 1e9 if lifted else -float(np.hypot(*(np.array(centre) - foot)))
        out.append((key, draw))

    for piece in scene.pieces:
        if piece.square is not None:
            cx, cy = square_centre_mm(piece.square)
            centre = (cx + piece.dx * SQUARE_W_MM, cy + piece.dy * SQUARE_H_MM)
        else:
            assert piece.at_mm is not None
            centre = piece.at_mm
        add(piece.label, centre, piece.angle_deg, piece.height_mm if piece.lifted else 0.0)
    if options.stands:
        heights = {k: v * set_scale for k, v in PIECE_HEIGHT_MM.items()}
        for label, centre, angle in stand_layout(scene.hands, heights, rng):
            add(label, centre, angle, 0.0)
    out.sort(key=lambda item: item[0])
    return [d for _, d in out]


_SHEEN_SALT = 7412
"""Mixed into the frame's seed for the ink sheen's draws (`RenderOptions.ink_sheen`)."""
_SET_SALT = 7411
"""Mixed into `RenderOptions.set_seed` (a set seed equal to a frame seed does not repeat that frame's draws)."""


@dataclass(frozen=True)
class SetMake:
    """What one physical piece set is: its pieces' size (a factor on the standard sizes), which side's king is
    written 玉 (True: sente's), its wood tone (per-channel factors) and grain (factors about 1, sprite-sized)."""

    scale: float
    gyoku_side: bool
    tint: tuple[float, float, float]
    grain: np.ndarray


def set_make(options: RenderOptions, rng: np.random.Generator) -> SetMake:
    """The set a frame shows: drawn from `options.set_seed` when given (the same in every frame that gives it),
    else from the frame's own random stream `rng`."""
    make = rng if options.set_seed is None else np.random.default_rng([options.set_seed, _SET_SALT])
    scale = float(make.uniform(0.78, 1.0))
    gyoku_side = bool(make.integers(2))
    tint = PieceTone.random(make)
    return SetMake(scale, gyoku_side, tint, _piece_grain(make))


def _piece_grain(rng: np.random.Generator) -> np.ndarray:
    """The set's wood grain for the piece faces: faint stripes (factors about 1), sprite-sized."""
    look = WoodLook.random(rng)
    stripes = wood_texture(rng, look, (128, 128), 4.0, vertical=True)[..., 1]
    strength = rng.uniform(0.4, 1.2)
    out: np.ndarray = (1.0 + strength * (stripes / stripes.mean() - 1.0)).astype(np.float32)
    return out


def _draw_pieces(
    canvas: np.ndarray,
    cover: np.ndarray,
    plane: Plane,
    camera: Camera,
    *,
    draws: list[PieceDraw],
    light: Light,
    occluders: tuple[Arm | None, Gantry | None],
) -> None:
    """Shadows first (so no piece darkens its own face), then each piece's sides and face."""
    shadow = np.zeros(canvas.shape[:2], np.uint8)
    patches = [piece_patch(plane, camera, d) for d in draws]
    for draw, patch in zip(draws, patches, strict=True):
        draw_piece_shadow(shadow, plane, draw, patch, light)
    arm, gantry = occluders
    if arm is not None:
        draw_arm_shadow(shadow, plane, camera, arm, light)
    if gantry is not None:
        draw_gantry_shadow(shadow, plane, camera, gantry, light)
    if light.strength > 0:
        apply_shadow(canvas, shadow, 1.6 * plane.scale, light.strength)
    for draw, patch in zip(draws, patches, strict=True):
        draw_piece_face(canvas, cover, draw, patch)


def _warp_onto(image: np.ndarray, canvas: np.ndarray, cover: np.ndarray, plane: Plane, camera: Camera) -> None:
    """Paste the canvas, seen through the camera, over the picture where it covers something."""
    size = (image.shape[1], image.shape[0])
    h = camera.homography() @ np.linalg.inv(plane.mm_to_px())
    bgra = cv2.merge([canvas, cover])  # one 4-channel warp is cheaper than a 3- and a 1-channel one
    seen = cv2.warpPerspective(bgra, h, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
    _, where = cv2.threshold(cv2.extractChannel(seen, 3), 127, 255, cv2.THRESH_BINARY)
    cv2.copyTo(cv2.cvtColor(seen, cv2.COLOR_BGRA2BGR), where, image)


def _effects(image: np.ndarray, options: RenderOptions, rand: _Randoms) -> np.ndarray:
    if options.lighting > 0:
        image = lighting(image, rand.tone, options.lighting)
    if options.exposure != 1.0:
        image = cv2.convertScaleAbs(image, alpha=options.exposure)
    if options.blur > 0:
        image = lens_blur(image, rand.blur, options.blur)
    if options.noise > 0:
        image = sensor_noise(image, rand.noise, options.noise)
    if options.jpeg > 0:
        image = jpeg(image, rand.jpeg, options.jpeg)
    return image


def _result(
    image: np.ndarray,
    scene: Scene,
    options: RenderOptions,
    pose: CameraPose,
    *,
    camera: Camera,
    mask: np.ndarray | None,
) -> Rendered:
    h = camera.homography()
    unit = h @ np.diag([GRID_CORNERS_MM[2, 0], GRID_CORNERS_MM[2, 1], 1.0])
    regions_mm = {k: v.copy() for k, v in STAND_REGIONS_MM.items()} if options.stands else {}
    d = options.distortion
    regions_px = {k: distort_points(apply_homography(h, v), options.size, d) for k, v in regions_mm.items()}
    occluded = covered_squares(mask, camera) if mask is not None else frozenset()
    stands_hit = covered_regions(mask, regions_px) if mask is not None else frozenset()
    labels = scene.labels()
    hands = {k: v for k, v in scene.hands.items() if v > 0}
    if not math.isfinite(float(np.abs(h).sum())):
        raise RenderError("camera pose gives a degenerate projection")
    return Rendered(
        image=image,
        board_corners_px=distort_points(apply_homography(h, GRID_CORNERS_MM), options.size, options.distortion),
        homography=h,
        grid_homography=unit / unit[2, 2],
        occluded_squares=occluded,
        occluded_stands=stands_hit,
        stand_regions_px=regions_px,
        stand_regions_mm=regions_mm,
        labels=labels,
        hands=hands,
        pose=pose,
        style=options.style,
        distortion=d,
    )
