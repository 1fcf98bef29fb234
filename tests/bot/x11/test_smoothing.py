"""Fuse's own pixels read back from a picture a HiDPI desktop's GTK drew larger, smoothly."""

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from logo_bot.bot.x11.smoothing import LEVELS, smoothed, unsmoothed
from tests.bot.x11.test_picture import FIXTURES, HIDPI


def fixture(name: str, folder: Path = FIXTURES) -> np.ndarray:
    return np.asarray(Image.open(folder / name).convert("RGB"))


def hidpi_fixture(name: str) -> np.ndarray:
    return fixture(name, HIDPI)


def level(scale: int = 1) -> np.ndarray:
    """A level of the practice game as Fuse draws it (a recorded picture), in the levels
    Fuse draws at 24 bits (the recording's are a 16-bit display's)."""
    pixels = fixture(f"play_{scale}x_a.png")
    return LEVELS[np.abs(pixels[..., None].astype(int) - LEVELS).argmin(axis=-1)].astype(np.uint8)


@pytest.mark.parametrize("moment", ["gtk_hidpi", "gtk_hidpi_title"])
def test_a_real_hidpi_fuse_gtk_reads_as_the_same_fuse_at_gdk_scale_1(moment):
    """fuse-gtk 1x under GDK_SCALE=2 (its whole window: Noto's menu bar 54 pixels tall,
    the picture below it), and a fuse-gtk under GDK_SCALE=1 at the same moment: level 1,
    and the title after a game over. The HiDPI one shows GTK's partial repaints: blends
    of letters and stones that the picture no longer has (the title's, many)."""
    window = hidpi_fixture(f"{moment}_window.png")
    twin = hidpi_fixture(f"{moment}_twin.png")
    picture = window[54:534]
    assert not np.isin(picture, LEVELS).all(), "the window shows blends"
    stale = (smoothed(twin, 2).astype(int) - picture).any(axis=2)
    assert stale.sum() > 10, "and blends of what was"
    np.testing.assert_array_equal(unsmoothed(picture, 2, strict=True), twin)


@pytest.mark.parametrize("factor", [2, 3])
@pytest.mark.parametrize("scale", [1, 2, 3])
def test_a_picture_smoothed_larger_reads_back_exactly(factor, scale):
    own = level(scale)
    np.testing.assert_array_equal(
        unsmoothed(smoothed(own, factor), factor, scale, strict=True), own
    )


def test_a_blend_is_read_as_the_pixel_the_neighbours_explain():
    """BRIGHT yellow beside black and plain yellow beside plain yellow show nearly the
    same window values (191 and 192): the pixel's neighbours decide."""
    own = np.zeros((8, 8, 3), np.uint8)
    own[2:6, 2:6] = (192, 192, 0)
    own[3, 3] = (255, 255, 0)
    own[6, 6] = (255, 255, 0)
    np.testing.assert_array_equal(unsmoothed(smoothed(own, 2), 2, strict=True), own)


def test_what_no_fuse_picture_smoothed_can_show_is_refused_when_strict():
    rng = np.random.default_rng(1)
    noise = rng.integers(0, 256, (480, 640, 3), dtype=np.uint8)
    assert unsmoothed(noise, 2, strict=True) is None
    assert unsmoothed(noise, 2).shape == (240, 320, 3), "read as nearly as it can be"
    assert unsmoothed(noise, 3, strict=True) is None
