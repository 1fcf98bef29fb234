"""Fixtures of the game tests: the game built from the current sources into a temporary
folder (so the tests never run a stale game/build), and a build of the easy level set."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from game import build

from .gamefuse import ROOMY
from .levelfiles import easy_levels


@pytest.fixture(scope="session")
def game_build(tmp_path_factory):
    return build.build(tmp_path_factory.mktemp("practice"))


@pytest.fixture(scope="session")
def easy_build(tmp_path_factory):
    folder = tmp_path_factory.mktemp("easy")
    levels = easy_levels(folder / "levels.txt")
    return build.build(folder / "out", build.Inputs(levels=levels))


@pytest.fixture(scope="session")
def roomy_build(tmp_path_factory):
    """The practice game with the longest clock it allows (gamefuse.ROOMY)."""
    folder = tmp_path_factory.mktemp("roomy")
    layout = Path(build.LAYOUT_FILE).read_text()
    for name, seconds in ROOMY.items():
        layout, found = re.subn(rf"(?m)^{name} = \d+$", f"{name} = {seconds}", layout)
        assert found == 1, name
    (folder / "layout.toml").write_text(layout)
    return build.build(folder / "out", build.Inputs(layout=folder / "layout.toml"))
