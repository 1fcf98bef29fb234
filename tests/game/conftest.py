"""Fixtures of the game tests: the game built from the current sources into a temporary
folder (so the tests never run a stale game/build), and a build of the easy level set."""

from __future__ import annotations

import pytest

from game import build

from .levelfiles import easy_levels


@pytest.fixture(scope="session")
def game_build(tmp_path_factory):
    return build.build(tmp_path_factory.mktemp("practice"))


@pytest.fixture(scope="session")
def easy_build(tmp_path_factory):
    folder = tmp_path_factory.mktemp("easy")
    levels = easy_levels(folder / "levels.txt")
    return build.build(folder / "out", build.Inputs(levels=levels))
