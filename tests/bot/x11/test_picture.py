"""The picture inside a Fuse window: fuse-sdl's whole window, or between GTK's bars."""

import numpy as np
import pytest

from logo_bot.bot.x11.picture import GTK_MENU_BAR, picture_box, scale_for, window_size
from logo_bot.bot.x11.window import Region

GTK_GREY = (246, 245, 244)


def gtk_window(scale: int, top: int, bottom: int, border=(0, 0, 192)) -> np.ndarray:
    """A fuse-gtk window: grey bars, a picture with a one-colour border and some ink."""
    w, h = 320 * scale, 240 * scale
    pixels = np.empty((top + h + bottom, w, 3), np.uint8)
    pixels[:] = GTK_GREY
    if top:
        pixels[top - 1] = (190, 190, 190)  # the line under GTK's menu bar
    pixels[top : top + h] = border
    pixels[top + 24 * scale : top + h - 24 * scale, 32 * scale : w - 32 * scale] = (192, 192, 0)
    pixels[top + 100, 100] = (0, 0, 0)
    return pixels


@pytest.mark.parametrize("scale", [1, 2, 3])
def test_fuse_sdl_window_is_the_picture(scale):
    box, found = picture_box(320 * scale, 240 * scale)
    assert found and (box.left, box.top, box.width, box.height) == (0, 0, 320 * scale, 240 * scale)


@pytest.mark.parametrize("scale", [1, 2, 3])
@pytest.mark.parametrize("bottom", [0, 27])
def test_gtk_picture_is_found_below_the_menu_bar(scale, bottom):
    pixels = gtk_window(scale, GTK_MENU_BAR, bottom)
    height, width = pixels.shape[:2]
    box, found = picture_box(width, height, pixels)
    assert found and box.top == GTK_MENU_BAR
    assert (box.width, box.height) == (320 * scale, 240 * scale)
    assert (box.crop(pixels)[0, 0] == (0, 0, 192)).all()


def test_a_taller_menu_bar_is_found_by_the_pixels():
    pixels = gtk_window(2, 31, 27, border=(248, 0, 0))
    box, found = picture_box(pixels.shape[1], pixels.shape[0], pixels)
    assert found and box.top == 31


def test_without_a_readable_border_the_gtk_layout_is_assumed_and_said_so():
    pixels = np.full((292, 320, 3), 128, np.uint8)
    box, found = picture_box(320, 292, pixels)
    assert not found and box.top == GTK_MENU_BAR
    assert scale_for(640) == 2 and scale_for(5000) == 3 and scale_for(10) == 1


def test_regions_intersect_only_when_they_overlap():
    fuse = Region(100, 100, 320, 240)
    assert fuse.intersects(Region(0, 0, 101, 101))
    assert not fuse.intersects(Region(0, 0, 100, 400))  # touching the left edge only
    assert not fuse.intersects(Region(420, 100, 50, 50))
    assert fuse.intersects(Region(400, 300, 50, 50))


def test_a_window_not_yet_drawn_is_not_taken_for_a_found_picture():
    """fuse-gtk before its first paint is one colour all over: no edge can be seen, so the
    layout is assumed and looked at again later."""
    box, found = picture_box(640, 532, np.zeros((532, 640, 3), np.uint8))
    assert not found and box.top == GTK_MENU_BAR


def tiled(scale: int, width: int, height: int, border=(0, 0, 0)) -> np.ndarray:
    """fuse-gtk in a window a tiler sized: the picture at the top left below the menu
    bar, the rest of the drawing area filled with the border's colour (black here)."""
    picture = gtk_window(scale, GTK_MENU_BAR, 0, border)
    pixels = np.zeros((height, width, 3), np.uint8)
    pixels[:] = border
    pixels[:GTK_MENU_BAR] = GTK_GREY
    pixels[height - 27 :] = GTK_GREY  # the status bar
    pixels[: picture.shape[0], : picture.shape[1]] = picture
    return pixels


@pytest.mark.parametrize(
    ("size", "scale"),
    [((1276, 984), 3), ((1276, 700), 2), ((700, 984), 2), ((320, 292), 1)],
)
def test_a_window_a_tiler_sized_shows_the_largest_picture_that_fits(size, scale):
    """i3 tiled fuse-gtk to 1276x984 and it drew 3x where 2x was asked (measured)."""
    assert scale_for(*size) == scale
    pixels = tiled(scale, *size)
    box, found = picture_box(*size, pixels)
    assert found, "the black fill below the picture is not taken for more border"
    assert (box.left, box.top, box.width, box.height) == (0, 25, 320 * scale, 240 * scale)


def test_the_window_sizes_fuse_gives_itself():
    assert scale_for(640, 480) == 2 and scale_for(960, 720) == 3  # fuse-sdl: the picture
    assert window_size("sdl", 2) == (640, 480)
    assert window_size("gtk", 1) == (320, 292) and window_size("gtk", 3) == (960, 772)
