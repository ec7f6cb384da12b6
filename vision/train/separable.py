"""A deeper piece network for the same run-time cost: two plain stride-2 convolutions, then depthwise-separable
blocks (a 3×3 convolution per channel, then a 1×1 convolution across channels: MobileNet's block), each with
batch norm and ReLU, on 48×48 crops (48 -> 24 -> 12 -> 6 -> 3 pixels), the same 128-wide feature layer and 31 logits
as `train_classifier.build_model`'s four-block network.

Why: the shipped networks see a crop through four convolutions in all; every single network of that shape tried
so far (widened, fine-tuned, taught by the shipped pair) read unseen faces worse than the pair does. This one has
seven convolutions (receptive field 63 pixels against 31) and runs in OpenCV at about the narrow network's cost
(0.123 against 0.118 ms a crop, batches of 16, one thread, 2026-12-02), so one of it costs half what the pair does.

Owns: `SEPARABLE_BLOCKS`, `build_separable`.
"""

from __future__ import annotations

from typing import Any

from vision.squares import CROP
from vision.train.synth import N_CLASSES

SEPARABLE_BLOCKS: tuple[tuple[str, int, int], ...] = (
    ("conv", 16, 2),
    ("conv", 48, 2),
    ("sep", 64, 1),
    ("sep", 96, 2),
    ("sep", 96, 1),
    ("sep", 128, 2),
)
"""(kind, output channels, stride) of each block: "conv" a plain 3×3 convolution, "sep" a separable block."""


def build_separable(blocks: tuple[tuple[str, int, int], ...] = SEPARABLE_BLOCKS) -> Any:
    """The network of `blocks` on `CROP`×`CROP` BGR crops: forward gives (logits, 128 features), as `build_model`'s."""
    from torch import nn

    def block(kind: str, c_in: int, c_out: int, stride: int) -> list[nn.Module]:
        if kind == "conv":
            return [nn.Conv2d(c_in, c_out, 3, stride=stride, padding=1), nn.BatchNorm2d(c_out), nn.ReLU()]
        if kind != "sep":
            raise ValueError(f"unknown block kind {kind!r} (conv or sep)")
        return [
            nn.Conv2d(c_in, c_in, 3, stride=stride, padding=1, groups=c_in),
            nn.BatchNorm2d(c_in),
            nn.ReLU(),
            nn.Conv2d(c_in, c_out, 1),
            nn.BatchNorm2d(c_out),
            nn.ReLU(),
        ]

    class SeparableNet(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            layers: list[nn.Module] = []
            c_in, side = 3, CROP
            for kind, c_out, stride in blocks:
                layers += block(kind, c_in, c_out, stride)
                c_in, side = c_out, side // stride
            self.body = nn.Sequential(*layers, nn.Flatten())
            self.feature = nn.Sequential(nn.Linear(c_in * side * side, 128), nn.ReLU())
            self.head = nn.Sequential(nn.Dropout(0.2), nn.Linear(128, N_CLASSES))

        def forward(self, x: Any) -> Any:
            f = self.feature(self.body(x))
            return self.head(f), f

    return SeparableNet()
