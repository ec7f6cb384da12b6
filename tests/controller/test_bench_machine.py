"""The benchmarks name the machine they ran on (`controller.bench.machine`)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from controller.bench.machine import cpu_model, machine_line
from controller.cli.main import main

CPUINFO = """processor\t: 0
vendor_id\t: GenuineIntel
model name\t: Intel(R) Xeon(R) Processor
cpu MHz\t\t: 2100.000

processor\t: 1
model name\t: Intel(R) Xeon(R) Processor
"""


def test_cpu_model_is_the_first_model_name() -> None:
    assert cpu_model(CPUINFO) == "Intel(R) Xeon(R) Processor"


def test_cpu_model_of_text_without_one_is_none() -> None:
    assert cpu_model("processor\t: 0\nHardware\t: BCM2835\nmodel name\t:\n") is None


def test_machine_line_names_the_processor_and_the_cores(tmp_path: Path) -> None:
    info = tmp_path / "cpuinfo"
    info.write_text(CPUINFO)
    line = machine_line(info)
    assert line.startswith("machine: Intel(R) Xeon(R) Processor, ")
    assert f", {os.cpu_count()} cores (" in line


def test_machine_line_without_cpuinfo_still_names_something(tmp_path: Path) -> None:
    line = machine_line(tmp_path / "missing")
    assert line.startswith("machine: ") and "cores" in line
    assert not line.startswith("machine: ,")


def test_the_timing_benchmarks_end_with_the_machine(capsys: pytest.CaptureFixture[str]) -> None:
    """`bench rules` and `bench reconcile` time things, so they say on what."""
    assert main(["bench", "rules", "--depth", "1", "--n", "2"]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("machine: ")
    assert main(["bench", "reconcile", "--n", "1"]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("machine: ")
