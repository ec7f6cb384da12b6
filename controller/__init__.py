"""The shogi side of shogi-robot: rules, records, reconciliation, the game loop, opponents, CLI and web.

Owns everything that knows shogi. Uses `vision`, `hardware` and `firmware_bridge` only through small interfaces;
concrete hardware is chosen in one place, `controller.compose`.
"""
