"""Session 47 diagnostic: how well the appearance redness (whole crop, and its middle half) tells promoted from
unpromoted pieces on the calibration photos of development seed 4701 (AUC)."""

import cv2
import numpy as np

from vision.appearance import ink_maps, redness
from vision.board import find_board
from vision.calibration import FLIPPED_BOARD, START_BOARD
from vision.labels import labels_from_board_field
from vision.render import RenderOptions, render_position
from vision.squares import crops_from_frame
from vision.train.dev_eval import first_variants

cv2.setNumThreads(1)


def auc(a, b):
    a, b = np.asarray(a), np.asarray(b)
    return float((a[:, None] > b[None, :]).mean() + 0.5 * (a[:, None] == b[None, :]).mean())


seed = 4701
for fam in ("one", "plain2"):
    for style, folder in sorted(first_variants(fam).items()):
        salt = sum(style.encode())
        base = RenderOptions(
            style=style, seed=seed * 1000 + salt, size=(960, 720), style_dir=folder, set_seed=seed * 1000 + salt
        )
        start = render_position(START_BOARD + " b -", base)
        rig = RenderOptions(**{**base.__dict__, "pose": start.pose})
        turned = render_position(FLIPPED_BOARD + " b -", rig)
        vals = {}
        for inner in (1.0, 0.5):
            prom, unprom = [], []
            for r, board in ((start, START_BOARD), (turned, FLIPPED_BOARD)):
                geo = find_board(r.image)
                crops = crops_from_frame(r.image, geo)
                ink = ink_maps(crops)
                lo = round(48 * (1 - inner) / 2)
                hi = 48 - lo
                red = redness(np.ascontiguousarray(crops[:, lo:hi, lo:hi]), np.ascontiguousarray(ink[:, lo:hi, lo:hi]))
                for lab, rd in zip(labels_from_board_field(board), red, strict=True):
                    u = lab.upper()
                    if u.startswith("+"):
                        prom.append(rd)
                    elif u in "RBSNLP":
                        unprom.append(rd)
            vals[inner] = auc(prom, unprom)
        print(fam, style, " ".join(f"inner {k}: AUC {v:.3f}" for k, v in vals.items()), flush=True)
