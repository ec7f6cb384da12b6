"""`shogi-robot remote`: bad input gets a clear error and exit code 1, and the token never appears."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from controller.cli.main import main


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_an_unreachable_csa_server_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Nobody listens on the port: exit 1 naming the server, no traceback."""
    port = _free_port()
    argv = ["remote", "csa", "--host", "127.0.0.1", "--port", str(port), "--user", "u", "--password", "p"]
    code = main([*argv, "--sim", "--out", str(tmp_path)])
    err = capsys.readouterr().err
    assert code == 1 and f"cannot connect to CSA server 127.0.0.1:{port}" in err and "Traceback" not in err


def test_a_token_file_readable_by_others_is_refused_without_showing_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A 0644 token file: exit 1 asking for chmod 600; the token's text is printed nowhere."""
    token = tmp_path / "token"
    token.write_text("lip_secret_value\n", encoding="utf-8")
    token.chmod(0o644)
    code = main(["remote", "lishogi", "--token-file", str(token), "--seek", "10+0", "--sim"])
    out = capsys.readouterr()
    assert code == 1 and "chmod 600" in out.err
    assert "lip_secret_value" not in out.err + out.out


def test_a_csa_password_file_must_be_private(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`--password-file` follows the token rules: a file readable by others is refused."""
    secret = tmp_path / "pw"
    secret.write_text("hunter2\n", encoding="utf-8")
    secret.chmod(0o640)
    argv = ["remote", "csa", "--host", "127.0.0.1", "--user", "u", "--password-file", str(secret), "--sim"]
    assert main(argv) == 1
    assert "chmod 600" in capsys.readouterr().err
