"""What a classifier model file holds: one network, or two joined in one graph by `vision.train.ensemble`.

This module reads the file; it runs nothing (`vision.classifier` runs the networks in OpenCV). OpenCV's DNN
module computes every layer of a graph up to the output asked for, in the graph's order. So a joined graph always
costs both networks, even where the first one's reading would do. To run them apart, `read_model` takes a joined
graph to pieces: each network as an ONNX graph of its own (serialised, for `cv2.dnn.readNetFromONNX`), and the
join (`Join`: how the two networks' logits make the model's). A single network is passed on as it is.
The onnx package only parses and rebuilds the graph here (no PyTorch, no ONNX runtime).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from vision.errors import ModelError

PREFIX = ("a_", "b_")
"""The prefixes of the first and the second network's names in a joined graph (its input `crops` is shared)."""
MEANS = ("arithmetic", "geometric")
"""How a joined graph means its two networks' logits (`Join.logits`)."""
OUTPUTS = ("logits", "features")
"""A network's outputs, by name (a joined graph's networks: with their prefix)."""


@dataclass(frozen=True)
class Join:
    """How a joined graph makes its outputs from its two networks'."""

    mean: str
    """One of `MEANS`: `arithmetic`, the log of the mean of the two softmaxes; `geometric`, the mean of the two
    logit vectors (a softmax of it is the normalised geometric mean of the two probabilities)."""
    weight: float
    """The second network's share in the mean (the first's is 1 - weight)."""

    def logits(self, first: NDArray[np.float32], second: NDArray[np.float32]) -> NDArray[np.float32]:
        """The joined graph's `logits` from its networks' (rows: crops). Its `features` are the two networks'
        side by side."""
        w = np.float32(self.weight)
        if self.mean == "geometric":
            return np.asarray((1 - w) * first + w * second, dtype=np.float32)
        mixed = (1 - w) * _softmax32(first) + w * _softmax32(second)
        return np.asarray(np.log(mixed), dtype=np.float32)


@dataclass(frozen=True)
class ModelNetworks:
    """A model file's networks, each a serialised ONNX graph with the input `crops` and the outputs named in
    `outputs`; two with a `join`, one without."""

    networks: tuple[bytes, ...]
    outputs: tuple[tuple[str, str], ...]
    """Each network's (logits, features) output names."""
    join: Join | None


def read_model(path: Path) -> ModelNetworks:
    """The networks of the classifier model at `path` (`ModelNetworks`). ModelError when the file is missing or is
    not an ONNX graph with the outputs `logits` and `features`."""
    import onnx
    from google.protobuf.message import DecodeError

    if not path.exists():
        raise ModelError(f"classifier model not found: {path}")
    try:
        model = onnx.load(str(path))
    except (DecodeError, OSError) as exc:  # a file that is not a protobuf, or one that cannot be read
        raise ModelError(f"cannot load classifier model {path}: {exc}") from exc
    made = {name for node in model.graph.node for name in node.output}
    if not set(OUTPUTS) <= made:
        raise ModelError(f"classifier model {path} has no `logits` and `features` outputs")
    if not all(p + o in made for p in PREFIX for o in OUTPUTS):
        return ModelNetworks((model.SerializeToString(),), (OUTPUTS,), None)
    networks = tuple(network_graph(model, prefix).SerializeToString() for prefix in PREFIX)
    outputs = tuple((prefix + OUTPUTS[0], prefix + OUTPUTS[1]) for prefix in PREFIX)
    return ModelNetworks(networks, outputs, _join(model, path))


def network_graph(joined: Any, prefix: str) -> Any:
    """The graph of the joined model's network `prefix` (one of `PREFIX`): the nodes its outputs need, their
    initializers, the input `crops`; names as in the joined graph."""
    import onnx
    from onnx import helper

    wanted = [prefix + name for name in OUTPUTS]
    nodes = _needed(joined.graph.node, wanted)
    inputs = {name for node in nodes for name in node.input}
    graph = helper.make_graph(
        nodes,
        prefix + "network",
        list(joined.graph.input),
        [helper.make_tensor_value_info(name, onnx.TensorProto.FLOAT, ["n", None]) for name in wanted],
        initializer=[t for t in joined.graph.initializer if t.name in inputs],
    )
    model = helper.make_model(graph, opset_imports=list(joined.opset_import))
    model.ir_version = joined.ir_version
    return model


def _needed(nodes: Iterable[Any], outputs: list[str]) -> list[Any]:
    """The nodes (in graph order) that the `outputs` depend on."""
    ordered = list(nodes)
    maker = {name: k for k, node in enumerate(ordered) for name in node.output}
    keep: set[int] = set()
    todo = [maker[name] for name in outputs]
    while todo:
        k = todo.pop()
        if k not in keep:
            keep.add(k)
            todo.extend(maker[name] for name in ordered[k].input if name in maker)
    return [node for k, node in enumerate(ordered) if k in keep]


def _join(joined: Any, path: Path) -> Join:
    """How the joined graph means its networks' logits: `vision.train.ensemble` ends the arithmetic mean with a
    `Log` node and the geometric one with an `Add`, and keeps the second network's share in `b_share`."""
    from onnx import numpy_helper

    last = next(node for node in joined.graph.node if OUTPUTS[0] in node.output)
    share = [t for t in joined.graph.initializer if t.name == PREFIX[1] + "share"]
    mean = {"Log": "arithmetic", "Add": "geometric"}.get(last.op_type)
    if mean is None or len(share) != 1:
        raise ModelError(f"classifier model {path}: a joined graph whose mean is not known ({last.op_type})")
    return Join(mean, float(numpy_helper.to_array(share[0]).ravel()[0]))


def _softmax32(logits: NDArray[np.float32]) -> NDArray[np.float32]:
    """Row-wise softmax in float32 (as the joined graph's `Softmax` nodes compute it)."""
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    return np.asarray(e / e.sum(axis=1, keepdims=True), dtype=np.float32)
