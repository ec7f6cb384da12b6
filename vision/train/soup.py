"""Weight averaging of two trained classifiers (training only): a "model soup" of one network and its fine-tune.

Two ONNX exports of the same graph (a fine-tune started from the other, `train_classifier --init`) are averaged
initializer by initializer, `(1 - a) * first + a * second`; the result has the same size and speed as either.
Averaging a model with its own fine-tune often keeps what each read well (Wortsman et al., "Robust fine-tuning
of zero-shot models", 2022: WiSE-FT). The batch norms are folded into the exported convolutions, so this averages
the folded weights; that is close to averaging the trained ones when the fine-tune moved them little.

Tried on 2026-11-28 (shipped model and session 21's B2, which added brush-written faces; `dev_eval`, then `bench
vision` once for the one chosen on development): development two-character faces, one-character faces, artwork,
artwork under the sheen, % of squares: shipped 92.099 / 96.111 / 99.877 / 98.519; a = 0.3: 92.438 / 96.091 /
99.877 / 98.580; a = 0.5: 92.531 / 96.070 / 99.877 / 98.642; a = 0.7: 92.500 / 96.152 / 99.846 / 98.642; B2 alone
93.086 / 96.214 / 99.846 / 98.488. The soup at 0.5 read the real photo right (as B2 does; shipped: two squares
wrong) and passed every vision test, but read fewer held-out squares than shipped (98.556 against 98.661 %; on the
same frames, right only by the soup 5 squares, only by shipped 10, exact McNemar p = 0.30), so it was not shipped.

    .venv/bin/python -m vision.train.soup FIRST.onnx SECOND.onnx --weight 0.5 -o OUT.onnx
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import numpy as np


def average_models(first: Any, second: Any, weight: float) -> Any:
    """A copy of ONNX model `first` whose float initializers are `(1 - weight) * first + weight * second`.
    ValueError when the two are not the same graph (node count, initializer names and shapes) or an integer
    initializer differs (those are shapes and indices, not weights)."""
    from onnx import numpy_helper

    if not 0.0 <= weight <= 1.0:
        raise ValueError(f"weight must lie in [0, 1], not {weight}")
    if len(first.graph.node) != len(second.graph.node):
        raise ValueError("the two models are not the same graph: different node counts")
    theirs = {init.name: numpy_helper.to_array(init) for init in second.graph.initializer}
    out = type(first)()
    out.CopyFrom(first)
    for k, init in enumerate(first.graph.initializer):
        mine = numpy_helper.to_array(init)
        other = theirs.get(init.name)
        if other is None or other.shape != mine.shape:
            raise ValueError(f"the two models are not the same graph: initializer {init.name} differs")
        if mine.dtype.kind != "f":
            if not np.array_equal(mine, other):
                raise ValueError(f"integer initializer {init.name} differs between the models")
            continue
        mixed = ((1.0 - weight) * mine + weight * other).astype(mine.dtype)
        out.graph.initializer[k].CopyFrom(numpy_helper.from_array(mixed, init.name))
    return out


def main(argv: list[str] | None = None) -> int:
    """Command line entry point."""
    import onnx

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("first", type=Path)
    parser.add_argument("second", type=Path)
    parser.add_argument("--weight", type=float, default=0.5, help="share of the second model (default 0.5)")
    parser.add_argument("-o", "--out", type=Path, required=True)
    args = parser.parse_args(argv)
    soup = average_models(onnx.load(str(args.first)), onnx.load(str(args.second)), args.weight)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    onnx.save(soup, str(args.out))
    print(f"{args.out}: {1 - args.weight:g} x {args.first} + {args.weight:g} x {args.second}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
