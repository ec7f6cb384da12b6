"""The serial link to the gantry's firmware (GRBL 1.1, grblHAL, FluidNC): knows G-code and millimetres, not shogi.

Layered transport -> parser -> link -> gantry API, with a byte-level fake GRBL device beside the real transport.
Never imports `controller`, `vision` or `hardware`.
"""
