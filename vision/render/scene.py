"""What the virtual camera looks at: pieces on squares or in the air, pieces in hand, an optional arm.

Values only (frozen dataclasses) plus `scene_from_sfen`, which parses an SFEN position (board field, optional
side to move, hands) into a `Scene`, adding small random offsets and turns to the pieces when given a generator.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np

from vision.labels import EMPTY, HAND_KINDS, PIECE_LABELS, labels_from_board_field
from vision.render.errors import SceneError

STARTPOS_BOARD = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL"
MAX_IN_HAND = {"R": 2, "B": 2, "G": 4, "S": 4, "N": 4, "L": 4, "P": 18}
"""The most of each kind that exists in a set (both sides together)."""
LIFT_HEIGHT_MM = 45.0
_BOARD_CHARS = re.compile(r"^[KRBGSNLPkrbgsnlp+1-9/]+$")
_HAND_TOKEN = re.compile(r"(\d*)([RBGSNLPrbgsnlp])")


@dataclass(frozen=True)
class PlacedPiece:
    """One piece: its SFEN label, where it is, how far it sits off the square's centre and how it is turned.

    `square` is an SFEN-order index (0 = 9a ... 80 = 1i) or None for a piece elsewhere, placed by `at_mm` (board
    millimetres: x to the right from the 9a grid corner, y down towards rank i). `dx`/`dy` are fractions of a
    square (x towards file 1, y towards rank i). A `lifted` piece hangs `height_mm` above the board (in the
    gripper): drawn bigger, with its shadow further away.
    """

    label: str
    square: int | None
    dx: float = 0.0
    dy: float = 0.0
    angle_deg: float = 0.0
    lifted: bool = False
    at_mm: tuple[float, float] | None = None
    height_mm: float = LIFT_HEIGHT_MM

    def __post_init__(self) -> None:
        if self.label not in PIECE_LABELS:
            raise SceneError(f"unknown piece label {self.label!r} (expected one of {', '.join(PIECE_LABELS)})")
        if self.square is None and self.at_mm is None:
            raise SceneError(f"piece {self.label}: give a square or a position at_mm")
        if self.square is not None and not 0 <= self.square < 81:
            raise SceneError(f"piece {self.label}: square index {self.square} out of range 0..80")


@dataclass(frozen=True)
class Arm:
    """A hand and forearm over the board: fingertips above `tip_mm` (board millimetres), the arm reaching in
    from direction `from_deg` (0 = from sente's side, 90 = from the file-1 side, as `CameraPose.tilt_dir_deg`),
    `height_mm` above the board, `width_mm` across the palm."""

    tip_mm: tuple[float, float]
    from_deg: float
    height_mm: float = 90.0
    width_mm: float = 85.0


@dataclass(frozen=True)
class Gantry:
    """The robot's XY gantry in view: its head above `head_mm` (board millimetres), the head's underside
    `height_mm` above the board, the bridge and (with `rails`) the two rails higher up."""

    head_mm: tuple[float, float]
    height_mm: float = 90.0
    rails: bool = True


@dataclass(frozen=True)
class Scene:
    """Pieces on the board or in the air, pieces in hand (`{"P": 2, "p": 1}`: uppercase sente's stand,
    lowercase gote's), an optional arm over the board and an optional gantry in view."""

    pieces: tuple[PlacedPiece, ...]
    hands: dict[str, int] = field(default_factory=dict)
    arm: Arm | None = None
    gantry: Gantry | None = None

    def __post_init__(self) -> None:
        seen: set[int] = set()
        for piece in self.pieces:
            if piece.square is not None and not piece.lifted:
                if piece.square in seen:
                    raise SceneError(f"two pieces on square index {piece.square}")
                seen.add(piece.square)
        for label, count in self.hands.items():
            if label.upper() not in HAND_KINDS or count < 0:
                raise SceneError(f"bad hand entry {label!r}: {count}")

    def labels(self) -> tuple[str, ...]:
        """81 ground-truth labels in SFEN order (pieces resting on squares; lifted ones do not count)."""
        out = [EMPTY] * 81
        for piece in self.pieces:
            if piece.square is not None and not piece.lifted:
                out[piece.square] = piece.label
        return tuple(out)


def parse_sfen(sfen: str) -> tuple[list[str], dict[str, int]]:
    """81 labels and the hands of an SFEN (`startpos`, `sfen ...`, `<board> [b|w] [hands] [ply]`, or a board)."""
    text = sfen.strip()
    if text.startswith("sfen "):
        text = text[5:].strip()
    if text in ("startpos", ""):
        if not text:
            raise SceneError("empty SFEN")
        return labels_from_board_field(STARTPOS_BOARD), {}
    fields = text.split()
    board = fields[0]
    if not _BOARD_CHARS.match(board) or re.search(r"\+(?![RBSNLPrbsnlp])", board):
        raise SceneError(f"malformed SFEN board field {board!r}")
    if board.count("/") != 8:
        raise SceneError(f"SFEN board field needs 9 ranks separated by '/', got {board.count('/') + 1}")
    for rank, row in enumerate(board.split("/")):
        width = sum(int(ch) if ch.isdigit() else 1 for ch in row if ch != "+")
        if width != 9:
            raise SceneError(f"SFEN rank {rank + 1} ({row!r}) covers {width} squares, not 9")
    try:
        labels = labels_from_board_field(board)
    except ValueError as exc:
        raise SceneError(str(exc)) from exc
    if len(fields) > 1 and fields[1] not in ("b", "w"):
        raise SceneError(f"SFEN side to move must be 'b' or 'w', got {fields[1]!r}")
    hands = parse_hands(fields[2]) if len(fields) > 2 else {}
    return labels, hands


def parse_hands(text: str) -> dict[str, int]:
    """Pieces in hand from the SFEN hand field (`-`, `2P3pB`)."""
    if text == "-":
        return {}
    if not re.fullmatch(r"(\d*[RBGSNLPrbgsnlp])+", text):
        raise SceneError(f"malformed SFEN hands field {text!r}")
    hands: dict[str, int] = {}
    for count, letter in _HAND_TOKEN.findall(text):
        hands[letter] = hands.get(letter, 0) + (int(count) if count else 1)
    for kind, most in MAX_IN_HAND.items():
        if hands.get(kind, 0) + hands.get(kind.lower(), 0) > most:
            raise SceneError(f"more than {most} of {kind} in hand in {text!r}")
    return hands


def scene_from_sfen(sfen: str, rng: np.random.Generator | None = None) -> Scene:
    """A scene of an SFEN position; with `rng`, each piece sits a little off centre and turned a few degrees."""
    labels, hands = parse_sfen(sfen)
    pieces = []
    for square, label in enumerate(labels):
        if label == EMPTY:
            continue
        if rng is None:
            pieces.append(PlacedPiece(label, square))
            continue
        dx, dy = rng.normal(0.0, 0.045, 2).clip(-0.13, 0.13)
        angle = float(rng.normal(0.0, 3.0))
        pieces.append(PlacedPiece(label, square, float(dx), float(dy), max(-9.0, min(9.0, angle))))
    return Scene(tuple(pieces), hands)
