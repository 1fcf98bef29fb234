"""The sizes a Fuse window gives itself, from the size hints it gives the window manager
(values as fuse-gtk and fuse-sdl set them, measured)."""

from types import SimpleNamespace

from Xlib.error import XError

from logo_bot.bot.x11.fuse_sizes import FuseSizes, fuse_sizes


class Window:
    def __init__(self, **hints):
        self.hints = SimpleNamespace(**hints) if hints else None

    def get_wm_normal_hints(self):
        return self.hints


class Gone(XError):
    """A window that went away: python-xlib raises an ``XError`` (BadWindow)."""

    def __init__(self):
        Exception.__init__(self, "BadWindow")

    def get_wm_normal_hints(self):
        raise self


def gtk(bars: int, scale_limit: int = 4) -> Window:
    """fuse-gtk's hints: the 1x picture with its bars as the smallest size, one picture a
    step, four pictures at most (Fuse's largest scale)."""
    return Window(
        min_width=320,
        min_height=240 + bars,
        max_width=320 * scale_limit,
        max_height=240 * scale_limit + bars,
    )


def test_fuse_gtk_adds_its_bars_whatever_their_height():
    for bars in (52, 54, 60):  # DejaVu Sans, Noto Sans, a 16 pt font
        sizes = fuse_sizes(gtk(bars))
        assert sizes.extra == (0, bars)
        assert [sizes.at(s) for s in (1, 2, 3)] == [
            (320, 240 + bars),
            (640, 480 + bars),
            (960, 720 + bars),
        ]
        assert sizes.own(640, 480 + bars) and not sizes.own(640, 482 + bars)


def test_a_window_beyond_the_largest_size_is_told():
    """sway tiled fuse-gtk to 1276x997, beyond its largest size 1280x985 (DejaVu): fuse-gtk
    drew no picture there."""
    sizes = fuse_sizes(gtk(25 + 27))
    assert sizes.largest == (1280, 1012)
    assert not sizes.beyond(1276, 984)
    assert sizes.beyond(1276, 1020) and sizes.beyond(1300, 700)


def test_fuse_sdl_is_its_picture():
    sizes = fuse_sizes(Window(min_width=640, min_height=480, max_width=640, max_height=480))
    assert sizes.extra == (0, 0) and sizes.at(3) == (960, 720)


def test_a_window_with_no_hints_is_taken_as_its_picture():
    for window in (Window(), Gone(), Window(min_width=0, min_height=0, max_width=0)):
        assert fuse_sizes(window) == FuseSizes()


def test_a_hidpi_desktop_doubles_fuse_gtk_and_it_is_told():
    """fuse-gtk under GDK_SCALE=2 (measured): smallest 640x588, largest 2560x2028."""
    sizes = fuse_sizes(Window(min_width=640, min_height=588, max_width=2560, max_height=2028))
    assert sizes.desktop_scale == 2
    assert fuse_sizes(gtk(54)).desktop_scale == 1
    sdl_2x = Window(min_width=640, min_height=480, max_width=640, max_height=480)
    assert fuse_sizes(sdl_2x).desktop_scale == 1, "fuse-sdl at 2x is no HiDPI"
