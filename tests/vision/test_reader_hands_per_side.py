"""Each piece stand is read on its own: a stand out of the picture is unknown (its side absent), the other counts."""

from __future__ import annotations

from vision.board_read import BoardRead, hands_field
from vision.classifier import PieceClassifier
from vision.orientation import sente_direction
from vision.reader import BoardReader, ReaderSettings
from vision.render import CameraPose, RenderOptions, render_position

BOARD = "ln1g3nl/1ks2rg2/1ppp1s1p1/p3ppp1p/9/P1PP1PP1P/1PS1PS3/1KG2G1R1/LN5NL"


def _read(hands: str, pose: CameraPose, seed: int, classifier: PieceClassifier) -> BoardRead:
    frame = render_position(
        f"{BOARD} b {hands}", RenderOptions(style="kanji_light", seed=seed, size=(960, 720), pose=pose)
    )
    settings = ReaderSettings(sente_side=sente_direction(frame.board_corners_px))
    return BoardReader(classifier, settings).read(frame.image)


def test_sente_stand_out_of_view_leaves_gote_counted(classifier: PieceClassifier) -> None:
    """Board shifted right: sente's stand (right of the board) leaves the picture and is unknown (absent), while
    gote's stand, still in view, is counted by kind."""
    read = _read("BG2Pbn2p", CameraPose(fill=0.6, cx=0.2), 3, classifier)
    assert read.hands == {"w": {"B": 1, "N": 1, "P": 2}}


def test_gote_stand_out_of_view_leaves_sente_counted(classifier: PieceClassifier) -> None:
    """Board shifted left: gote's stand leaves the picture, sente's silver and knight are still counted."""
    read = _read("SNp", CameraPose(fill=0.6, cx=-0.2), 7, classifier)
    assert read.hands == {"b": {"S": 1, "N": 1}}


def test_one_side_json_keeps_the_other_unknown(classifier: PieceClassifier) -> None:
    """`vision read --json` gives the hands of the stand read only: the side out of view is absent, not `{}`;
    the SFEN's hand field lists what was read."""
    read = _read("SNp", CameraPose(fill=0.6, cx=0.2), 7, classifier)
    out = read.to_json()
    assert out["hands"] == {"w": {"P": 1}}
    assert out["sfen"].endswith(" b p")


def test_hands_field_of_one_side() -> None:
    """The SFEN hand field of one stand read lists that side's pieces; nothing read is `-`."""
    assert hands_field({"w": {"P": 2, "B": 1}}) == "b2p"
    assert hands_field({"b": {}}) == "-"
    assert hands_field(None) == "-"
