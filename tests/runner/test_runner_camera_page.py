"""The camera on the web page: the grid outline and the doubtful squares of a read, in frame pixels, and the hub
showing them with whatever view the game publishes next."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from controller.runner.camera_page import camera_view
from controller.web.hub import ViewHub
from controller.web.view import GameView
from vision.board import BoardGeometry


@dataclass
class FakeRead:
    board_found: bool
    geometry: BoardGeometry | None
    unreliable: list[str]


SQUARE_GRID = BoardGeometry(np.array([[0.0, 0.0], [900.0, 0.0], [900.0, 900.0], [0.0, 900.0]]), 1.0)


def test_the_grid_and_each_doubtful_square_are_outlined_in_pixels() -> None:
    """A grid 900 px square: 9a is the top-left 100 px cell, 1i the bottom-right one."""
    view, doubtful = camera_view(FakeRead(True, SQUARE_GRID, ["9a", "1i"]), 3, 1280, 960)
    assert view.grid == ((0.0, 0.0), (900.0, 0.0), (900.0, 900.0), (0.0, 900.0))
    assert view.doubtful[0] == ((0.0, 0.0), (100.0, 0.0), (100.0, 100.0), (0.0, 100.0))
    assert view.doubtful[1] == ((800.0, 800.0), (900.0, 800.0), (900.0, 900.0), (800.0, 900.0))
    assert doubtful == frozenset({"9a", "1i"}) and (view.width, view.height, view.frame_version) == (1280, 960, 3)


def test_no_board_no_overlay() -> None:
    """When no board was found there is no grid to draw and nothing to outline."""
    view, doubtful = camera_view(FakeRead(False, None, ["9a"]), 1, 640, 480)
    assert view.grid == () and view.doubtful == () and doubtful == frozenset()


def test_the_page_keeps_the_camera_when_the_game_publishes() -> None:
    """A camera update shows at once; the game's next view keeps the camera and the doubtful squares."""
    hub = ViewHub()
    view, doubtful = camera_view(FakeRead(True, SQUARE_GRID, ["5e"]), 1, 1000, 1000)
    hub.set_camera(b"jpeg", view, doubtful)
    assert hub.snapshot()["camera"]["doubtful"] and hub.frame() == b"jpeg"
    hub.publish(GameView(status="sente to move"))
    snapshot = hub.snapshot()
    assert snapshot["status"] == "sente to move" and snapshot["camera"]["grid"][1] == [900.0, 0.0]
    assert 'data-square="5e"' in snapshot["svg"]
