"""Closing a grabber or a cover watch twice does nothing the second time: a Fuse restart
cut short by a signal closes them, and then the session closes them again."""

from __future__ import annotations

import pytest

from faults.cover import CoverWindow
from logo_bot.bot.x11.cover import CoverWatch
from logo_bot.bot.x11.grab import MssGrabber, XlibGrabber
from logo_bot.bot.x11.window import Region

AREA = Region(0, 0, 320, 240)


@pytest.mark.parametrize("kind", [MssGrabber, XlibGrabber, "cover"])
def test_a_second_close_does_nothing(xserver, kind):
    with CoverWindow(xserver.display, AREA) as window:
        window.show()
        wid = window.window.id
        if kind == "cover":
            closing = CoverWatch(xserver.display, wid, lambda: AREA)
        else:
            closing = kind(xserver.display, wid)
            assert closing.grab().shape == (240, 320, 3)
        closing.close()
        closing.close()  # python-xlib: ConnectionClosedError, before
