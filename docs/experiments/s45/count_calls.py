"""Clause D of RULE.txt: how often a search smooths a profile (artwork steep 4641, the candidate)."""

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
import patch  # noqa: F401

from vision import board, grid_fit
from vision.train import grid_eval

calls = [0]
searches = [0]
_spacing = grid_fit._equal_spacing
_find = board.find_board


def _counted_spacing(profile: Any, min_fill: float) -> Any:
    calls[0] += 1
    return _spacing(profile, min_fill)


def _counted_find(image: Any) -> Any:
    searches[0] += 1
    return _find(image)


grid_fit._equal_spacing = _counted_spacing
board.find_board = _counted_find
grid_eval.main(["--family", "artwork", "--kind", "steep", "--n", "200", "--seed", "4641"])
print("calls", calls[0], "searches", searches[0], "per search", calls[0] / searches[0])
