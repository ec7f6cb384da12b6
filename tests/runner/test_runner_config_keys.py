"""The runner takes the gantry's port and the camera's sente side from the config, the command's flags first."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from controller.config import config_from_text
from controller.game.settings import Mode
from controller.runner.options import SessionError, SessionOptions, sente_side
from controller.runner.session import run_session
from firmware_bridge.errors import FirmwareBridgeError

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = (REPO / "docs" / "config.example.toml").read_text(encoding="utf-8")
NO_TTY = "/dev/shogi-robot-test-no-such-tty"


def _real_config(tmp_path: Path, port: str | None, side: str | None) -> Path:
    """The example config on a file camera (one black picture), with the given port and sente side."""
    cv2.imwrite(str(tmp_path / "frame.png"), np.zeros((60, 80, 3), np.uint8))
    text = EXAMPLE.replace('kind = "virtual"', 'kind = "file"\npath = "frame.png"', 1)
    if port is not None:
        text = text.replace('# port = "/dev/ttyACM0"', f'port = "{port}"', 1)
    if side is not None:
        text = text.replace('# sente_side = "bottom"', f'sente_side = "{side}"', 1)
    path = tmp_path / "robot.toml"
    path.write_text(text, encoding="utf-8")
    return path


class _Eyes:
    """Stand-in eyes: the session fails at the gantry before it ever looks."""


def _start(config: Path, tmp_path: Path, **flags: Any) -> list[tuple[Any, ...]]:
    """Start a play session on `config`; returns what the eyes factory was given. The gantry cannot open."""
    given: list[tuple[Any, ...]] = []

    def eyes(*args: Any) -> _Eyes:
        given.append(args)
        return _Eyes()

    options = SessionOptions(Mode.PLAY, config=config, out=tmp_path / "out", **flags)
    with pytest.raises((FirmwareBridgeError, SessionError)) as info:
        run_session(options, say=lambda _text: None, eyes=eyes)
    given.append((str(info.value),))
    return given


def test_config_port_and_sente_side_are_used(tmp_path: Path) -> None:
    """The gantry is opened on [gantry] port, and the reader is told [camera] sente_side."""
    given = _start(_real_config(tmp_path, NO_TTY, "left"), tmp_path)
    assert given[0][1] == "left"
    assert NO_TTY in given[-1][0]


def test_port_flag_overrides_the_config(tmp_path: Path) -> None:
    """--port replaces [gantry] port."""
    other = NO_TTY + "-flag"
    given = _start(_real_config(tmp_path, NO_TTY, None), tmp_path, port=other)
    assert other in given[-1][0] and given[0][1] is None


def test_no_port_anywhere_says_where_to_give_it(tmp_path: Path) -> None:
    """Neither the config nor the flag names a port: the error says both ways."""
    given = _start(_real_config(tmp_path, None, None), tmp_path)
    assert "[gantry] port" in given[-1][0] and "--port" in given[-1][0]


def test_sente_side_flag_overrides_the_config(tmp_path: Path) -> None:
    """The command's sente side (a number of degrees here) replaces the config's."""
    config = config_from_text('[game]\ngantry = false\n[camera]\nkind = "virtual"\nsente_side = "top"\n', tmp_path)
    assert sente_side(config, SessionOptions(Mode.RECORD)) == "top"
    assert sente_side(config, SessionOptions(Mode.RECORD, sente_side=180.0)) == 180.0
    bare = config_from_text("[game]\ngantry = false\n", tmp_path)
    assert sente_side(bare, SessionOptions(Mode.RECORD)) is None
