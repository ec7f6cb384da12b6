"""`vision.model_file`: a classifier model file read as its networks (one, or a joined graph's two and their join)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx_toys import run_graph, toy_model

from vision.errors import ModelError
from vision.model_file import read_model
from vision.train.ensemble import join_models


@pytest.mark.parametrize("mean", ["arithmetic", "geometric"])
@pytest.mark.parametrize("weight", [0.5, 0.7])
def test_a_joined_graph_comes_apart_into_its_networks_and_their_join(tmp_path: Path, mean: str, weight: float) -> None:
    """Each network, run alone, gives its own outputs; the join of their logits is the joined graph's."""
    (first, logits_a, feats_a), (second, logits_b, feats_b) = toy_model(1), toy_model(2, n_features=3)
    path = tmp_path / "joined.onnx"
    onnx.save(join_models(first, second, mean, weight), str(path))
    model = read_model(path)
    assert model.join is not None and (model.join.mean, model.join.weight) == (mean, pytest.approx(weight))
    assert len(model.networks) == 2
    got = [run_graph(graph, names) for graph, names in zip(model.networks, model.outputs, strict=True)]
    for (logits, feats), want_logits, want_feats in zip(got, (logits_a, logits_b), (feats_a, feats_b), strict=True):
        np.testing.assert_allclose(logits, want_logits, atol=1e-5)
        np.testing.assert_allclose(feats, want_feats, atol=1e-5)
    whole_logits, _ = run_graph(path)
    np.testing.assert_allclose(model.join.logits(got[0][0], got[1][0]), whole_logits, atol=1e-5)


def test_a_single_network_is_passed_on_whole(tmp_path: Path) -> None:
    """A model of one network has no join; the network reads as the file does."""
    single, logits, feats = toy_model(3)
    path = tmp_path / "single.onnx"
    onnx.save(single, str(path))
    model = read_model(path)
    assert model.join is None and model.outputs == (("logits", "features"),)
    got_logits, got_feats = run_graph(model.networks[0])
    np.testing.assert_allclose(got_logits, logits, atol=1e-5)
    np.testing.assert_allclose(got_feats, feats, atol=1e-5)


def test_files_that_are_not_classifier_models_are_refused(tmp_path: Path) -> None:
    """A missing file, a file that is not ONNX, a graph without the classifier's outputs and a joined graph whose
    mean is none of the two each get their own ModelError."""
    with pytest.raises(ModelError, match="not found"):
        read_model(tmp_path / "none.onnx")
    garbage = tmp_path / "garbage.onnx"
    garbage.write_bytes(b"\x0f\xff not a protobuf \x00" * 20)
    with pytest.raises(ModelError, match="cannot load"):
        read_model(garbage)
    other, _, _ = toy_model(4)
    other.graph.node[1].output[0] = "scores"
    other.graph.output[0].name = "scores"
    path = tmp_path / "other.onnx"
    onnx.save(other, str(path))
    with pytest.raises(ModelError, match="no `logits` and `features`"):
        read_model(path)
    odd = join_models(toy_model(1)[0], toy_model(2)[0], "geometric")
    next(node for node in odd.graph.node if "logits" in node.output).op_type = "Sub"
    onnx.save(odd, str(path))
    with pytest.raises(ModelError, match="mean is not known"):
        read_model(path)


def test_a_classifier_that_cannot_write_its_networks_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    """The networks are loaded from files in a temporary folder; a temporary folder that cannot be made gives a
    ModelError naming it, not a bare OSError."""
    import tempfile

    from vision.classifier import PieceClassifier

    def no_folder(*args: object, **kwargs: object) -> None:
        raise PermissionError("no room here")

    monkeypatch.setattr(tempfile, "TemporaryDirectory", no_folder)
    with pytest.raises(ModelError, match="temporary folder: no room here"):
        PieceClassifier()


@pytest.mark.parametrize("classic_engine", [True, False])
def test_read_network_loads_in_whichever_engine_this_opencv_has(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, classic_engine: bool
) -> None:
    """`read_network` (through `run_graph`) runs a graph alike with OpenCV's classic engine (5.0) and without one
    (4.x, 5.1)."""
    import cv2

    if not classic_engine and hasattr(cv2.dnn, "ENGINE_CLASSIC"):
        monkeypatch.delattr(cv2.dnn, "ENGINE_CLASSIC")
    if classic_engine and not hasattr(cv2.dnn, "ENGINE_CLASSIC"):
        pytest.skip("this OpenCV has no classic engine")
    model, logits, feats = toy_model(3)
    path = tmp_path / "toy.onnx"
    onnx.save(model, str(path))
    got_logits, got_feats = run_graph(path)
    np.testing.assert_allclose(got_logits, logits, atol=1e-5)
    np.testing.assert_allclose(got_feats, feats, atol=1e-5)
