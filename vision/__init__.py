"""Pixels to observations: board finding, per-square piece probabilities, hands, motion gate, virtual camera.

Knows images and squares, not shogi rules. Never imports `controller`, `hardware` or `firmware_bridge`.
"""
