"""The speed in Fuse's title, and the frames per second a wait counts on."""

from logo_bot.bot.x11.title_speed import frames_per_s, speed_in


def test_the_speed_is_read_from_fuse_sdls_title():
    assert speed_in("Fuse - 87%") == 87.0
    assert speed_in("Fuse - 15385%") == 15385.0
    assert speed_in("Fuse") is None, "fuse-gtk, or fuse-sdl in its first 20 ms"


def test_a_wait_counts_on_the_speed_shown_when_fuse_runs_slower_than_asked():
    nominal = 100.0  # frames per second at 200 %
    assert frames_per_s(None, nominal, 50.0) == nominal
    assert frames_per_s(60.0, nominal, 50.0) == 30.0, "a busy machine: 60 % shown"
    assert frames_per_s(230.0, nominal, 50.0) == nominal, "never faster than asked"
    assert frames_per_s(0.0, nominal, 50.0) == 0.5, "a stalled Fuse: 1 %, not for ever"
