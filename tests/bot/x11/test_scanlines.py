"""Fuse's graphics filters, read from real captures: the TV and Dot matrix filters give
back Fuse's own pixels, to the pixel of a Double or Triple size twin of the same moment;
the smoothing ones are said, never read.

Each fixture is fuse-sdl 1.6's window at the end of one RZX recording of level 1 played
back with that filter (the same emulated frame in every one: Fuse's end-of-playback
dialog over level 2).
"""

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from logo_bot.bot.see.fuse_menu import fuse_menu_shows
from logo_bot.bot.x11.filter_check import smoothed_filter
from logo_bot.bot.x11.fuse_sizes import FuseSizes
from logo_bot.bot.x11.picture import Box, find_picture, picture_at
from logo_bot.bot.x11.scanlines import BY_NAME, drawn_by

FIXTURES = Path(__file__).parent / "fixtures"
GTK_BARS = FuseSizes(extra=(0, 52), largest=(1280, 1012), desktop_scale=1)


def capture(name: str) -> np.ndarray:
    return np.asarray(Image.open(FIXTURES / f"filter_{name}.png").convert("RGB"))


@pytest.mark.parametrize(
    ("name", "twin", "pattern"),
    [("tv2x", "2x", "TV 2x"), ("tv3x", "3x", "TV 3x"), ("dotmatrix", "2x", "Dot matrix")],
)
def test_a_tv_or_dot_matrix_picture_is_read_to_the_pixel_of_its_plain_twin(name, twin, pattern):
    pixels, plain = capture(name), capture(twin)
    assert (pixels != plain).any(), "the filter darkens part of each block"
    found = find_picture(pixels)
    assert found == picture_at(0, 0, BY_NAME[pattern].scale, filter=pattern)
    assert not found.as_is
    np.testing.assert_array_equal(found.as_drawn(found.crop(pixels)), plain)
    assert find_picture(pixels, hint=found) == found


@pytest.mark.parametrize("name", ["2x", "3x"])
def test_a_plain_picture_is_never_taken_for_a_filtered_one(name):
    found = find_picture(capture(name))
    assert found is not None and found.as_is and found.filter == ""
    assert not any(drawn_by(capture(name), p) for p in BY_NAME.values() if p.scale == found.size)


def test_a_tv_picture_with_a_coloured_border_is_found_in_a_larger_window():
    """The darkened rows of a coloured border are not one colour with it: the picture is
    looked for among the blocks' own rows, at any place (a fuse-gtk's, under its menu)."""
    plain = capture("2x").copy()
    border = (plain == plain[0, 0]).all(axis=2)
    border[48:-48, 64:-64] = False
    plain[border] = (0, 0, 192)  # a blue border
    tv = plain.copy()
    tv[1::2] = (tv[1::2].astype(np.int32) * 7 // 8).astype(np.uint8)  # the scanlines
    window = np.full((480 + 60, 640 + 9, 3), (246, 245, 244), np.uint8)
    window[27 : 27 + 480, 3 : 3 + 640] = tv
    found = find_picture(window)
    assert found == Box(3, 27, 640, 480, filter="TV 2x")
    np.testing.assert_array_equal(found.as_drawn(found.crop(window)), plain)


def test_a_smoothing_filter_is_said_with_the_scale_fuse_sized_its_window_for():
    hq = capture("hq2x")
    assert find_picture(hq) is None
    assert smoothed_filter(hq, FuseSizes(), None) == 2
    advmame = capture("advmame3x")
    inside = find_picture(advmame)  # a piece of the screen, one colour round, not the picture
    assert inside is not None and inside.size == 1
    assert smoothed_filter(advmame, FuseSizes(), inside) == 3


def test_a_smoothing_filter_is_said_under_fuse_gtk_bars_too():
    hq = capture("hq2x")
    window = np.full((480 + 52, 640, 3), (246, 245, 244), np.uint8)
    window[25 : 25 + 480] = hq
    assert smoothed_filter(window, GTK_BARS, None) == 2


@pytest.mark.parametrize("name", ["2x", "3x", "tv2x", "tv3x", "dotmatrix"])
def test_a_picture_the_bot_reads_is_not_said_to_be_smoothed(name):
    pixels = capture(name)
    assert smoothed_filter(pixels, FuseSizes(), find_picture(pixels)) is None


def test_a_window_fuse_did_not_size_itself_is_not_judged():
    """A tiler's or a maximised window, or a HiDPI desktop's: the size says no scale."""
    hq = capture("hq2x")
    larger = np.zeros((500, 700, 3), np.uint8)
    larger[:480, :640] = hq
    assert smoothed_filter(larger, FuseSizes(), None) is None
    assert smoothed_filter(hq, FuseSizes(desktop_scale=2), None) is None


def test_fuses_menu_over_a_tv_picture_still_shows_in_the_picture_read():
    """The bot waits for Fuse's menu by its title bar's stripes in the frame it reads."""
    menu = np.asarray(
        Image.open(FIXTURES.parent.parent / "see" / "fixtures" / "fuse_menu_tv_2x.png").convert(
            "RGB"
        )
    )
    found = find_picture(menu)
    assert found is not None and found.filter == "TV 2x"
    assert fuse_menu_shows(found.as_drawn(found.crop(menu)))
