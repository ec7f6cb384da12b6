"""A stand's unsure windows are read again a few pixels off their place (`vision.hands.shifted_windows`)."""

from __future__ import annotations

import numpy as np

from vision.hands import shifted_windows, stand_windows
from vision.labels import SQUARE_LABELS
from vision.shifted_looks import SHIFT_BELOW, SHIFTS

N_LABELS = len(SQUARE_LABELS)


def _stand(seed: int = 0) -> np.ndarray:
    """A rectified stand of noise: every window and every shifted window differs."""
    return np.random.default_rng(seed).integers(0, 256, (180, 200, 3), dtype=np.uint8)


def test_sure_windows_cost_nothing() -> None:
    """Windows read at or above SHIFT_BELOW keep their reading and no window is cut again."""
    calls: list[int] = []

    def classify(windows: np.ndarray) -> np.ndarray:
        calls.append(len(windows))
        return np.full((len(windows), N_LABELS), 1.0 / N_LABELS)

    probs = np.full((2, N_LABELS), (1 - SHIFT_BELOW) / (N_LABELS - 1))
    probs[:, 3] = SHIFT_BELOW
    out = shifted_windows(_stand(), [(40, 50), (150, 120)], "b", probs, classify)
    assert calls == [] and np.array_equal(out, probs)


def test_an_unsure_window_gets_the_geometric_mean_of_its_shifted_windows() -> None:
    """An unsure window is cut again at every shift from its own place (gote's turned, as its first window was)
    and gets the normalised geometric mean of the five readings; a sure one beside it is untouched; a shift that
    would leave the stand stops at its edge."""
    stand = _stand(1)
    rng = np.random.default_rng(2)
    again = rng.dirichlet(np.ones(N_LABELS), size=len(SHIFTS))
    seen: list[np.ndarray] = []

    def classify(windows: np.ndarray) -> np.ndarray:
        seen.append(windows)
        return np.asarray(again[len(seen) - 1][None], dtype=np.float64)

    sure = np.full(N_LABELS, 0.01 / (N_LABELS - 1))
    sure[0] = 0.99
    probs = np.vstack([sure, rng.dirichlet(np.ones(N_LABELS))])
    centres = [(30, 30), (1, 100)]
    out = shifted_windows(stand, centres, "w", probs, classify)
    for windows, (dx, dy) in zip(seen, SHIFTS, strict=True):
        assert np.array_equal(windows, stand_windows(stand, [(max(1 + dx, 0), 100 + dy)], "w"))
    expected = np.exp(np.log(np.vstack([probs[1:], again])).mean(axis=0))
    assert np.allclose(out[1], expected / expected.sum())
    assert np.array_equal(out[0], probs[0])
