"""Values of piece-transfer planning: physical pieces, locations and transfers.

Owns: Piece (a physical piece: base kind, which face is up, which way it points), the Location kinds (a board
square, a stand slot, the flip station, a person's hands), TransferKind and Transfer.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from hardware.geometry import Side

PROMOTABLE = frozenset("RBSNLP")
"""Base kinds that have a promoted face."""


@dataclass(frozen=True)
class Piece:
    """One physical piece.

    Attributes:
        kind: base kind in sente spelling (K R B G S N L P); a dragon is a rook showing its promoted face.
        promoted_face: True when the promoted side is up.
        facing: the side whose piece it looks like (its point aims away from that player).
    """

    kind: str
    promoted_face: bool
    facing: Side

    @property
    def label(self) -> str:
        """SFEN-style label as it looks (`+r` is a face-down rook pointing at sente, i.e. gote's dragon)."""
        letter = self.kind if self.facing is Side.BLACK else self.kind.lower()
        return ("+" if self.promoted_face else "") + letter

    @classmethod
    def from_label(cls, label: str) -> Piece:
        """The piece an SFEN label shows (`+P` = sente's tokin)."""
        promoted = label.startswith("+")
        letter = label.lstrip("+")
        return cls(letter.upper(), promoted, Side.BLACK if letter.isupper() else Side.WHITE)


@dataclass(frozen=True)
class SquareLoc:
    """A board square by USI name (`7g`)."""

    square: str

    def __str__(self) -> str:
        return self.square


@dataclass(frozen=True)
class SlotLoc:
    """A stand slot: the stand of `side`, the row of `kind`, slot `index` (from 0)."""

    side: Side
    kind: str
    index: int

    def __str__(self) -> str:
        return f"stand {self.side.value} {self.kind}#{self.index}"


@dataclass(frozen=True)
class FlipStationLoc:
    """The flip station: a piece set down there is turned face over and picked up again."""

    def __str__(self) -> str:
        return "flip station"


@dataclass(frozen=True)
class HumanLoc:
    """A person's hands (a piece the machine cannot place)."""

    def __str__(self) -> str:
        return "human"


Location = SquareLoc | SlotLoc | FlipStationLoc | HumanLoc


class TransferKind(enum.StrEnum):
    """What a transfer does."""

    MOVE = "move"
    """A piece from one square (or the flip station) to a square."""
    CAPTURE_TO_STAND = "capture_to_stand"
    """A captured piece to its capturer's stand."""
    DROP = "drop"
    """A piece from a stand (or the flip station) to a square."""
    FLIP = "flip"
    """A piece to the flip station, which turns it face over."""
    ROTATE = "rotate"
    """A piece picked up, turned 180 degrees by the rotation axis and set back in place."""
    HUMAN_ACTION = "human_action"
    """A person does something (turns a piece over or around); the game waits for the camera to confirm."""
    STORE = "store"
    """A piece to a stand slot during a board setup (not a capture)."""


class HumanTask(enum.StrEnum):
    """What a person is asked to do to a piece in place."""

    TURN_OVER = "turn over"
    TURN_AROUND = "turn around"
    TURN_OVER_AND_AROUND = "turn over and around"


@dataclass(frozen=True)
class Transfer:
    """One physical step.

    Attributes:
        label: the piece's label as it looks before the transfer.
        src: where the piece is.
        dst: where it ends (equal to `src` for ROTATE and HUMAN_ACTION).
        kind: what this is.
        half_turn: the rotation axis turns the piece 180 degrees while carrying it.
        task: for HUMAN_ACTION, what the person must do.
    """

    label: str
    src: Location
    dst: Location
    kind: TransferKind
    half_turn: bool = False
    task: HumanTask | None = None

    def describe(self) -> str:
        """One line for logs and the CLI."""
        if self.kind is TransferKind.HUMAN_ACTION:
            return f"HUMAN: {self.task} the piece {self.label} at {self.src}"
        turn = " (turning it around)" if self.half_turn else ""
        if self.kind is TransferKind.ROTATE:
            return f"rotate {self.label} at {self.src}"
        return f"{self.kind.value}: {self.label} {self.src} -> {self.dst}{turn}"
