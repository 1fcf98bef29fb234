"""A Wayland desktop's XWayland (weston on a private Xvfb): told apart from a plain X
server, its root window has no picture, and Fuse's window is read all the same, by
itself, never through the root."""

from __future__ import annotations

import numpy as np
import pytest

from logo_bot.bot.errors import DisplayError
from logo_bot.bot.fuse.emulator import Fuse, FuseConfig
from logo_bot.bot.x11.display import XServer, display_type, open_display
from logo_bot.bot.x11.grab import ShmGrabber, XlibGrabber, open_grabber
from logo_bot.bot.x11.xwayland import DisplayType, root_readable
from tests.bot.opense import wait_booted


@pytest.mark.xserver
def test_xwayland_is_told_apart_from_a_plain_x_server(wayland, xserver):
    assert display_type(wayland.display) is DisplayType.XWAYLAND
    assert display_type(xserver.display) is DisplayType.X11
    found = XServer.existing(wayland.display)
    assert found.kind is DisplayType.XWAYLAND and found.version is not None
    assert found.version >= (21, 0, 0), found.version  # read from the vendor release
    assert found.describe().startswith(f"{wayland.display} (XWayland {found.version[0]}.")
    assert XServer.existing(xserver.display).kind is DisplayType.X11


@pytest.mark.fuse
@pytest.mark.parametrize(("build", "scale"), [("sdl", 1), ("sdl", 3), ("gtk", 2)])
def test_its_root_has_no_picture_and_the_fuse_window_is_read_itself(wayland, build, scale):
    dpy = open_display(wayland.display)
    try:
        assert not root_readable(dpy), "XWayland's root window has no picture"
    finally:
        dpy.close()
    config = FuseConfig(scale=scale, build=build, statusbar=build == "gtk")
    with Fuse.start(config, wayland.display) as fuse:
        grabber = open_grabber(wayland.display, fuse.window_id)
        try:
            assert isinstance(grabber, ShmGrabber), "the window itself, never the root"
            picture = wait_booted(grabber, scale)  # OpenSE's boot screen, read off XWayland
            assert picture.shape == (240 * scale, 320 * scale, 3)
            assert grabber.plain_grabs == 0, "shared memory, wherever the desktop put Fuse"
            with XlibGrabber(wayland.display, fuse.window_id) as plain:
                assert np.array_equal(plain.grab(), picture)
        finally:
            grabber.close()
        with pytest.raises(DisplayError, match=r"root window .* has no picture"):
            open_grabber(wayland.display, fuse.window_id, "mss")
