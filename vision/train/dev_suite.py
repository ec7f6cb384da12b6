"""The development suite a candidate classifier (or reader change) is judged on before any held-out frame:
`python -m vision.train.dev_suite --model CANDIDATE.onnx [--baseline BASELINE.onnx]` (training only; the
development fonts need `scripts/install-debs.sh --train`).

It runs what the rules of sessions 33-37 ran by hand (docs/classifier-training.md): the full reader on 40 frames
each of three development families of fonts never trained on (`plain2`, two-character faces; `plain`, one
character; `one`, varied looks), seed 77, and of the training artwork, seed 313 (`vision.train.dev_eval`); and the
stands of 40 wide frames each of `artwork` and `plain`, seed 5 (`vision.train.hands_eval --frames wide`). It prints
one table: squares right and wrong-but-vouched-for per family, hand counts right, and with a baseline the
differences and the verdict of the development rule (`RULE`), which says whether the candidate may go on to
held-out frames. It decides nothing on held-out styles and never reads them. `--save FILE` keeps the candidate's
figures as JSON; `--baseline-figures FILE` compares with figures so kept (the same machine's: figures move a
little between machines and OpenCV builds) instead of measuring the baseline again.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

SQUARE_RUNS: tuple[tuple[str, int], ...] = (("plain2", 77), ("plain", 77), ("one", 77), ("artwork", 313))
"""(family, seed) of the squares' runs, 40 frames each."""
HAND_RUNS: tuple[tuple[str, int], ...] = (("artwork", 5), ("plain", 5))
"""(family, seed) of the stands' runs, 40 wide frames each."""
N_FRAMES = 40


@dataclass(frozen=True)
class Rule:
    """How far below the baseline a candidate may fall and still go on to held-out frames."""

    total_below: int = 4
    """Squares right over all families: at most this many fewer."""
    family_below: int = 3
    """Squares right in any one family: at most this many fewer."""
    vouched_above: int = 1
    """Wrong squares read surely (vouched for) in any one family: at most this many more."""
    hands_below: int = 3
    """Hand counts right over both runs: at most this many fewer."""


RULE = Rule()
"""The development rule of sessions 33-37 (fixed before each candidate existed; /tmp/s3x/RULE.txt in their notes)."""


@dataclass(frozen=True)
class Figures:
    """One model's development figures."""

    right: dict[str, int]
    """Squares right per family (of `N_FRAMES` × 81)."""
    vouched: dict[str, int]
    """Squares wrong but vouched for per family."""
    hands_right: int
    """Hand counts right over the stands' runs."""

    @property
    def total(self) -> int:
        """Squares right over all families."""
        return sum(self.right.values())


def save_figures(figures: Figures, path: Path) -> None:
    """Write `figures` to `path` as JSON."""
    path.write_text(json.dumps(asdict(figures), indent=1) + "\n")


def load_figures(path: Path) -> Figures:
    """Figures written by `save_figures`. ValueError when the file does not hold them."""
    try:
        data = json.loads(path.read_text())
        right = {str(k): int(v) for k, v in data["right"].items()}
        vouched = {str(k): int(v) for k, v in data["vouched"].items()}
        return Figures(right, vouched, int(data["hands_right"]))
    except (KeyError, TypeError, AttributeError, json.JSONDecodeError) as error:
        raise ValueError(f"{path}: not a development suite's figures ({error})") from error


def measure(model: Path | None, n: int = N_FRAMES, say: Callable[[str], None] = print) -> Figures:
    """Run the suite on `model` (None: the shipped model), saying each run's figures as it ends."""
    from vision.train import dev_eval, hands_eval

    right: dict[str, int] = {}
    vouched: dict[str, int] = {}
    for family, seed in SQUARE_RUNS:
        tally = dev_eval.evaluate(family, n, seed, model, crops=False)
        right[family], vouched[family] = tally.right, tally.vouched_wrong
        say(f"{family} (seed {seed}): {tally.right}/{tally.squares} squares right, {tally.vouched_wrong} vouched")
    hands = 0
    for family, seed in HAND_RUNS:
        hand_tally = hands_eval.evaluate(family, n, seed, model, frames="wide")
        hands += hand_tally.right
        say(f"stands {family} (seed {seed}): {hand_tally.right}/{hand_tally.entries} counts right")
    return Figures(right, vouched, hands)


def failures(candidate: Figures, baseline: Figures, rule: Rule = RULE) -> list[str]:
    """The clauses of `rule` the candidate fails against the baseline (empty: it may go on)."""
    failed = []
    if candidate.total < baseline.total - rule.total_below:
        failed.append(f"total {candidate.total} < {baseline.total} - {rule.total_below}")
    for family, right in candidate.right.items():
        if right < baseline.right[family] - rule.family_below:
            failed.append(f"{family} {right} < {baseline.right[family]} - {rule.family_below}")
        if candidate.vouched[family] > baseline.vouched[family] + rule.vouched_above:
            failed.append(
                f"{family} vouched {candidate.vouched[family]} > {baseline.vouched[family]} + {rule.vouched_above}"
            )
    if candidate.hands_right < baseline.hands_right - rule.hands_below:
        failed.append(f"hands {candidate.hands_right} < {baseline.hands_right} - {rule.hands_below}")
    return failed


def table(candidate: Figures, baseline: Figures | None) -> str:
    """The figures side by side: squares right (vouched) per family, the total, the hand counts."""
    rows = [f"{'':10} {'candidate':>14}" + (f" {'baseline':>14} {'diff':>6}" if baseline else "")]
    for family in candidate.right:
        cell = f"{candidate.right[family]} ({candidate.vouched[family]})"
        row = f"{family:10} {cell:>14}"
        if baseline:
            base = f"{baseline.right[family]} ({baseline.vouched[family]})"
            row += f" {base:>14} {candidate.right[family] - baseline.right[family]:>+6}"
        rows.append(row)
    for name, mine, theirs in (
        ("total", candidate.total, baseline.total if baseline else 0),
        ("hands", candidate.hands_right, baseline.hands_right if baseline else 0),
    ):
        rows.append(f"{name:10} {mine:>14}" + (f" {theirs:>14} {mine - theirs:>+6}" if baseline else ""))
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    """Command line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", type=Path, help="candidate classifier ONNX (default: the shipped model)")
    baselines = parser.add_mutually_exclusive_group()
    baselines.add_argument("--baseline", type=Path, help="the model to compare with (default: none)")
    baselines.add_argument("--shipped-baseline", action="store_true", help="compare with the shipped model")
    baselines.add_argument("--baseline-figures", type=Path, help="compare with figures kept by --save (not measured)")
    parser.add_argument("--save", type=Path, help="write the candidate's figures here (JSON)")
    parser.add_argument("--n", type=int, default=N_FRAMES, help=f"frames a run (default {N_FRAMES}: the rule's)")
    args = parser.parse_args(argv)
    kept = load_figures(args.baseline_figures) if args.baseline_figures else None
    candidate = measure(args.model, args.n)
    if args.save:
        save_figures(candidate, args.save)
    baseline = measure(args.baseline, args.n) if args.baseline or args.shipped_baseline else kept
    print(table(candidate, baseline))
    if baseline is not None:
        failed = failures(candidate, baseline)
        if args.n != N_FRAMES:
            print(f"(the rule is for {N_FRAMES} frames a run; {args.n} given: no verdict)")
        else:
            print("development rule: " + ("passes" if not failed else "fails: " + "; ".join(failed)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
