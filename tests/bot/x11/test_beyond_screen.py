"""A picture partly beyond the screen is named, with the fix; one on it is not."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from logo_bot.bot.x11.window import Region, beyond_screen

SCREEN = SimpleNamespace(
    screen=lambda: SimpleNamespace(width_in_pixels=1280, height_in_pixels=1024)
)


@pytest.mark.parametrize(
    ("left", "top", "beyond"),
    [
        (0, 0, False),
        (320, 304, False),
        (480, 390, True),
        (-1, 0, True),
        (0, -1, True),
        (321, 0, True),
    ],
)
def test_a_picture_beyond_the_screen_edge_is_named_with_the_fix(left, top, beyond):
    error = beyond_screen(SCREEN, Region(left, top, 960, 720), 0, 0, 960, 720)
    assert (error is not None) == beyond
    if beyond:
        assert f"(960x720 at {left},{top}) reaches beyond the screen (1280x1024)" in str(error)
        assert "move the Fuse window so that all of it shows" in str(error)


def test_only_the_picture_counts_not_the_window_around_it():
    """fuse-gtk's status bar may hang below the screen while its picture shows whole."""
    window = Region(0, 1024 - 600, 640, 620)
    assert beyond_screen(SCREEN, window, 0, 25, 640, 480) is None
    assert beyond_screen(SCREEN, window, 0, 0, 640, 620) is not None
