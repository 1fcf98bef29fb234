"""A grabber follows its window: the first grab after the window is resized or moved
has the new size and place (the window's own ConfigureNotify), not one up to
``follow_s`` later. A plain window on the test's Xvfb stands for Fuse's."""

from __future__ import annotations

import pytest
from Xlib import X

from logo_bot.bot.x11.display import open_display
from logo_bot.bot.x11.grab import open_grabber

pytestmark = pytest.mark.xserver


@pytest.mark.parametrize("backend", ["mss", "xlib"])
def test_the_first_grab_after_a_resize_or_move_has_the_new_size_and_place(xserver, backend):
    dpy = open_display(xserver.display)
    window = dpy.screen().root.create_window(10, 20, 320, 240, 0, X.CopyFromParent)
    window.map()
    dpy.sync()
    grabber = open_grabber(xserver.display, window.id, backend)
    try:
        grabber.follow_s = 3600.0  # never by the clock here
        assert grabber.grab().shape[:2] == (240, 320)
        window.configure(width=640, height=480)
        dpy.sync()
        assert grabber.grab().shape[:2] == (480, 640)
        window.configure(x=100, y=50)
        dpy.sync()
        grabber.grab()
        assert (grabber.region.left, grabber.region.top) == (100, 50)
    finally:
        grabber.close()
        window.destroy()
        dpy.close()
