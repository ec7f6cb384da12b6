"""Two trained classifiers joined into one ONNX graph (training only): an ensemble that runs as one network.

Both networks read the same input crops. The joined graph has the outputs the reader expects (`logits`,
`features`), so `vision.classifier` runs it unchanged:
- `logits`: with `--mean arithmetic`, the log of the mean of the two softmaxes (the usual deep ensemble: a
  softmax of it gives the mean probabilities); with `--mean geometric`, the mean of the two logit vectors (a
  softmax of it is the normalised geometric mean of the two probabilities). Each mean gives the second model the
  share `--weight` (default 0.5) and the first the rest.
- `features`: the two feature vectors side by side (a calibration fits its set model on them).
Two networks of different widths disagree on different crops; where one is wrong and sure, the mean is less
sure, so the reader looks again or flags the square rather than vouching for it.

    .venv/bin/python -m vision.train.ensemble FIRST.onnx SECOND.onnx [--mean arithmetic|geometric] [--weight W] \
        -o OUT.onnx
    .venv/bin/python -m vision.train.ensemble JOINED.onnx --part first|second -o PART.onnx

The second form takes one network back out of a joined graph (`part_model`: the same weights, its own names), so a
shipped model's half can be trained on (`train_classifier --init PART.onnx`); its metadata is the joined model's,
with the second network's own figures for `--part second`.

The model's metadata (`OUT.json`) is the first model's, with `ensemble` saying what was joined (and the second
model's own figures and training command, without its style lists: both models must share those, and the tool
refuses two models whose metadata name different lists: the benchmark relies on `train_styles` and `held_out` to
score only styles that no part of the joined model saw).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import numpy as np

from vision.model_file import MEANS, PREFIX, network_graph


def join_models(first: Any, second: Any, mean: str = "arithmetic", weight: float = 0.5) -> Any:
    """One ONNX model that runs `first` and `second` on the same input `crops` and outputs their mean `logits`
    (`MEANS`; `second`'s share `weight`) and their concatenated `features`. ValueError when an input or output is
    missing, `mean` unknown or `weight` outside [0, 1]."""
    import onnx
    from onnx import helper

    if mean not in MEANS:
        raise ValueError(f"mean must be one of {MEANS}, not {mean!r}")
    if not 0.0 <= weight <= 1.0:
        raise ValueError(f"weight must lie in [0, 1], not {weight}")
    for model in (first, second):
        names = {o.name for o in model.graph.output}
        if [i.name for i in model.graph.input] != ["crops"] or not {"logits", "features"} <= names:
            raise ValueError("each model needs the input `crops` and the outputs `logits` and `features`")
    a, b = (_prefixed(m, p) for m, p in zip((first, second), PREFIX, strict=True))
    nodes = [*a.graph.node, *b.graph.node, *_mean_nodes(mean)]
    nodes.append(helper.make_node("Concat", [p + "features" for p in PREFIX], ["features"], axis=1))
    graph = helper.make_graph(
        nodes,
        "ensemble",
        [first.graph.input[0]],
        [
            helper.make_tensor_value_info("logits", onnx.TensorProto.FLOAT, ["n", None]),
            helper.make_tensor_value_info("features", onnx.TensorProto.FLOAT, ["n", None]),
        ],
        initializer=[*a.graph.initializer, *b.graph.initializer, *_shares(weight)],
    )
    joined = helper.make_model(graph, opset_imports=list(first.opset_import))
    joined.ir_version = first.ir_version
    onnx.checker.check_model(joined)
    return joined


PARTS = ("first", "second")


def part_model(joined: Any, part: str) -> Any:
    """The network `part` (`PARTS`) of a graph made by `join_models`, on its own: input `crops`, outputs `logits` and
    `features`, its names without the joining prefix. ValueError for an unknown part or a graph not joined so."""
    import onnx

    if part not in PARTS:
        raise ValueError(f"part must be one of {PARTS}, not {part!r}")
    prefix = PREFIX[PARTS.index(part)]
    names = {name for node in joined.graph.node for name in node.output}
    if not {prefix + "logits", prefix + "features"} <= names:
        raise ValueError(f"not a joined model: no {prefix}logits and {prefix}features")
    model = network_graph(joined, prefix)

    def own(name: str) -> str:
        return name.removeprefix(prefix)

    for tensor in (*model.graph.initializer, *model.graph.output, *model.graph.value_info):
        tensor.name = own(tensor.name)
    for node in model.graph.node:
        node.name = own(node.name)
        node.input[:] = [own(n) for n in node.input]
        node.output[:] = [own(n) for n in node.output]
    onnx.checker.check_model(model)
    return model


def _prefixed(model: Any, prefix: str) -> Any:
    """A copy of `model` whose names all start with `prefix`, except its input `crops`, which both networks share."""
    from onnx import compose

    copy = compose.add_prefix(model, prefix=prefix)
    for node in copy.graph.node:
        for k, name in enumerate(node.input):
            if name == prefix + "crops":
                node.input[k] = "crops"
    return copy


def _shares(weight: float) -> list[Any]:
    """The two models' shares as initializers `a_share` (1 - weight) and `b_share` (weight)."""
    from onnx import numpy_helper

    return [
        numpy_helper.from_array(np.full(1, share, np.float32), name)
        for share, name in zip((1.0 - weight, weight), (p + "share" for p in PREFIX), strict=True)
    ]


def _mean_nodes(mean: str) -> list[Any]:
    """The nodes that turn `a_logits` and `b_logits` into `logits` (`join_models`)."""
    from onnx import helper

    each = "logits" if mean == "geometric" else "probs"
    nodes = [helper.make_node("Mul", [f"{p}{each}", f"{p}share"], [f"{p}part"]) for p in PREFIX]
    if mean == "geometric":
        return [*nodes, helper.make_node("Add", [p + "part" for p in PREFIX], ["logits"])]
    softmaxes = [helper.make_node("Softmax", [f"{p}logits"], [f"{p}probs"], axis=1) for p in PREFIX]
    return [
        *softmaxes,
        *nodes,
        helper.make_node("Add", [p + "part" for p in PREFIX], ["mean_probs"]),
        helper.make_node("Log", ["mean_probs"], ["logits"]),
    ]


def _metadata(model: Path) -> dict[str, Any]:
    """A model's metadata file (`MODEL.json`), empty when it has none."""
    path = model.with_suffix(".json")
    return dict(json.loads(path.read_text(encoding="utf-8"))) if path.exists() else {}


def differing_lists(first: dict[str, Any], second: dict[str, Any]) -> list[str]:
    """The list-valued metadata keys (style lists) on which two models' metadata differ (a key one lacks counts)."""
    keys = {k for meta in (first, second) for k, v in meta.items() if isinstance(v, list)}
    return sorted(k for k in keys if first.get(k) != second.get(k))


def main(argv: list[str] | None = None) -> int:
    """Command line entry point."""
    import onnx

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("first", type=Path)
    parser.add_argument("second", type=Path, nargs="?")
    parser.add_argument("--mean", choices=MEANS, default="arithmetic")
    parser.add_argument("--weight", type=float, default=0.5, help="the second model's share (default 0.5)")
    parser.add_argument("--part", choices=PARTS, help="take this network out of the joined model FIRST instead")
    parser.add_argument("-o", "--out", type=Path, required=True)
    args = parser.parse_args(argv)
    if (args.part is None) == (args.second is None):
        parser.error("give two models to join, or one joined model and --part")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    if args.part is not None:
        return _write_part(args.first, args.part, args.out)
    meta, second_meta = _metadata(args.first), _metadata(args.second)
    if differing := differing_lists(meta, second_meta):
        parser.error(
            f"the two models' metadata differ in {', '.join(differing)}: join models trained on the same styles"
        )
    joined = join_models(onnx.load(str(args.first)), onnx.load(str(args.second)), args.mean, args.weight)
    onnx.save(joined, str(args.out))
    second = {k: v for k, v in second_meta.items() if not isinstance(v, list)}
    meta["ensemble"] = {
        "first": str(args.first),
        "second": str(args.second),
        "mean": args.mean,
        "weight": args.weight,
        "second_model": second,
    }
    args.out.with_suffix(".json").write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
    print(f"{args.out}: {args.mean} mean of {args.first} and {args.second} (its share {args.weight:g})")
    return 0


def _write_part(joined: Path, part: str, out: Path) -> int:
    """Write the network `part` of the joined model (and its metadata: `part_model`)."""
    import onnx

    onnx.save(part_model(onnx.load(str(joined)), part), str(out))
    meta = _metadata(joined)
    ensemble = meta.pop("ensemble", {})
    if part == "second":
        meta |= ensemble.get("second_model", {})
    meta["part_of"] = {"model": str(joined), "part": part, "was": ensemble.get(part, "")}
    out.with_suffix(".json").write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
    print(f"{out}: the {part} network of {joined}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
