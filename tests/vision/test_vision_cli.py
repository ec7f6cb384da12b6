"""`shogi-robot vision read | classify | calibrate` on files: JSON shapes and clear errors."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import pytest

from controller.cli.main import main
from vision.board import find_board
from vision.calibration import FLIPPED_BOARD, START_BOARD
from vision.labels import EMPTY, board_field_from_labels, labels_from_board_field
from vision.render import CameraPose, RenderOptions, render_position
from vision.squares import crops_from_frame

PHOTO = Path("../shared/data/photos/startpos-wooden-overhead.jpg")


def test_read_json(capsys: pytest.CaptureFixture[str]) -> None:
    """`vision read --json` prints the documented fields, 81 squares with their top-3 probabilities."""
    assert main(["vision", "read", str(PHOTO), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) >= {"sfen", "board_found", "squares", "hands", "unreliable", "ms"}
    assert out["board_found"] is True
    assert len(out["squares"]) == 81
    assert all(1 <= len(sq["top"]) <= 3 for sq in out["squares"])
    names = [f"{9 - i % 9}{'abcdefghi'[i // 9]}" for i in range(81)]
    # the piece is the likeliest label, unless more of its kind were read than a set holds (then not trusted)
    assert all(
        sq["top"][0][0] == sq["piece"] or name in out["unreliable"]
        for sq, name in zip(out["squares"], names, strict=True)
    )
    assert out["hands"] is None


def test_read_without_the_square_prior(capsys: pytest.CaptureFixture[str]) -> None:
    """`vision read --no-square-prior` reads with the faces alone: the probabilities a reader without the prior
    gives, which differ from the default read's."""
    from vision.reader import BoardReader, ReaderSettings

    def squares(*flags: str) -> list[float]:
        assert main(["vision", "read", str(PHOTO), "--json", *flags]) == 0
        return [sq["p"] for sq in json.loads(capsys.readouterr().out)["squares"]]

    plain = BoardReader(settings=ReaderSettings(square_prior=0.0)).read(cv2.imread(str(PHOTO)))
    without = squares("--no-square-prior")
    assert without == pytest.approx([sq.p for sq in plain.squares], abs=1e-4)  # the JSON has 4 decimals
    assert without != pytest.approx(squares())


