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
    """The project's dependencies and its test extra (what the Makefile installs)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return [Requirement(text) for text in project["dependencies"] + project["optional-dependencies"]["test"]]


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
