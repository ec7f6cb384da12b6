"""Toy classifier graphs for the model-file tests: logits = crops @ W + b (3 classes), features = crops @ V, on
crops of 4 numbers, the outputs a classifier export has."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cv2
import numpy as np
from onnx import TensorProto, helper, numpy_helper

from vision.classifier import read_network

CROPS = np.array([[1.0, -2.0, 0.5, 3.0], [0.0, 1.0, -1.0, 2.0]], dtype=np.float32)


def toy_model(seed: int, n_features: int = 2) -> tuple[Any, np.ndarray, np.ndarray]:
    """A toy network and its logits and features on `CROPS` (computed in numpy)."""
    rng = np.random.default_rng(seed)
    w, b, v = (rng.normal(size=s).astype(np.float32) for s in ((4, 3), (3,), (4, n_features)))
    graph = helper.make_graph(
        [
            helper.make_node("MatMul", ["crops", "W"], ["xw"]),
            helper.make_node("Add", ["xw", "b"], ["logits"]),
            helper.make_node("MatMul", ["crops", "V"], ["features"]),
        ],
        "g",
        [helper.make_tensor_value_info("crops", TensorProto.FLOAT, ["n", 4])],
        [
            helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["n", 3]),
            helper.make_tensor_value_info("features", TensorProto.FLOAT, ["n", n_features]),
        ],
        initializer=[numpy_helper.from_array(a, name) for a, name in ((w, "W"), (b, "b"), (v, "V"))],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    return model, CROPS @ w + b, CROPS @ v


def run_graph(graph: Path | bytes, outputs: tuple[str, str] = ("logits", "features")) -> tuple[np.ndarray, ...]:
    """A graph's outputs on `CROPS`, run by OpenCV (from a file, loaded as the classifier loads its networks, or
    serialised bytes)."""
    net = cv2.dnn.readNetFromONNX(np.frombuffer(graph, np.uint8)) if isinstance(graph, bytes) else read_network(graph)
    net.setInput(CROPS)
    return tuple(np.asarray(out) for out in net.forward(list(outputs)))
