"""``show --screenshot`` and ``calibrate --screenshot`` find the game's picture in a
screenshot of a Fuse window or a desktop, whatever bars and fill lie around it: any menu
bar height (the desktop's font), a dark theme's bars, a tiled window's black fill."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from logo_bot.bot.commands.game_window import game_window
from logo_bot.bot.profile import load_profile
from logo_bot.bot.see.shown import what_is_shown
from tests.bot.x11.test_picture import DARK_GREY, FIXTURES, GTK_GREY, HIDPI, game, window

PROFILE = load_profile("practice")


@pytest.mark.parametrize("scale", [1, 2, 3])
@pytest.mark.parametrize(
    ("menu", "bar", "size"),
    [
        (25, GTK_GREY, None),  # DejaVu Sans
        (27, GTK_GREY, None),  # Noto Sans
        (34, DARK_GREY, None),  # a 16 pt font, a dark theme
        (27, GTK_GREY, (1276, 984)),  # tiled by i3, larger than the picture
    ],
)
def test_the_picture_is_found_in_a_screenshot_of_a_fuse_gtk_window(scale, menu, bar, size):
    picture = game(scale)
    size = size or (320 * scale, 240 * scale + menu + 27)
    shot = window(picture, size, (0, menu), bars=(menu, 27), bar=bar)
    frame, placement = game_window(PROFILE, shot)
    assert np.array_equal(frame, picture)
    assert placement is not None and (placement.scale, placement.left, placement.top) == (
        scale,
        0,
        menu,
    )


def test_a_screenshot_that_is_the_picture_is_taken_whole():
    frame, placement = game_window(PROFILE, game(2))
    assert placement is None and frame.shape == (480, 640, 3)


def test_a_screen_without_a_level_is_found_too():
    """GAME OVER in a fuse-gtk window with Noto Sans's bars: no level to search for, the
    picture is found by its border and read as the game's screen."""
    over = np.asarray(Image.open(FIXTURES / "game_over_1x.png").convert("RGB"))
    shot = window(over, (320, 240 + 54), (0, 27), bars=(27, 27))
    frame, placement = game_window(PROFILE, shot)
    assert np.array_equal(frame, over) and placement is not None and placement.top == 27
    assert what_is_shown(PROFILE, frame) == "game_over"


def test_a_picture_like_rectangle_that_is_not_the_game_is_passed_over():
    """A desktop with a one-colour wallpaper and an icon looks like a 1x picture to the
    border search; the game's level elsewhere on it is what is found."""
    desktop = np.full((900, 1300, 3), (40, 90, 160), np.uint8)
    desktop[100:140, 100:140] = (255, 255, 255)  # an icon on the wallpaper
    desktop[300:780, 600:1240] = game(2)
    frame, placement = game_window(PROFILE, desktop)
    assert np.array_equal(frame, game(2))
    assert placement is not None and (placement.left, placement.top) == (600, 300)


def test_a_screenshot_of_a_hidpi_fuse_gtk_is_read_as_fuse_drew_it():
    """A real fuse-gtk window under GDK_SCALE=2: GTK drew the 1x picture twice as large,
    smoothly. It is found, and read as the same Fuse under GDK_SCALE=1 showed it."""
    shot = np.asarray(Image.open(HIDPI / "gtk_hidpi_window.png").convert("RGB"))
    twin = np.asarray(Image.open(HIDPI / "gtk_hidpi_twin.png").convert("RGB"))
    frame, placement = game_window(PROFILE, shot)
    assert np.array_equal(frame, twin)
    assert placement is not None
    assert (placement.scale, placement.top, placement.smooth) == (1, 54, 2)
    assert what_is_shown(PROFILE, frame) == "level"
