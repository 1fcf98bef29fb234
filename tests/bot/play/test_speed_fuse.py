"""End-to-end: the emulation speed measured from the screen of the real game in Fuse
agrees with the speed Fuse was started at."""

from __future__ import annotations

import re

import pytest

from logo_bot.bot.fuse.assembly import SessionOptions, open_session
from logo_bot.bot.play.env import LogoEnv
from logo_bot.bot.play.speed import board_area, measure_speed
from logo_bot.bot.play.unattended import Walkthrough
from logo_bot.bot.profile import load_profile
from logo_bot.bot.x11.display import open_display

pytestmark = pytest.mark.fuse

PROFILE = load_profile("practice")


@pytest.mark.parametrize(("speed", "scale"), [(100, 1), (200, 2)])
def test_the_measured_speed_is_fuses(xserver, speed, scale):
    options = SessionOptions(display=xserver.display, headless=False, speed=speed, scale=scale)
    with open_session(PROFILE, options) as session:
        walk = Walkthrough(session, LogoEnv(session), PROFILE, 1, 1)
        walk.enter(1)
        walk.player.wait_level()
        area = board_area(PROFILE, scale)  # looked at each time Fuse draws, as the bot does
        reading = measure_speed(session.frame, area, wait_drawn=session.wait_drawn)
        own = fuses_own_speed(xserver.display, session.fuse.window_id)
    print(
        f"Fuse at {speed} %: measured {reading.percent} % from {reading.swaps} FLASH swaps; "
        f"Fuse's title says {own} %"
    )
    # Fuse says in its title how fast it ran the last emulated second: on a busy machine
    # that is less than --speed, and the reading must follow Fuse, not the option
    assert reading.percent == pytest.approx(own, rel=0.05)
    assert own == pytest.approx(speed, rel=0.15), "Fuse ran far from its speed"


def fuses_own_speed(display: str, window_id: int) -> float:
    """The speed in fuse-sdl's title ("Fuse - 190%"), set once per emulated second."""
    dpy = open_display(display)
    try:
        title = dpy.create_resource_object("window", window_id).get_wm_name()
    finally:
        dpy.close()
    match = re.search(r"(\d+)%", title or "")
    assert match, f"no speed in Fuse's title {title!r}"
    return float(match.group(1))