def test_read_complete_set(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """`vision read --complete-set`: a crowded stand's twelve pawns counted as what the board leaves of the set."""
    board = "lnsgkgsnl/1r5b1/9/9/9/9/3PPPPPP/1B5R1/LNSGKGSNL"
    frame = render_position(f"{board} b 12P", RenderOptions(style="kanji_light", seed=10, pose=CameraPose(fill=0.5)))
    cv2.imwrite(str(tmp_path / "frame.png"), frame.image)
    assert main(["vision", "read", str(tmp_path / "frame.png"), "--complete-set", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["sfen"] == f"{board} b 12P"
    assert out["hands"] == {"b": {"P": 12}, "w": {}}


def test_read_missing_file_is_an_error(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A missing or undecodable image is a reported error (exit 1), not a traceback."""
    assert main(["vision", "read", str(tmp_path / "nope.png")]) == 1
    garbage = tmp_path / "garbage.png"
    garbage.write_bytes(b"not an image")
    assert main(["vision", "read", str(garbage)]) == 1
    assert "cannot decode" in capsys.readouterr().err


def test_classify_crops(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """`vision classify` labels a king crop and an empty crop cut from the real photo."""
    image = cv2.imread(str(PHOTO))
    geometry = find_board(image)
    assert geometry is not None
    crops = crops_from_frame(image, geometry)
    king, empty = tmp_path / "king.png", tmp_path / "empty.png"
    cv2.imwrite(str(king), crops[76])  # 5i seen with sente at the bottom of the photo
    cv2.imwrite(str(empty), crops[40])  # 5e
    assert main(["vision", "classify", str(king), str(empty), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out[0]["piece"], out[0]["owner"]) == ("K", "b")
    assert (out[1]["piece"], out[1]["owner"]) == (EMPTY, None)


@pytest.mark.slow
def test_calibrate_then_read(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """`vision calibrate START FLIPPED -o set.json` writes a file that `vision read --calibration` accepts."""
    flipped = [
        lab if lab == EMPTY or lab.upper() in ("K", "G") else "+" + lab for lab in labels_from_board_field(START_BOARD)
    ]
    pose = CameraPose(tilt_deg=10, fill=0.8)
    opts = {"style": "kanji_brown", "seed": 5, "size": (800, 600), "pose": pose}
    start, turned = tmp_path / "start.png", tmp_path / "flipped.png"
    cv2.imwrite(str(start), render_position(START_BOARD + " b -", RenderOptions(**opts)).image)  # type: ignore[arg-type]
    cv2.imwrite(str(turned), render_position(board_field_from_labels(flipped) + " b -", RenderOptions(**opts)).image)  # type: ignore[arg-type]
    out_file = tmp_path / "set.json"
    assert main(["vision", "calibrate", str(start), str(turned), "-o", str(out_file), "--sente-side", "bottom"]) == 0
    assert out_file.exists()
    assert "check the set-up" not in capsys.readouterr().out
    assert main(["vision", "read", str(start), "--calibration", str(out_file), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["sfen"].split()[0] == START_BOARD


@pytest.mark.slow
def test_calibrate_names_a_square_set_up_wrong(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A start photo with sente's left silver and gold swapped: the calibration is written, and the two squares
    are named so that the user can put the set-up right and calibrate again."""
    swapped = START_BOARD.replace("LNSGKGSNL", "LNGSKGSNL")
    options = RenderOptions(style="kanji_light", seed=31, size=(960, 720), pose=CameraPose(tilt_deg=10, fill=0.8))
    start_frame = render_position(swapped + " b -", options)
    turned_frame = render_position(FLIPPED_BOARD + " b -", options)
    start, turned = tmp_path / "start.png", tmp_path / "flipped.png"
    cv2.imwrite(str(start), start_frame.image)
    cv2.imwrite(str(turned), turned_frame.image)
    out_file = tmp_path / "set.json"
    assert main(["vision", "calibrate", str(start), str(turned), "-o", str(out_file), "--sente-side", "bottom"]) == 0
    out = capsys.readouterr().out
    assert out_file.exists()
    assert "check the set-up: start photo, 7i: learnt as S, but it reads as G" in out
    assert "check the set-up: start photo, 6i: learnt as G, but it reads as S" in out
    assert "2 square(s) may not show what the calibration learnt there" in out


def test_read_text_names_each_unknown_stand() -> None:
    """The plain `vision read` output says which stand is unknown, and tells an empty stand from an unseen one."""
    from controller.cli.vision_read_cmd import _hands_text

    assert _hands_text(None) == "unknown (neither stand in view)"
    assert _hands_text({"b": {"P": 2, "S": 1}}) == "sente P2 S1; gote unknown (stand not in view)"
    assert _hands_text({"b": {}, "w": {"R": 1}}) == "sente empty; gote R1"


def test_read_json_fits_the_read_to_the_rules(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """`vision read --json` carries `setup_fit`: a read that breaks no rule of a set-up is left as it is."""
    frame = render_position(
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -", RenderOptions(style="kanji_light", seed=10)
    )
    cv2.imwrite(str(tmp_path / "frame.png"), frame.image)
    assert main(["vision", "read", str(tmp_path / "frame.png"), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["setup_fit"] == {"sfen": out["sfen"], "changed": [], "broken": []}


def test_read_says_how_the_read_was_fitted_to_the_rules(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A read with two of sente's pawns on file 7 (nifu) prints the read and the fitted position, the less sure
    pawn read as its next likeliest label."""
    import numpy as np

    from vision.board_read import BoardRead, SquareRead
    from vision.labels import SQUARE_LABELS
    from vision.reader import BoardReader

    probs = np.full((81, len(SQUARE_LABELS)), 1e-4)
    probs[:, SQUARE_LABELS.index(EMPTY)] = 1.0
    for square, p_pawn in ((56, 0.9), (38, 0.55)):  # 7g, 7e
        probs[square] = 1e-4
        probs[square, SQUARE_LABELS.index("P")], probs[square, SQUARE_LABELS.index("S")] = p_pawn, 1 - p_pawn
    probs[4], probs[76] = 1e-4, 1e-4
    probs[4, SQUARE_LABELS.index("k")] = probs[76, SQUARE_LABELS.index("K")] = 1.0
    labels = [SQUARE_LABELS[int(j)] for j in probs.argmax(axis=1)]
    squares = tuple(
        SquareRead(label, float(row.max()), ((label, float(row.max())),), True)
        for label, row in zip(labels, probs, strict=True)
    )
    read = BoardRead(True, "", squares, probs, {"b": {}, "w": {"P": 1}})
    monkeypatch.setattr(BoardReader, "read", lambda self, image: read)
    assert main(["vision", "read", str(PHOTO)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "4k4/9/9/9/2P6/9/2P6/9/4K4 b p"
    assert out[2] == "fitted to the rules: 4k4/9/9/9/2S6/9/2P6/9/4K4 b p  (nifu: sente's unpromoted pawns on 7e and 7g)"
    assert out[3] == "  changed: 7e P -> S"
