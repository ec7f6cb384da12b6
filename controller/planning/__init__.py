"""Piece-transfer planning and execution: from a shogi move (or a target position) to physical transfers.

Pure planning (`model`, `state`, `planner`, `setup`, `motion`) plus the `executor`, which carries transfers out
on a `controller.ports.Gantry`. Uses `hardware.geometry` (pure) for locations in millimetres.
"""
