"""The tape image (BASIC loader + code) loads and runs: typed LOAD "" under OpenSE
BASIC in the real Fuse (the Sinclair ROM cannot be shipped, so it is not tried here)."""

import pytest

from .chords import chord
from .gamefuse import LAYOUT, Game

pytestmark = pytest.mark.fuse


def test_the_tape_loads_with_load_and_starts_the_game(xserver, game_build):
    game = Game.open(xserver.display, tape=game_build.tap, speed=200)
    try:
        white = (192, 192, 192)  # OpenSE's paper: the ROM is ready
        game.wait_for(lambda f: tuple(f[30 * game.scale, 40 * game.scale]) == white, 200, "BASIC")
        game.wait_frames(25)
        game.type("load")
        chord(xserver.display, game.session.fuse.window_id, "Control_L", ["p", "p"])
        game.press("enter")
        game.wait_text(LAYOUT.screens["title"][-1], 400)
        game.press("space")
        game.wait_text(LAYOUT.screens["menu"][0])
    finally:
        game.close()
