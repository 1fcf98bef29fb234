"""End-to-end: the emulation speed measured from the screen of the real game in Fuse
agrees with the speed Fuse was started at."""

from __future__ import annotations

import pytest

from bot.fuse.session import Session, SessionOptions
from bot.play.env import LogoEnv
from bot.play.speed import board_area, measure_speed
from bot.play.unattended import Walkthrough
from bot.profile import load_profile

pytestmark = pytest.mark.fuse

PROFILE = load_profile("practice")


@pytest.mark.parametrize(("speed", "scale"), [(100, 1), (200, 2)])
def test_the_measured_speed_is_fuses(xserver, speed, scale):
    options = SessionOptions(display=xserver.display, headless=False, speed=speed, scale=scale)
    with Session.open(PROFILE, options) as session:
        walk = Walkthrough(session, LogoEnv(session), PROFILE, 1, 1)
        walk.enter(1)
        walk.player.wait_level()
        reading = measure_speed(session.frame, board_area(PROFILE, scale))
    print(f"Fuse at {speed} %: measured {reading.percent} % from {reading.swaps} FLASH swaps")
    assert reading.percent == pytest.approx(speed, rel=0.05)
