"""The separable training network (`vision.train.separable`): its shape, and that OpenCV runs its ONNX export."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.train.separable import build_separable
from vision.train.train_classifier import export


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_separable_network_runs_in_opencv_as_in_torch(tmp_path: Path) -> None:
    """31 logits and 128 features a crop, in torch and through OpenCV's DNN module after export, alike."""
    torch = pytest.importorskip("torch")
    model = build_separable().eval()
    x = torch.randn(4, 3, 48, 48)
    with torch.no_grad():
        logits, features = model(x)
    assert logits.shape == (4, 31) and features.shape == (4, 128)
    export(model, tmp_path / "net.onnx")
    net = cv2.dnn.readNetFromONNX(str(tmp_path / "net.onnx"))
    net.setInput(x.numpy())
    got = net.forward("logits")
    np.testing.assert_allclose(got, logits.numpy(), atol=1e-4)


def test_unknown_block_kind_refused() -> None:
    """A block kind other than conv or sep is a clear error."""
    pytest.importorskip("torch")
    with pytest.raises(ValueError, match="unknown block kind"):
        build_separable((("pool", 16, 2),))


def test_separable_refuses_an_onnx_init(tmp_path: Path) -> None:
    """A warm start from ONNX knows only the stride-2 network's shape: asked of the separable one, a clear error."""
    from vision.train.train_classifier import main

    with pytest.raises(SystemExit):
        main(["--arch", "separable", "--init", str(tmp_path / "m.onnx"), "--out", str(tmp_path / "o.onnx")])
