"""The practice calibration profile's start sequence (bot.menus) in the real Fuse
reaches the first level, or a code's level."""

import pytest

from bot.codes import code_table
from bot.menus import enter_game

from .gamefuse import LAYOUT, LEVELS, PROFILE, Game

pytestmark = pytest.mark.fuse


@pytest.mark.parametrize("level", [1, 16])
def test_profile_start_sequence(xserver, game_build, level):
    code = code_table(PROFILE).get(level)
    assert (code is None) == (level == 1)
    assert code == LEVELS.codes.get(level)
    start = PROFILE.start
    game = Game.open(xserver.display, game_build.z80, speed=200)
    try:
        session = game.session
        enter_game(PROFILE, session.keys, session.frame, session.frame_s, 1, start.name, code)
        frame = game.wait_level()
        assert game.field("level", frame) == f"{level:03d}"
        assert game.field("name", frame) == start.name.ljust(LAYOUT.name_length)
        assert game.vision.preview(frame) == LEVELS.boards[level - 1]
    finally:
        game.close()
