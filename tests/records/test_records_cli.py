"""`shogi-robot convert IN OUT [--encoding ENC]`: exit codes, files written, errors naming the line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from controller.cli.main import main
from controller.records import read_record

DATA = Path(__file__).parent / "data"


def test_convert_kif_to_csa_writes_v3_and_reports(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """It should convert a Shift_JIS KIF into a UTF-8 CSA V3.0 file, print a summary and exit 0."""
    out = tmp_path / "game.csa"
    assert main(["convert", str(DATA / "kifu-for-windows-variations.kif"), str(out)]) == 0
    assert out.read_bytes().startswith(b"'CSA encoding=UTF-8\nV3.0\n")
    assert "9 moves, resign" in capsys.readouterr().out
    assert read_record(out).usi_moves == read_record(DATA / "kifu-for-windows-variations.kif").usi_moves


def test_convert_to_kif_writes_shift_jis_with_crlf(tmp_path: Path) -> None:
    """It should write `.kif` in Shift_JIS with CRLF and `.kifu` in UTF-8."""
    assert main(["convert", str(DATA / "shogihome-handicap.kifu"), str(tmp_path / "a.kif")]) == 0
    data = (tmp_path / "a.kif").read_bytes()
    assert "手合割：角落ち\r\n".encode("cp932") in data
    assert main(["convert", str(tmp_path / "a.kif"), str(tmp_path / "b.kifu")]) == 0
    assert "手合割：角落ち\n" in (tmp_path / "b.kifu").read_text(encoding="utf-8")


def test_convert_malformed_input_exits_1_naming_the_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """It should exit 1 with the file and line on stderr, and write nothing."""
    bad = tmp_path / "bad.kifu"
    bad.write_text("手合割：平手\n   1 ７六歩(77)\n   2 ３四猫(33)\n", encoding="utf-8")
    assert main(["convert", str(bad), str(tmp_path / "out.csa")]) == 1
    err = capsys.readouterr().err
    assert "bad.kifu" in err and "line 3" in err and "猫" in err
    assert not (tmp_path / "out.csa").exists()


def test_convert_encoding_override(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """It should refuse UTF-8 bytes in a `.kif` by default and read them with `--encoding utf-8`."""
    kif = tmp_path / "utf8.kif"
    kif.write_text("先手：太郎\n   1 ７六歩(77)\n", encoding="utf-8")
    assert main(["convert", str(kif), str(tmp_path / "out.usi")]) == 1
    assert "--encoding utf-8" in capsys.readouterr().err
    assert main(["convert", "--encoding", "utf-8", str(kif), str(tmp_path / "out.usi")]) == 0
    assert (tmp_path / "out.usi").read_text() == "startpos moves 7g7f\n"


def test_convert_unknown_extension_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """It should exit 1 for an output extension that is not a record format."""
    assert main(["convert", str(DATA / "81dojo.kif"), str(tmp_path / "game.pgn")]) == 1
    assert "unknown record extension" in capsys.readouterr().err


def test_convert_bad_usage_exits_2() -> None:
    """It should exit 2 (argparse) when OUT is missing."""
    with pytest.raises(SystemExit) as info:
        main(["convert", "only-one.kif"])
    assert info.value.code == 2


def test_convert_runs_as_a_process(tmp_path: Path) -> None:
    """It should work as a real command line, USI in, JKF out."""
    usi = tmp_path / "game.usi"
    usi.write_text("startpos moves 7g7f 3c3d 8h2b+ 3a2b\n")
    done = subprocess.run(
        [sys.executable, "-m", "controller.cli.main", "convert", str(usi), str(tmp_path / "game.jkf")],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert read_record(tmp_path / "game.jkf").usi_moves == ["7g7f", "3c3d", "8h2b+", "3a2b"]
