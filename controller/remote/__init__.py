"""Remote opponents: the CSA server protocol (shogi-server, Floodgate) and the lishogi Board API.

Owns: talking to a server on the network, and turning what it says into moves, clocks and results for the game.
"""
