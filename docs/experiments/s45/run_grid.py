"""`vision.train.grid_eval` with (first argument `cand`) or without (`base`) session 45's patch, run at 107ed85."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
if sys.argv[1] == "cand":
    import patch  # noqa: F401

from vision.train.grid_eval import main

raise SystemExit(main(sys.argv[2:]))
