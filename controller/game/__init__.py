"""The game: clocks, the crash-safe journal, live records and the pure state machine of a game on the board.

Owns: what happens in a game and in which order (setup check, whose turn, engine thinking, robot moving, prompts,
mismatches, game end), the players' time, and the durable journal of committed moves. Does not own: reading the
board (`controller.reconcile`), talking to engines (`controller.engines`), moving pieces (`controller.planning`),
or record formats (`controller.records`); those arrive here as events and leave as commands.
"""
