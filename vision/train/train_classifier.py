"""Train the generic piece classifier and export it to ONNX (training only; needs `.[train]` and, for the
font-drawn styles, `scripts/install-debs.sh --train`).

Training data: synthetic crops (`vision.train.synth`) of the shipped training styles and of extra styles drawn
from Japanese fonts (`vision.train.fonts`, one- and two-character, brush and handwritten faces), and crops cut
from whole rendered frames by the reader's own path (`vision.train.rendered`: real-game positions and random
placements with many promoted pieces, poses up to 45 degrees). Every batch turns half its crops by 180 degrees
and swaps their owner (`OWNER_SWAP`), so the owner is learnt from the pointed end alone, symmetrically.
Reproducible: every crop, the batch order and the network's initial weights come from `--seed` (CPU float
arithmetic may still differ in the last bits between machines, enough to tip a borderline reading: see
docs/classifier-training.md, 2026-11-26). Two piece styles are held out of training and of every choice entirely
(`HELD_OUT`); epochs are scored on rendered frames of training styles (`--val-frames`), the held-out styles only
once, at the end: that is the honest figure for a set the classifier has never seen.
The network downsamples with stride-2 convolutions (no pooling), so 81 crops run in about 17 ms in OpenCV on
one core here (the earlier conv + max-pool network of commit 6778c1c took about 38 ms). Stand windows cut the
way `vision.hands` cuts them (`vision.train.stands`, `--stands`) are part of the training data, so pieces in
hand read as pieces. With `--teacher`, a model file's readings of the crops are learnt beside the labels
(`vision.train.distill`). How every shipped model was made (each step's command, the figures it was kept on) and every
training run tried and not shipped, with its figures and the rule it was judged by, are in
docs/classifier-training.md: read it before training another.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from vision.classifier import MODEL_PATH, OWNER_SWAP, preprocess
from vision.labels import PIECE_LABELS
from vision.squares import CROP
from vision.train.datasets import (
    HELD_OUT,
    LOOK_SEED,
    cached_dataset,
    dataset,
    dev_crops,
    font_styles,
    look_styles,
    rendered,
    rendered_drawn,
    rendered_sheen,
    stand_windows,
    train_styles,
)
from vision.train.distill import distill_loss, teacher_log_probs, turned_soft
from vision.train.fonts import PROMOTED_RED
from vision.train.separable import build_separable
from vision.train.synth import N_CLASSES, SIDEWAYS

__all__ = ["HELD_OUT", "LOOK_SEED", "build_model", "main", "train"]
"""`HELD_OUT` and `LOOK_SEED` live in `vision.train.datasets`; named here too for the modules that import them
from here."""
PROMOTED = np.array([i for i, label in enumerate(PIECE_LABELS) if label.startswith("+")])
"""Class indices of the promoted faces (scored apart on the validation frames: a fine-tune can forget them)."""
CHANNELS = (16, 32, 48, 64)
"""Output channels of the four stride-2 convolution blocks (48 -> 24 -> 12 -> 6 -> 3 pixels)."""
FEATURE_SIDE = CROP // 2 ** len(CHANNELS)
"""Side, in pixels, of the last block's output (3), which the feature layer reads flattened."""


