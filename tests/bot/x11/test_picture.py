"""The picture inside a Fuse window, found by what the window shows: at any scale and
place, whatever lies above, beside and below it."""

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from logo_bot.bot.x11 import picture
from logo_bot.bot.x11.picture import Box, border_holds, find_picture, guess_box, picture_at
from logo_bot.bot.x11.smoothing import smoothed
from logo_bot.bot.x11.window import Region

FIXTURES = Path(__file__).parents[1] / "see" / "fixtures"
# fuse-gtk 1x under GDK_SCALE=2 (the whole window), and under GDK_SCALE=1 (its picture)
HIDPI = Path(__file__).parent / "fixtures"
GTK_GREY = (246, 245, 244)
DARK_GREY = (53, 53, 53)  # a dark theme's bars


def game(scale: int) -> np.ndarray:
    """A level of the practice game as Fuse draws it at ``scale`` (a recorded picture)."""
    return np.asarray(Image.open(FIXTURES / f"play_{scale}x_a.png").convert("RGB"))


def title(scale: int) -> np.ndarray:
    """A picture with a black border and black paper (the title screen's kind): white
    text in the middle, nothing near the border."""
    pixels = np.zeros((240, 320, 3), np.uint8)
    pixels[100:108, 80:240:2] = (255, 255, 255)
    pixels[130:131, 90:200] = (255, 255, 0)
    return pixels.repeat(scale, axis=0).repeat(scale, axis=1)


def window(
    picture: np.ndarray,
    size: tuple[int, int],
    at: tuple[int, int],
    fill=(0, 0, 0),
    bars: tuple[int, int] = (0, 0),
    bar=GTK_GREY,
) -> np.ndarray:
    """A window of ``size`` with ``picture`` at ``at``, ``fill`` around it, and bars of
    the heights ``bars`` at its top and bottom, drawn over the fill."""
    width, height = size
    pixels = np.empty((height, width, 3), np.uint8)
    pixels[:] = fill
    top, bottom = bars
    pixels[:top] = bar
    if top:
        pixels[top - 1] = (222, 221, 220)  # the line under GTK's menu bar
    if bottom:
        pixels[height - bottom :] = bar
    x, y = at
    pixels[y : y + picture.shape[0], x : x + picture.shape[1]] = picture
    return pixels


@pytest.mark.parametrize("scale", [1, 2, 3])
def test_a_fuse_sdl_window_is_its_picture(scale):
    pixels = game(scale)
    assert find_picture(pixels) == Box(0, 0, 320 * scale, 240 * scale)


@pytest.mark.parametrize("scale", [1, 2, 3])
@pytest.mark.parametrize("menu", [25, 27, 31, 40])  # DejaVu, Noto, larger fonts
@pytest.mark.parametrize("status", [0, 27, 33])
def test_a_fuse_gtk_picture_is_found_below_a_menu_bar_of_any_height(scale, menu, status):
    picture = game(scale)
    size = (320 * scale, 240 * scale + menu + status)
    pixels = window(picture, size, (0, menu), bars=(menu, status))
    assert find_picture(pixels) == picture_at(0, menu, scale)


@pytest.mark.parametrize("make", [game, title])
@pytest.mark.parametrize(
    ("scale", "size", "menu"),
    [(3, (1276, 984), 27), (3, (1276, 997), 25), (2, (1276, 700), 27), (2, (700, 984), 40)],
)
def test_a_window_a_tiler_sized_shows_the_picture_at_its_top_left_in_black(make, scale, size, menu):
    """i3 tiled fuse-gtk to 1276x984 and it drew 3x at the top left of its drawing area,
    black around it: the border (black too) runs on into the fill."""
    pixels = window(make(scale), size, (0, menu), bars=(menu, 27))
    assert find_picture(pixels) == picture_at(0, menu, scale)


@pytest.mark.parametrize("scale", [1, 2, 3])
@pytest.mark.parametrize(
    ("at", "fill"),
    [((7, 3), (40, 40, 40)), ((101, 57), (255, 255, 255)), ((13, 200), (0, 0, 192))],
)
def test_a_picture_is_found_at_any_offset_in_any_fill(scale, at, fill):
    size = (320 * scale + 150, 240 * scale + 260)
    pixels = window(game(scale), size, at, fill=fill, bars=(0, 0))
    assert find_picture(pixels) == picture_at(*at, scale)


@pytest.mark.parametrize("scale", [1, 2, 3])
def test_a_dark_theme_changes_nothing(scale):
    size = (320 * scale, 240 * scale + 58)
    pixels = window(game(scale), size, (0, 29), bars=(29, 29), bar=DARK_GREY)
    assert find_picture(pixels) == picture_at(0, 29, scale)


def test_a_small_picture_in_a_large_black_image_is_not_taken_for_a_larger_scale():
    """A 1x picture whose border is black, in black: a 2x or 3x frame around it would
    have a black border too, but not whole blocks."""
    pixels = window(title(1), (1000, 800), (101, 99), fill=(0, 0, 0))
    found = find_picture(pixels)
    assert found is not None and found.scale == 1
    # black all round: the picture could sit anywhere its text stays inside the screen;
    # it is taken at the top left of those places, on whole blocks
    assert found.left <= 101 and found.top <= 99


def test_the_box_found_before_is_kept_while_it_holds_and_looked_for_again_after():
    pixels = window(game(2), (640, 534), (0, 27), bars=(27, 27))
    before = picture_at(0, 27, 2)
    assert find_picture(pixels, hint=before) == before
    moved = window(game(2), (640, 536), (0, 29), bars=(29, 27))
    assert find_picture(moved, hint=before) == picture_at(0, 29, 2)


