"""constraints.txt pins every package that `make setup` asks for, at a version pyproject.toml allows."""

from __future__ import annotations

import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent


def _pins() -> dict[str, str]:
    """Package name (canonical) -> pinned version, from constraints.txt."""
    pins: dict[str, str] = {}
    for raw in (ROOT / "constraints.txt").read_text().splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        name, sep, version = line.partition("==")
        assert sep, f"constraints.txt: {line!r} is not an exact pin (name==version)"
        pins[canonicalize_name(name)] = version
    return pins


def _requirements() -> list[Requirement]:
    """The project's dependencies, its test extra (what the Makefile installs) and its pi extra (the README's)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras = project["optional-dependencies"]
    return [Requirement(text) for text in project["dependencies"] + extras["test"] + extras["pi"]]


def test_every_setup_requirement_is_pinned_within_its_range() -> None:
    pins = _pins()
    for requirement in _requirements():
        name = canonicalize_name(requirement.name)
        assert name in pins, f"{requirement.name} is in pyproject.toml but not pinned in constraints.txt"
        assert requirement.specifier.contains(pins[name], prereleases=True), (
            f"constraints.txt pins {requirement.name}=={pins[name]}, outside pyproject.toml's {requirement}"
        )


def test_the_makefile_installs_with_the_constraints() -> None:
    makefile = (ROOT / "Makefile").read_text()
    assert "-c constraints.txt" in makefile
    assert "constraints.txt" in next(line for line in makefile.splitlines() if line.startswith("$(STAMP):"))


def test_pip_itself_is_pinned_and_upgraded_to_the_pin() -> None:
    assert "pip" in _pins()
    upgrade = next(line for line in (ROOT / "Makefile").read_text().splitlines() if "--upgrade pip" in line)
    assert "-c constraints.txt" in upgrade


def test_the_raspberry_pi_install_uses_the_constraints() -> None:
    readme = (ROOT / "README.md").read_text()
    pi_section = readme.split("## On a real Raspberry Pi", 1)[1].split("\n## ", 1)[0]
    pip_lines = [line for line in pi_section.splitlines() if "pip install" in line]
    assert pip_lines and all("-c constraints.txt" in line for line in pip_lines)
