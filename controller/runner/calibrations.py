"""The calibrations a running session can do when the web page asks: the reader learns the user's piece set, and
the board-to-gantry map is fitted from jogged reference squares.

Owns: `SetLearner` (two frames → `vision.calibration.calibrate` → the reader uses it at once, saved as JSON for
`vision read --calibration` and later sessions) and `GantrySurveyor` (measured square centres →
`hardware.calibration.fit` → the session's geometry replaced, and the `[board] transform` line saved as TOML).
The guided steps are `controller.runner.page_controls`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from hardware.geometry import BoardGeometry


def _own_classifier() -> Any:
    from vision.classifier import PieceClassifier

    return PieceClassifier()


class SetLearner:
    """Teaches a `vision.reader.BoardReader` the user's piece set."""

    def __init__(self, reader: Any, path: Path, new_classifier: Callable[[], Any] = _own_classifier) -> None:
        """`new_classifier`: makes the classifier the learning runs on. Not the reader's own: the page calls
        `learn` from its thread while the game loop reads, and OpenCV's network must not run from two threads
        at once."""
        self.reader, self.path, self.new_classifier = reader, path, new_classifier

    def learn(self, start: Any, flipped: Any) -> str:
        """Learn from the start frame and the every-piece-turned-over frame; use and save the calibration."""
        from vision.calibration import calibrate, photo_grids, setup_doubts

        classifier = self.new_classifier()
        grids = photo_grids(start, flipped, classifier, self.reader.settings.sente_side)
        calibration = calibrate(start, flipped, classifier, grids=grids)
        self.reader.use_calibration(calibration)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        calibration.save(self.path)
        examples = sum(calibration.examples.values())
        learnt = (
            f"Piece set learnt from {examples} examples ({len(calibration.examples)} faces) and used from now on; "
            f"saved to {self.path}."
        )
        doubts = setup_doubts(start, flipped, classifier, grids=grids)
        if not doubts:
            return learnt
        listed = "; ".join(doubt.sentence() for doubt in doubts[:6]) + ("; ..." if len(doubts) > 6 else "")
        return f"{learnt} Check the set-up ({listed}): if it was wrong, put it right and learn the set again."

    def find_board_again(self) -> None:
        """Forget the grid; the next read searches for the board."""
        self.reader.reset()


class GantrySurveyor:
    """Fits the board-to-gantry map from jogged square centres and hands the new geometry to the session."""

    def __init__(
        self, geometry: Callable[[], BoardGeometry], apply: Callable[[BoardGeometry], None], path: Path
    ) -> None:
        self.geometry, self.apply, self.path = geometry, apply, path

    def fit(self, measured: dict[str, tuple[float, float]]) -> str:
        """Fit (affine from four or more squares), use the result for the next moves, save it; the report."""
        from hardware.calibration import ReferencePoint, fit, reference_uv

        geometry = self.geometry()
        points = [ReferencePoint(name, reference_uv(geometry, name), xy) for name, xy in measured.items()]
        result = fit(points)
        self.apply(geometry.with_transform(result.transform))
        values = ", ".join(f"{v:.4f}" for v in result.transform.as_list())
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.path.write_text(
            f"# the board-to-gantry map fitted from {', '.join(measured)}; copy into [board] of the config\n"
            f"transform = [{values}]\n",
            encoding="utf-8",
        )
        summary = result.report().splitlines()[0]
        return f"Gantry calibrated: {summary}. Used from the next move; saved to {self.path}."
