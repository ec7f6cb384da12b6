"""The exceptions of the hardware package: one base, subclasses carrying context.

Owns: HardwareError and its subclasses. Config errors are also ValueErrors, so the CLI reports them as
bad input (exit 1) without a traceback.
"""

from __future__ import annotations


class HardwareError(Exception):
    """Base of every error raised by `hardware`."""


class ConfigError(HardwareError, ValueError):
    """A config section is malformed: unknown or missing key, wrong type, value out of range.

    Attributes:
        section: the dotted TOML section name (`board`, `stands.black`).
        key: the offending key, or None for a whole-section problem.
    """

    def __init__(self, section: str, key: str | None, message: str) -> None:
        where = f"[{section}]" + (f" {key}" if key is not None else "")
        super().__init__(f"{where}: {message}")
        self.section = section
        self.key = key


class GeometryError(HardwareError, ValueError):
    """A location has no place in the geometry (bad square name, slot index beyond the stand, no flip station)."""


class CalibrationError(HardwareError, ValueError):
    """The reference points cannot determine a transform (too few, duplicated or collinear)."""


class GpioError(HardwareError):
    """A GPIO backend refused an operation (pin not set up, wrong direction, unknown channel)."""
