"""Fuse's own menu over the picture, in real screenshots of fuse-sdl: its main menu at
1x, its filter menu at 2x and its main menu with the TV 2x filter (every other row
darker) are recognised; the game's own pictures, at every scale, are not."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from logo_bot.bot.see.fuse_menu import fuse_menu_shows

FIXTURES = Path(__file__).parent / "fixtures"
MENUS = ["fuse_menu_1x.png", "fuse_filter_menu_2x.png", "fuse_menu_tv_2x.png"]
GAME = sorted(p.name for p in FIXTURES.glob("*.png") if not p.name.startswith("fuse_"))


def picture(name: str) -> np.ndarray:
    return np.asarray(Image.open(FIXTURES / name).convert("RGB"))


@pytest.mark.parametrize("name", MENUS)
def test_fuses_menu_is_recognised(name):
    assert fuse_menu_shows(picture(name))


@pytest.mark.parametrize("name", MENUS)
def test_fuses_menu_enlarged_to_3x_is_recognised(name):
    """Fuse scales its widgets with the picture: whole blocks at any scale."""
    step = 2 if "2x" in name else 1
    own = picture(name)[::step, ::step]
    assert fuse_menu_shows(own.repeat(3, axis=0).repeat(3, axis=1))


@pytest.mark.parametrize("name", GAME)
def test_the_games_pictures_are_not_a_menu(name):
    assert len(GAME) >= 9
    assert not fuse_menu_shows(picture(name))


def test_the_menu_with_its_stripes_painted_over_is_not_a_menu():
    """It is the title bar's stripes that tell: the rest of the menu does not count."""
    menu = picture("fuse_menu_1x.png").copy()
    menu[40:48, 160:215] = 0  # the main menu's stripes, where the screenshot has them
    assert not fuse_menu_shows(menu)


def test_stripes_narrower_than_fuses_are_not_a_menu():
    menu = picture("fuse_menu_1x.png")
    assert not fuse_menu_shows(np.delete(menu, [180, 190, 200, 210], axis=1))
