"""Session 47 diagnostic: the appearance redness of golds, tokins and other faces on development seed 4701's
`one` calibration photos, over the whole crop (the figures for the crop's middle half came from the same script with
crops and ink maps cut to [12:36, 12:36]); printed as label:redness/mean ink strength."""

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
styles = first_variants("one")
seed = 4701
for style, folder in sorted(styles.items()):
    salt = sum(style.encode())
    base = RenderOptions(
        style=style, seed=seed * 1000 + salt, size=(960, 720), style_dir=folder, set_seed=seed * 1000 + salt
    )
    start = render_position(START_BOARD + " b -", base)
    rig = RenderOptions(**{**base.__dict__, "pose": start.pose})
    turned = render_position(FLIPPED_BOARD + " b -", rig)
    out = {}
    for _name, r, board in (("start", start, START_BOARD), ("flip", turned, FLIPPED_BOARD)):
        geo = find_board(r.image)
        crops = crops_from_frame(r.image, geo)
        labels = labels_from_board_field(board)
        ink = ink_maps(crops)
        red = redness(crops, ink)
        strength = ink.reshape(len(crops), -1).mean(axis=1)
        for lab, rd, st in zip(labels, red, strength, strict=True):
            out.setdefault(lab.upper(), []).append((rd, st))
    line = " ".join(
        f"{k}:{np.mean([a for a, _ in v]):+.2f}/{np.mean([b for _, b in v]):.1f}"
        for k, v in sorted(out.items())
        if k in ("G", "+P", "P", "S", "+S", "K", "EMPTY", ".")
    )
    print(style, line, flush=True)
