"""The rules layer: a small typed API over cshogi (legality with reasons, game outcomes, impasse, handicaps).

Owns: judging moves and positions. Does not own: reading or writing records (`controller.records`), clocks,
the game loop, or anything physical.
"""
