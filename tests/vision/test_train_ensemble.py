"""`vision.train.ensemble`: two classifiers joined into one graph that OpenCV runs (training only)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx_toys import run_graph, toy_model

from vision.classifier import softmax
from vision.train.ensemble import join_models, main, part_model


@pytest.mark.parametrize("mean", ["arithmetic", "geometric"])
@pytest.mark.parametrize("w", [0.5, 0.7])
def test_opencv_runs_the_joined_model_as_the_mean_of_the_two(tmp_path: Path, mean: str, w: float) -> None:
    (first, logits_a, feats_a), (second, logits_b, feats_b) = toy_model(1), toy_model(2, n_features=3)
    path = tmp_path / "joined.onnx"
    onnx.save(join_models(first, second, mean, weight=w), str(path))
    logits, features = run_graph(path)
    pa, pb = softmax(logits_a), softmax(logits_b)
    geometric = pa ** (1 - w) * pb**w
    expected = (1 - w) * pa + w * pb if mean == "arithmetic" else geometric / geometric.sum(1, keepdims=True)
    np.testing.assert_allclose(softmax(logits), expected, atol=1e-6)
    np.testing.assert_allclose(features, np.concatenate([feats_a, feats_b], axis=1), rtol=1e-6)
    assert not np.allclose(softmax(logits_a), softmax(logits_b), atol=0.05)  # the two really differ


def test_models_without_the_classifier_outputs_or_an_unknown_mean_are_refused() -> None:
    first, _, _ = toy_model(1)
    broken, _, _ = toy_model(2)
    broken.graph.output[1].name = "other"  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="outputs `logits` and `features`"):
        join_models(first, broken)
    with pytest.raises(ValueError, match="mean must be one of"):
        join_models(first, first, "median")
    with pytest.raises(ValueError, match="weight must lie"):
        join_models(first, first, weight=1.5)


def test_command_line_writes_the_model_and_its_metadata(tmp_path: Path) -> None:
    a, b, out = tmp_path / "a.onnx", tmp_path / "b.onnx", tmp_path / "joined" / "pieces.onnx"
    onnx.save(toy_model(1)[0], str(a))
    onnx.save(toy_model(2)[0], str(b))
    a.with_suffix(".json").write_text(json.dumps({"train_styles": ["x"], "seed": 1}), encoding="utf-8")
    b.with_suffix(".json").write_text(json.dumps({"train_styles": ["x"], "seed": 2}), encoding="utf-8")
    assert main([str(a), str(b), "--mean", "geometric", "--weight", "0.25", "-o", str(out)]) == 0
    meta = json.loads(out.with_suffix(".json").read_text(encoding="utf-8"))
    assert (meta["train_styles"], meta["seed"]) == (["x"], 1)
    expected = {"first": str(a), "second": str(b), "mean": "geometric", "weight": 0.25, "second_model": {"seed": 2}}
    assert meta["ensemble"] == expected
    assert run_graph(out)[1].shape == (2, 4)


def test_models_trained_on_different_styles_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Two models whose metadata name different style lists are not joined: nothing is written."""
    a, b, out = tmp_path / "a.onnx", tmp_path / "b.onnx", tmp_path / "out.onnx"
    onnx.save(toy_model(1)[0], str(a))
    onnx.save(toy_model(2)[0], str(b))
    a.with_suffix(".json").write_text(json.dumps({"train_styles": ["x"], "held_out": ["h"]}), encoding="utf-8")
    b.with_suffix(".json").write_text(json.dumps({"train_styles": ["x", "h"]}), encoding="utf-8")
    with pytest.raises(SystemExit):
        main([str(a), str(b), "-o", str(out)])
    assert "differ in held_out, train_styles" in capsys.readouterr().err
    assert not out.exists()


def test_each_network_comes_back_out_of_the_joined_graph(tmp_path: Path) -> None:
    """`part_model` gives each joined network back on its own: the same outputs as before it was joined."""
    (first, logits_a, feats_a), (second, logits_b, feats_b) = toy_model(1), toy_model(2, n_features=3)
    joined = join_models(first, second, "geometric")
    for part, logits, feats in (("first", logits_a, feats_a), ("second", logits_b, feats_b)):
        path = tmp_path / f"{part}.onnx"
        onnx.save(part_model(joined, part), str(path))
        got_logits, got_feats = run_graph(path)
        np.testing.assert_allclose(got_logits, logits, atol=1e-5)
        np.testing.assert_allclose(got_feats, feats, atol=1e-5)
    with pytest.raises(ValueError, match="part must be"):
        part_model(joined, "third")
    with pytest.raises(ValueError, match="not a joined model"):
        part_model(first, "first")


def test_command_line_writes_a_part_with_the_second_networks_figures(tmp_path: Path) -> None:
    a, b, joined, out = (tmp_path / f"{n}.onnx" for n in ("a", "b", "joined", "part"))
    onnx.save(toy_model(1)[0], str(a))
    onnx.save(toy_model(2)[0], str(b))
    a.with_suffix(".json").write_text(json.dumps({"train_styles": ["x"], "seed": 1}), encoding="utf-8")
    b.with_suffix(".json").write_text(json.dumps({"train_styles": ["x"], "seed": 2}), encoding="utf-8")
    assert main([str(a), str(b), "--mean", "geometric", "-o", str(joined)]) == 0
    assert main([str(joined), "--part", "second", "-o", str(out)]) == 0
    meta = json.loads(out.with_suffix(".json").read_text(encoding="utf-8"))
    assert (meta["train_styles"], meta["seed"]) == (["x"], 2)
    assert meta["part_of"] == {"model": str(joined), "part": "second", "was": str(b)}
    np.testing.assert_allclose(run_graph(out)[0], toy_model(2)[1], atol=1e-5)
    with pytest.raises(SystemExit):
        main([str(a), str(b), "--part", "first", "-o", str(out)])
