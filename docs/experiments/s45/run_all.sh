#!/bin/bash
# Runs the 16 sets of RULE.txt: baseline and candidate side by side, one per core.
cd "$(dirname "$0")/../../.."  # the repository (the figures: at 107ed85)
out=${OUT:-/tmp/s45/out}; mkdir -p $out
for pair in artwork:4641 proxy:4642 plain2:4643 one:4644 artwork:4651 proxy:4652 plain2:4653 one:4654; do
  fam=${pair%%:*}; seed=${pair##*:}
  for kind in steep start; do
    .venv/bin/python docs/experiments/s45/run_grid.py base --family $fam --kind $kind --n 200 --seed $seed > $out/base_${fam}_${kind}_${seed}.txt 2>&1 &
    .venv/bin/python docs/experiments/s45/run_grid.py cand --family $fam --kind $kind --n 200 --seed $seed > $out/cand_${fam}_${kind}_${seed}.txt 2>&1 &
    wait
  done
done
echo done > $out/ALL_DONE
