"""The practice calibration profile's start sequence (bot.play.menus) in the real Fuse
reaches the first level, or a code's level."""

import pytest

from logo_bot.bot.play.codes import code_table
from logo_bot.bot.play.env import LogoEnv
from logo_bot.bot.play.menus import MenuDriver, expand_steps

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
        game.wait_frames(start.loaded_wait * 50)
        steps = expand_steps(start.sequence, {"code": start.code}, start.name, code, level)
        driver = MenuDriver(LogoEnv(game.session), game.session.wait_frames)
        driver.run(steps)
        assert driver.corrections == 0
        frame = game.wait_level()
        assert game.field("level", frame) == f"{level:03d}"
        assert game.field("name", frame) == start.name.ljust(LAYOUT.name_length)
        assert game.vision.preview(frame) == LEVELS.boards[level - 1]
    finally:
        game.close()
