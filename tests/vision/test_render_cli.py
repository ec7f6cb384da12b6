"""`shogi-robot vision render` and `vision styles` from the command line."""

from __future__ import annotations

from pathlib import Path

import cv2
import pytest

from controller.cli.main import main


def test_render_writes_a_png(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The command writes a PNG of the asked size and prints the board corners."""
    out = tmp_path / "frame.png"
    code = main(
        ["vision", "render", "--sfen", "startpos", "--seed", "4", "--size", "640x480", "--hand", "-o", str(out)]
    )
    assert code == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    image = cv2.imread(str(out))
    assert image is not None and image.shape == (480, 640, 3)
    assert "board corners" in capsys.readouterr().out


def test_render_handicap_name_and_overhead(tmp_path: Path) -> None:
    """A handicap name is accepted as the position; --overhead and --clean work."""
    out = tmp_path / "h.png"
    assert (
        main(["vision", "render", "--sfen", "bishop", "--overhead", "--clean", "--size", "320x240", "-o", str(out)])
        == 0
    )
    assert cv2.imread(str(out)).shape == (240, 320, 3)


def test_render_bad_sfen_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A malformed SFEN is reported (exit 1) and no file is written."""
    out = tmp_path / "bad.png"
    assert main(["vision", "render", "--sfen", "nonsense", "-o", str(out)]) == 1
    assert "malformed" in capsys.readouterr().err
    assert not out.exists()


def test_styles_lists_the_shipped_styles(capsys: pytest.CaptureFixture[str]) -> None:
    """`vision styles` prints one style per line, the default among them."""
    assert main(["vision", "styles"]) == 0
    names = capsys.readouterr().out.split()
    assert "kanji_light" in names and len(names) >= 14
