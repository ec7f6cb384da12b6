"""Physical devices on the Pi side (GPIO, cameras) and pure board geometry.

Never imports `controller`, `vision` or `firmware_bridge`.
"""