def warm_start(model: Any, onnx_path: Path, sample: Any, seed: int = 0) -> None:
    """Start from an exported model: its convolutions have batch norm folded in, so each batch-norm layer is
    set to give back (about) its input on training batches like `sample` (and its running statistics so that it
    does so in eval mode too). A model with wider blocks than the exported one starts as the same function
    (`widen`: each extra channel a copy of one of the block's channels, its weights nudged so the copies can
    part), so a bigger network can go on from a trained smaller one."""
    import onnx
    import torch
    from onnx import numpy_helper

    weights = {i.name: np.array(numpy_helper.to_array(i)) for i in onnx.load(str(onnx_path)).graph.initializer}
    convs = [k for k in weights if k.startswith("onnx::Conv")]
    layers = list(model.body)
    gen = np.random.default_rng(seed)
    copies = np.arange(3)
    with torch.no_grad():
        x = sample
        for i in range(0, len(layers) - 1, 3):
            conv, bn = layers[i], layers[i + 1]
            w, b = weights[convs[i // 3 * 2]], weights[convs[i // 3 * 2 + 1]]
            w, b, copies = widen(split_inputs(w, copies, axis=1), b, conv.out_channels, gen)
            conv.weight.copy_(torch.from_numpy(w))
            conv.bias.copy_(torch.from_numpy(b))
            y = conv(x)
            bn.weight.copy_(y.std(dim=(0, 2, 3)) + 1e-5)
            bn.bias.copy_(y.mean(dim=(0, 2, 3)))
            bn.running_var.copy_(bn.weight**2 - bn.eps)  # in eval mode too (about) the identity
            bn.running_mean.copy_(bn.bias)
            x = layers[i + 2](y)
        feature = weights["feature.0.weight"]
        per_channel = feature.reshape(len(feature), -1, FEATURE_SIDE**2)
        model.feature[0].weight.copy_(
            torch.from_numpy(split_inputs(per_channel, copies, axis=1).reshape(len(feature), -1))
        )
        for name in ("feature.0.bias", "head.1.weight", "head.1.bias"):
            module, param = name.rsplit(".", 1)
            getattr(model.get_submodule(module), param).copy_(torch.from_numpy(weights[name]))


NUDGE = 0.01
"""Noise on a copied channel's weights, as a share of its block's weight spread (`widen`)."""


def widen(
    w: NDArray[np.float32], b: NDArray[np.float32], width: int, gen: np.random.Generator, nudge: float = NUDGE
) -> tuple[NDArray[np.float32], NDArray[np.float32], NDArray[np.intp]]:
    """A convolution's weights and bias grown to `width` output channels: the first as they were, each extra one
    a copy of a channel drawn at random (weights nudged by `nudge`); also which channel each output copies.
    ValueError for fewer channels than it has (a network only grows)."""
    if width < len(w):
        raise ValueError(f"cannot narrow a layer of {len(w)} channels to {width}: --channels may only widen --init")
    copies = np.concatenate([np.arange(len(w)), gen.integers(len(w), size=width - len(w))])
    grown = w[copies].copy()
    grown[len(w) :] += (nudge * w.std() * gen.standard_normal(grown[len(w) :].shape)).astype(np.float32)
    return grown, b[copies].copy(), copies


def split_inputs(w: NDArray[np.float32], copies: NDArray[np.intp], axis: int) -> NDArray[np.float32]:
    """Weights reading channels that were copied (`copies[j]`: the channel input j copies): each copy reads the
    original's weights divided by the number of its copies, so the sum, and the layer's output, stays the same."""
    counts = np.bincount(copies, minlength=w.shape[axis])
    return np.asarray(
        np.take(w, copies, axis=axis) / np.expand_dims(counts[copies], [a for a in range(w.ndim) if a != axis]),
        dtype=np.float32,
    )


def build_model(channels: tuple[int, ...] = CHANNELS) -> Any:
    """The network: four stride-2 conv blocks (`channels`; no pooling: each convolution computes only the outputs
    kept, so the same time buys wider layers) on 48×48 BGR, a 128-wide feature layer, 31 logits."""
    from torch import nn

    class Net(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            layers: list[nn.Module] = []
            c_in = 3
            for c_out in channels:
                layers += [nn.Conv2d(c_in, c_out, 3, stride=2, padding=1), nn.BatchNorm2d(c_out), nn.ReLU()]
                c_in = c_out
            self.body = nn.Sequential(*layers, nn.Flatten())
            self.feature = nn.Sequential(nn.Linear(channels[-1] * FEATURE_SIDE**2, 128), nn.ReLU())
            self.head = nn.Sequential(nn.Dropout(0.2), nn.Linear(128, N_CLASSES))

        def forward(self, x: Any) -> Any:
            f = self.feature(self.body(x))
            return self.head(f), f

    return Net()


def evaluate(model: Any, x: NDArray[np.uint8], y: NDArray[np.int64]) -> float:
    """Accuracy of the model on crops."""
    import torch

    model.eval()
    correct = 0
    with torch.no_grad():
        for i in range(0, len(x), 512):
            logits, _ = model(torch.from_numpy(preprocess(x[i : i + 512])))
            correct += int((logits.argmax(1).numpy() == y[i : i + 512]).sum())
    return correct / len(y)


def gen_init(seed: int) -> np.random.Generator:
    """Generator for the warm-start sample."""
    return np.random.default_rng(seed + 999)


DRAWN_FRAMES: tuple[tuple[str, str, int, str], ...] = (
    ("rendered_looks", "look_", 40_000, ""),
    ("rendered_fonts", "gen_", 50_000, ""),
    ("rendered_fonts_two", "gen_", 60_000, "two"),
    ("rendered_looks_two", "look_", 70_000, "two"),
    ("rendered_brush", "brush_", 80_000, ""),
    ("rendered_brush", "brush_", 85_000, "two"),
    ("rendered_hands", "hand_", 95_000, "two"),
    ("rendered_hands_one", "hand_", 97_500, "one"),
)
"""The rendered frames of drawn faces, in the order they join the training data: the option giving their number,
the styles' prefix, the first frame's seed after `--seed` × 100000, and the faces' forms (`two`: two-character
only; `one`: one-character only; empty: as `--one-char` says). Each part's frames end before the next one's first
seed (the two-character hands' at most 2500 of them)."""


def drawn_frames(args: argparse.Namespace) -> list[tuple[Any, Any]]:
    """Crops and targets of each part of `DRAWN_FRAMES` that the command line asks for (`rendered_drawn`)."""
    return [
        rendered_drawn(
            args, prefix, getattr(args, option), args.seed * 100_000 + offset, two=forms == "two", one=forms == "one"
        )
        for option, prefix, offset, forms in DRAWN_FRAMES
        if getattr(args, option)
    ]


def training_data(
    args: argparse.Namespace, styles: list[str]
) -> tuple[NDArray[np.uint8], NDArray[np.int64], NDArray[np.bool_]]:
    """Synthetic crops of the shipped training styles and of the font-drawn ones, plus crops of rendered frames;
    with a mask of the crops of the shipped artwork (synthetic, rendered frames and stand windows)."""
    parts = [(*cached_dataset(args, styles, args.seed, args.n_train), True)]
    if args.n_fonts:
        fonts = cached_dataset(args, font_styles(), args.seed + 500, args.n_fonts, red=args.promoted_red)
        parts.append((*fonts, False))
    if args.n_looks:
        trained_looks = look_styles(proxy=False)
        looks = cached_dataset(args, trained_looks, args.seed + 600, args.n_looks, wide=True, red=args.promoted_red)
        parts.append((*looks, False))
    if args.rendered:
        parts.append((*rendered(args.seed, args.rendered, styles, args.workers, args.cache), True))
    parts.extend((*drawn, False) for drawn in drawn_frames(args))
    if args.rendered_sheen:
        parts.append((*rendered_sheen(args.seed, args.rendered_sheen, styles, args.workers, args.cache), True))
    if args.stands:
        parts.append((*stand_windows(args.seed, args.stands, styles, args.workers, args.cache), True))
    artwork = np.concatenate([np.full(len(p[1]), p[2]) for p in parts])
    return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts]), artwork


def epoch_order(artwork: NDArray[np.bool_], repeat: int) -> NDArray[np.int64]:
    """Indices of the crops one epoch goes through (before shuffling): every crop once and the shipped artwork's
    `repeat` times in all, so a fine-tune on much new data keeps the artwork's share (and its promoted faces)."""
    return np.concatenate([np.arange(len(artwork)), *[np.flatnonzero(artwork)] * (repeat - 1)])


def batches(
    x: NDArray[np.uint8],
    y: NDArray[np.int64],
    size: int,
    gen: np.random.Generator,
    sideways: float = 0.0,
    *,
    index: NDArray[np.int64] | None = None,
    soft: NDArray[np.float32] | None = None,
) -> Iterator[tuple[NDArray[np.float32], NDArray[np.int64], NDArray[np.float32] | None]]:
    """Shuffled, preprocessed batches (of the crops in `index`, repeats kept; default every crop once); half
    the crops turned by 180 degrees with the owner swapped, and a `sideways` share of the piece crops turned by
    90 degrees and labelled "sideways" (as the reader sees them when it has the grid's axes swapped). With `soft`
    (a teacher's log-probabilities of every crop, `vision.train.distill`), each batch's, turned as its crops are."""
    order = gen.permutation(len(x) if index is None else index)
    for i in range(0, len(order), size):
        idx = order[i : i + size]
        crops, targets = x[idx], y[idx]
        turn = gen.random(len(idx)) < 0.5
        crops[turn] = crops[turn, ::-1, ::-1]
        targets[turn] = OWNER_SWAP[targets[turn]]
        side = (gen.random(len(idx)) < sideways) & (targets < len(OWNER_SWAP) - 3)
        crops[side] = np.rot90(crops[side], k=int(gen.choice([1, 3])), axes=(1, 2))
        targets[side] = SIDEWAYS
        yield preprocess(crops), targets, None if soft is None else turned_soft(soft[idx], turn, side)


def fit(
    args: argparse.Namespace,
    model: Any,
    x: NDArray[np.uint8],
    y: NDArray[np.int64],
    *,
    order: Any,
    checks: Any,
    soft: NDArray[np.float32] | None = None,
) -> None:
    """Train with AdamW and a one-cycle schedule on the crops of `order` (`epoch_order`) each epoch, printing the
    loss and the accuracy on each of `checks` (name -> crops, targets: the training-style validation frames and
    the proxy-unseen styles) per epoch. With `soft` (a teacher's readings), the loss is `distill.distill_loss`."""
    import torch

    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    steps = args.epochs * ((len(order) + args.batch - 1) // args.batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=args.lr, total_steps=steps)
    loss_fn = torch.nn.CrossEntropyLoss(label_smoothing=args.smoothing)
    gen = np.random.default_rng(training_seed(args))
    t0 = time.time()
    for epoch in range(args.epochs):
        model.train()
        total = 0.0
        for xb, yb, sb in batches(x, y, args.batch, gen, args.sideways, index=order, soft=soft):
            logits, _ = model(torch.from_numpy(xb).contiguous(memory_format=torch.channels_last))
            if sb is None:
                loss = loss_fn(logits, torch.from_numpy(yb))
            else:
                loss = distill_loss(
                    logits, torch.from_numpy(yb), torch.from_numpy(sb),
                    alpha=args.distill, temperature=args.temperature, smoothing=args.smoothing,
                )  # fmt: skip
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss.detach()) * len(yb)
        scores = " ".join(f"{name} {evaluate(model, *data):.4f}" for name, data in checks.items())
        print(f"epoch {epoch + 1}: loss {total / len(order):.4f} {scores} ({time.time() - t0:.0f} s)", flush=True)


def training_seed(args: argparse.Namespace) -> int:
    """The seed of the network's initial weights and the batch order: `--order-seed`, else `--seed` (which also
    draws every crop: another `--order-seed` trains another network on the same data, for an ensemble of two)."""
    return int(args.seed if args.order_seed is None else args.order_seed)


def train(args: argparse.Namespace) -> dict[str, Any]:
    """Generate data, train (validating on frames of training styles), score the held-out styles once at the
    end, export ONNX; returns the figures."""
    import torch

    torch.manual_seed(training_seed(args))
    torch.set_num_threads(args.threads)
    styles = train_styles()
    t0 = time.time()
    x, y, artwork = training_data(args, styles)
    order = epoch_order(artwork, args.artwork_repeat)
    val = rendered(args.seed + 20, args.val_frames, styles, args.workers, args.cache)
    promoted = np.isin(val[1], PROMOTED)
    checks = {"val": val, "val-promoted": (val[0][promoted], val[1][promoted])}
    if args.proxy:
        checks["proxy"] = cached_dataset(args, look_styles(proxy=True), args.seed + 700, args.proxy, wide=True)
    if args.dev_frames:
        checks["dev-plain"] = dev_crops(args)
    sizes = f"{len(x)} training crops ({len(order)} an epoch), {len(val[0])} validation crops"
    print(f"data: {sizes} ({time.time() - t0:.0f} s)", flush=True)
    model = build_separable() if args.arch == "separable" else build_model(args.channels)
    if args.init is not None and args.init.suffix == ".pt":  # a state dict saved by this script: go on from it
        model.load_state_dict(torch.load(args.init))
    elif args.init is not None:
        sample = preprocess(x[gen_init(training_seed(args)).permutation(len(x))[:512]])
        warm_start(model, args.init, torch.from_numpy(sample), training_seed(args))
    model = model.to(memory_format=torch.channels_last)
    if args.init is not None:
        start = {name: round(evaluate(model, *data), 4) for name, data in checks.items()}
        print(f"start: {start}", flush=True)
    soft = None
    if args.teacher is not None:
        t1 = time.time()
        soft = teacher_log_probs(args.teacher, x, args.threads)
        print(f"teacher: {args.teacher} read {len(x)} crops ({time.time() - t1:.0f} s)", flush=True)
    fit(args, model, x, y, order=order, checks=checks, soft=soft)
    figures = held_out_figures(args, model) if args.held else {}
    export(model, args.out)
    torch.save(model.state_dict(), args.out.with_suffix(".pt"))
    return {
        "train_styles": styles,
        "font_styles": font_styles() if args.n_fonts else [],
        "look_styles": look_styles(proxy=False) if args.n_looks else [],
        "proxy_unseen_styles": look_styles(proxy=True) if args.proxy else [],
        "proxy_unseen_crop_accuracy": evaluate(model, *checks["proxy"]) if args.proxy else None,
        "dev_plain_crop_accuracy": evaluate(model, *checks["dev-plain"]) if args.dev_frames else None,
        "held_out": list(HELD_OUT),
        "held_out_crop_accuracy": figures,
        "validation_crop_accuracy": evaluate(model, *val),
        "validation_promoted_crop_accuracy": evaluate(model, *checks["val-promoted"]),
        "seed": args.seed,
        "command": vars(args)
        | {"out": str(args.out), "cache": None, "init": str(args.init), "teacher": str(args.teacher)},
    }


def held_out_figures(args: argparse.Namespace, model: Any) -> dict[str, float]:
    """Crop accuracy on the held-out styles (synthetic crops and crops of rendered frames); printed."""
    held = {s: dataset(args.seed + 1 + i, args.n_val, [s], args.workers) for i, s in enumerate(HELD_OUT)}
    for i, s in enumerate(HELD_OUT):
        held[s + " (frames)"] = rendered(args.seed + 50 + i, args.held_frames, [s], args.workers, args.cache)
    figures = {s: evaluate(model, c, t) for s, (c, t) in held.items()}
    print(f"held-out: {figures}", flush=True)
    return figures


def export(model: Any, out: Path) -> None:
    """Write the model as ONNX with outputs `logits` and `features`."""
    import torch

    model.eval()
    out.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(
        model,
        (torch.zeros(1, 3, CROP, CROP),),
        str(out),
        input_names=["crops"],
        output_names=["logits", "features"],
        dynamic_axes={"crops": {0: "n"}, "logits": {0: "n"}, "features": {0: "n"}},
        opset_version=13,
        dynamo=False,
    )


def main(argv: list[str] | None = None) -> int:
    """Command line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=MODEL_PATH)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--order-seed",
        type=int,
        help="seed of the weights and batch order only (default: --seed; the data stays --seed's)",
    )
    parser.add_argument("--n-train", type=int, default=64_000)
    parser.add_argument("--n-val", type=int, default=4000)
    parser.add_argument("--epochs", type=int, default=5)
    parser.add_argument("--batch", type=int, default=128)
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--cache", type=Path, help="directory to keep generated crops in between runs")
    parser.add_argument("--rendered", type=int, default=0, help="also train on crops of this many rendered frames")
    parser.add_argument("--stands", type=int, default=0, help="also train on stand windows of this many frames")
    parser.add_argument("--smoothing", type=float, default=0.02, help="label smoothing")
    parser.add_argument("--sideways", type=float, default=0.0, help="share of piece crops turned by 90 degrees")
    parser.add_argument("--n-fonts", type=int, default=0, help="synthetic crops of the font-drawn styles")
    parser.add_argument("--val-frames", type=int, default=150, help="rendered frames of training styles to validate on")
    parser.add_argument("--held-frames", type=int, default=40, help="rendered frames per held-out style to score")
    parser.add_argument("--n-looks", type=int, default=0, help="synthetic crops of the varied look styles")
    parser.add_argument("--rendered-looks", type=int, default=0, help="rendered frames drawn with the look styles")
    parser.add_argument("--rendered-fonts", type=int, default=0, help="rendered frames drawn with the font styles")
    parser.add_argument(
        "--rendered-fonts-two", type=int, default=0, help="rendered frames drawn with the font styles' two characters"
    )
    parser.add_argument(
        "--rendered-looks-two", type=int, default=0, help="rendered frames drawn with the look styles' two characters"
    )
    parser.add_argument(
        "--rendered-brush",
        type=int,
        default=0,
        help="rendered frames of the brush styles (as --one-char says; up to 5000), as many of their two characters",
    )
    parser.add_argument(
        "--rendered-hands",
        type=int,
        default=0,
        help="rendered frames of two-character brush faces in made-up hands (vision.train.hand_styles)",
    )
    parser.add_argument(
        "--rendered-hands-one",
        type=int,
        default=0,
        help="rendered frames of the same made-up hands' one-character faces",
    )
    parser.add_argument(
        "--rendered-sheen", type=int, default=0, help="rendered frames of the artwork with the lamp's sheen on the ink"
    )
    parser.add_argument(
        "--one-char", action="store_true", help="draw the --rendered-looks/-fonts frames with one-character forms only"
    )
    parser.add_argument(
        "--promoted-red",
        type=float,
        default=PROMOTED_RED,
        help="share of the font and look styles' promoted faces drawn in red ink (the others in the unpromoted inks)",
    )
    parser.add_argument(
        "--artwork-repeat", type=int, default=1, help="go through the shipped artwork's crops this many times an epoch"
    )
    parser.add_argument("--dev-frames", type=int, default=0, help="frames of unseen one-character fonts to score")
    parser.add_argument("--proxy", type=int, default=0, help="crops of the proxy-unseen look styles to score")
    parser.add_argument(
        "--no-held", dest="held", action="store_false", help="skip scoring the held-out styles (development steps)"
    )
    parser.add_argument(
        "--channels",
        type=lambda text: tuple(int(c) for c in text.split(",")),
        default=CHANNELS,
        help="output channels of the four conv blocks (comma-separated); wider than --init's: grown from it",
    )
    parser.add_argument(
        "--arch",
        choices=("stride2", "separable"),
        default="stride2",
        help="stride2: four stride-2 blocks of --channels; separable: vision.train.separable's deeper network",
    )
    parser.add_argument("--init", type=Path, help="start from this exported ONNX model or saved .pt state dict")
    parser.add_argument(
        "--teacher", type=Path, help="learn this model file's readings of the crops too (vision.train.distill)"
    )
    parser.add_argument("--distill", type=float, default=0.7, help="weight of the teacher's term in the loss")
    parser.add_argument("--temperature", type=float, default=2.0, help="temperature of the teacher's readings")
    args = parser.parse_args(argv)
    if args.arch == "separable" and args.init is not None and args.init.suffix != ".pt":
        parser.error("--arch separable starts from scratch or from a .pt state dict of its own, not an ONNX --init")
    figures = train(args)
    args.out.with_suffix(".json").write_text(json.dumps(figures, indent=2) + "\n")
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