def test_a_window_not_yet_drawn_shows_no_picture():
    """fuse-gtk before its first paint is one colour all over, and sway's tiled fuse-gtk
    paints its drawing area black: no picture shows in either."""
    assert find_picture(np.zeros((534, 640, 3), np.uint8)) is None
    sway = window(np.zeros((4, 4, 3), np.uint8), (1276, 997), (0, 27), bars=(27, 27))
    assert find_picture(sway) is None
    assert find_picture(sway, hint=picture_at(0, 27, 2)) is None
    assert guess_box(640, 534) == picture_at(0, 0, 2) and guess_box(200, 100).width == 200


def test_a_box_found_holds_while_its_border_is_one_colour():
    """The quick check of a box found before: the old scale's box over a picture drawn
    larger in the same window sees the larger picture's screen in its border."""
    assert border_holds(game(2)) and border_holds(title(3))
    larger = window(title(3), (960, 774), (0, 27), bars=(27, 27))
    assert not border_holds(picture_at(0, 27, 2).crop(larger))
    striped = game(1).copy()
    striped[::6, :8] = (0, 0, 255)  # a tape's loading stripes
    assert not border_holds(striped)


def test_a_picture_cut_by_the_window_edge_is_not_found():
    pixels = window(game(2)[:473], (640, 500), (0, 27), bars=(27, 0))
    assert find_picture(pixels) is None


def test_regions_intersect_only_when_they_overlap():
    fuse = Region(100, 100, 320, 240)
    assert fuse.intersects(Region(0, 0, 101, 101))
    assert not fuse.intersects(Region(0, 0, 100, 400))  # touching the left edge only
    assert not fuse.intersects(Region(420, 100, 50, 50))
    assert fuse.intersects(Region(400, 300, 50, 50))


def test_a_maximised_fuse_gtk_draws_4x_and_it_is_found_so():
    """openbox maximised fuse-gtk to 1280x987, and it drew its largest scale, 4x (its own
    size hints allow 1280 pixels): not a 1x picture inside the 4x one's black."""
    four = game(2).repeat(2, axis=0).repeat(2, axis=1)
    pixels = window(four, (1280, 987), (0, 27), bars=(27, 0))
    assert find_picture(pixels) == picture_at(0, 27, 4)


def test_a_picture_is_never_taken_at_a_fraction_of_its_scale(monkeypatch):
    """Were 4x not looked for, the 4x picture's black border and paper would hold 1x and
    2x frames of black round part of its screen: their blocks are whole at twice their
    scale too, so none is taken for the picture (it was, at 1x, before 4x was known)."""
    monkeypatch.setattr(picture, "SCALES", (3, 2, 1))
    four = game(2).repeat(2, axis=0).repeat(2, axis=1)
    pixels = window(four, (1280, 987), (0, 27), bars=(27, 0))
    assert find_picture(pixels) is None


def own_24bit(scale: int) -> np.ndarray:
    """A level as Fuse draws it at ``scale`` at 24 bits (the recording's BRIGHT is 16-bit)."""
    return np.where(game(scale) > 200, 255, game(scale)).astype(np.uint8)


def hidpi(scale: int, factor: int = 2) -> np.ndarray:
    """A level as fuse-gtk draws it at ``scale`` on a HiDPI desktop: GTK paints it
    ``factor`` times as large, smoothly."""
    return smoothed(own_24bit(scale), factor)


@pytest.mark.parametrize("factor", [2, 3])
@pytest.mark.parametrize("scale", [1, 2])
@pytest.mark.parametrize(
    ("at", "bars", "fill"),
    [
        ((0, 54), (54, 0), (0, 0, 0)),
        ((0, 50), (50, 54), (0, 0, 0)),
        ((9, 31), (0, 0), (40, 40, 40)),
    ],
)
def test_a_picture_a_hidpi_desktop_smoothed_is_found_to_the_pixel(factor, scale, at, bars, fill):
    picture = hidpi(scale, factor)
    size = (picture.shape[1] + at[0] + 30, picture.shape[0] + sum(bars) + 40)
    pixels = window(picture, size, at, fill=fill, bars=bars)
    found = find_picture(pixels)
    assert found is not None and (found.left, found.top, found.size) == (*at, scale * factor)
    assert found.smooth > 1 and find_picture(pixels, hint=found) == found
    # Fuse at 2x smoothed 3x and at 3x smoothed 2x look alike but at the blends: either
    # reading is the same Spectrum picture
    read = found.as_drawn(found.crop(pixels))
    assert read.shape == (240 * found.scale, 320 * found.scale, 3)
    np.testing.assert_array_equal(read[:: found.scale, :: found.scale], own_24bit(1))
    if scale * factor != 6:
        assert found == picture_at(*at, scale * factor, smooth=factor)


def test_a_real_hidpi_fuse_gtk_window_is_found_and_read():
    window_pixels = np.asarray(Image.open(HIDPI / "gtk_hidpi_window.png").convert("RGB"))
    twin = np.asarray(Image.open(HIDPI / "gtk_hidpi_twin.png").convert("RGB"))
    found = find_picture(window_pixels)
    assert found == Box(0, 54, 640, 480, smooth=2)
    np.testing.assert_array_equal(found.as_drawn(found.crop(window_pixels)), twin)


def test_a_picture_as_fuse_draws_it_is_never_taken_for_a_smoothed_one():
    for scale in (2, 4):
        own = game(2).repeat(scale // 2, 0).repeat(scale // 2, 1)
        pixels = window(own, (1300, 1000), (0, 27), bars=(27, 0))
        assert find_picture(pixels) == picture_at(0, 27, scale)
