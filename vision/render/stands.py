"""Where captured pieces lie on the two piece stands: kinds in fixed slots (R B / G S / N L / P), several of a
kind side by side and overlapping when crowded, each a little off and turned. Gote's stand is laid out the same
way as seen from gote's seat (turned by 180 degrees)."""

from __future__ import annotations

import numpy as np

from vision.labels import HAND_KINDS
from vision.render.geometry import STAND_REGIONS_MM

_SLOTS = {  # kind -> (row centre v, slot u0, slot u1) as fractions of the stand, from the owner's seat
    "R": (0.16, 0.04, 0.5), "B": (0.16, 0.5, 0.96),
    "G": (0.39, 0.04, 0.5), "S": (0.39, 0.5, 0.96),
    "N": (0.62, 0.04, 0.5), "L": (0.62, 0.5, 0.96),
    "P": (0.85, 0.04, 0.96),
}  # fmt: skip


def stand_layout(
    hands: dict[str, int], heights_mm: dict[str, float], rng: np.random.Generator | None
) -> list[tuple[str, tuple[float, float], float]]:
    """(label, centre in board mm, turn in degrees) of every piece in hand; `heights_mm` by kind letter."""
    out: list[tuple[str, tuple[float, float], float]] = []
    for side in ("b", "w"):
        region = STAND_REGIONS_MM[side]
        origin, size = region[0], region[2] - region[0]
        for kind in HAND_KINDS:
            label = kind if side == "b" else kind.lower()
            count = hands.get(label, 0)
            if count == 0:
                continue
            v, u0, u1 = _SLOTS[kind]
            width = heights_mm[kind] * 0.86 / size[0]
            step = min(width * 1.08, (u1 - u0 - width) / max(count - 1, 1))
            start = (u0 + u1) / 2 - step * (count - 1) / 2
            for i in range(count):
                u = start + i * step
                jitter = rng.normal(0.0, 1.2, 2) if rng is not None else np.zeros(2)
                angle = float(rng.normal(0.0, 3.0)) if rng is not None else 0.0
                local = (u, v) if side == "b" else (1.0 - u, 1.0 - v)
                centre = origin + np.array(local) * size + jitter
                out.append((label, (float(centre[0]), float(centre[1])), angle))
    return out
