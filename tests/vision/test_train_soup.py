"""`vision.train.soup`: two exports of one graph averaged weight by weight (training only; needs onnx)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

onnx = pytest.importorskip("onnx", reason="the training extra (onnx) is not installed")
from onnx import TensorProto, helper, numpy_helper  # noqa: E402

from vision.train.soup import average_models, main  # noqa: E402


def _model(weight: np.ndarray, bias: np.ndarray, steps: np.ndarray | None = None) -> object:
    """y = x @ W + b, with an optional integer initializer (like a Reshape's shape)."""
    inits = [numpy_helper.from_array(weight, "W"), numpy_helper.from_array(bias, "b")]
    if steps is not None:
        inits.append(numpy_helper.from_array(steps, "steps"))
    graph = helper.make_graph(
        [helper.make_node("MatMul", ["x", "W"], ["xw"]), helper.make_node("Add", ["xw", "b"], ["y"])],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 2])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 2])],
        initializer=inits,
    )
    return helper.make_model(graph)


def _weights(model: object) -> dict[str, np.ndarray]:
    return {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}  # type: ignore[attr-defined]


def test_float_weights_are_mixed_and_integers_kept() -> None:
    steps = np.array([1, 2], dtype=np.int64)
    first = _model(np.eye(2, dtype=np.float32), np.zeros(2, np.float32), steps)
    second = _model(np.full((2, 2), 4.0, np.float32), np.ones(2, np.float32), steps)
    mixed = _weights(average_models(first, second, 0.25))
    np.testing.assert_allclose(mixed["W"], [[1.75, 1.0], [1.0, 1.75]])
    np.testing.assert_allclose(mixed["b"], [0.25, 0.25])
    assert mixed["W"].dtype == np.float32
    np.testing.assert_array_equal(mixed["steps"], steps)
    np.testing.assert_allclose(_weights(first)["W"], np.eye(2))  # the inputs are left as they were


def test_different_graphs_are_refused() -> None:
    first = _model(np.eye(2, dtype=np.float32), np.zeros(2, np.float32))
    with pytest.raises(ValueError, match="initializer W differs"):
        average_models(first, _model(np.ones((2, 3), np.float32), np.zeros(2, np.float32)), 0.5)
    ints = np.array([1, 2], dtype=np.int64)
    with pytest.raises(ValueError, match="integer initializer steps"):
        average_models(
            _model(np.eye(2, dtype=np.float32), np.zeros(2, np.float32), ints),
            _model(np.eye(2, dtype=np.float32), np.zeros(2, np.float32), ints + 1),
            0.5,
        )
    with pytest.raises(ValueError, match="weight"):
        average_models(first, first, 1.5)


def test_command_line_writes_a_model_that_opencv_runs(tmp_path: Path) -> None:
    import cv2

    a, b, out = tmp_path / "a.onnx", tmp_path / "b.onnx", tmp_path / "soup" / "c.onnx"
    onnx.save(_model(np.eye(2, dtype=np.float32), np.zeros(2, np.float32)), str(a))
    onnx.save(_model(np.full((2, 2), 3.0, np.float32), np.full(2, 2.0, np.float32)), str(b))
    assert main([str(a), str(b), "--weight", "0.5", "-o", str(out)]) == 0
    net = cv2.dnn.readNetFromONNX(str(out))
    net.setInput(np.array([[1.0, 2.0]], dtype=np.float32))
    np.testing.assert_allclose(net.forward(), [[1 * 2.0 + 2 * 1.5 + 1.0, 1 * 1.5 + 2 * 2.0 + 1.0]])
