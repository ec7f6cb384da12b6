"""What machine a benchmark ran on: its processor's name and how many cores it has, printed beside the timings so
that figures from different machines are not compared as if from one (the same code's full read took 41 ms CPU on
one machine of this project and 63 ms on another)."""

from __future__ import annotations

import os
import platform
from pathlib import Path

CPUINFO = Path("/proc/cpuinfo")


def cpu_model(cpuinfo: str) -> str | None:
    """The first 'model name' in the text of /proc/cpuinfo (None when it names none)."""
    for line in cpuinfo.splitlines():
        key, _, value = line.partition(":")
        if key.strip() == "model name" and value.strip():
            return value.strip()
    return None


def machine_line(cpuinfo: Path = CPUINFO) -> str:
    """One line naming the processor and the number of cores, for a benchmark's report."""
    try:
        model = cpu_model(cpuinfo.read_text(errors="replace"))
    except OSError:
        model = None
    name = model or platform.processor() or platform.machine() or "unknown processor"
    python = f"{platform.python_implementation()} {platform.python_version()}"
    return f"machine: {name}, {os.cpu_count() or 0} cores ({python})"
