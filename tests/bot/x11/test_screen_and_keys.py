import time

import numpy as np
import pytest
from Xlib import X
from Xlib.ext import xtest

from faults.thief import FocusThief
from logo_bot.bot.errors import FocusLost
from logo_bot.bot.fuse.emulator import Fuse, FuseConfig
from logo_bot.bot.x11.display import XServer, open_display
from logo_bot.bot.x11.grab import MssGrabber, XlibGrabber, open_grabber
from logo_bot.bot.x11.key_delivery import XTestDelivery
from logo_bot.bot.x11.keys import KeyTiming
from logo_bot.bot.x11.x11_keys import X11Keys
from tests.bot.emulated_frames import wait_emulated_frames
from tests.bot.opense import wait_booted

pytestmark = pytest.mark.fuse

WHITE = (192, 192, 192)  # OpenSE BASIC's paper and border, as Fuse draws them


def wait_for(predicate, timeout=30.0):
    """Poll ``predicate`` until it holds; the limit is generous (Fuse may run slow on a
    busy machine): only what is seen counts, never how fast it came."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.02)
    return False


def send_key_to_focus(display: str, keycode: int) -> None:
    """Press and release ``keycode`` with XTest, to whichever window has the focus."""
    dpy = open_display(display)
    try:
        xtest.fake_input(dpy, X.KeyPress, keycode)
        xtest.fake_input(dpy, X.KeyRelease, keycode)
        dpy.sync()
    finally:
        dpy.close()


def changed(grabber, before: np.ndarray) -> int:
    """How many pixels of the picture differ from ``before``."""
    return int((grabber.grab() != before).any(axis=2).sum())


@pytest.mark.parametrize(("scale", "size"), [(1, (320, 240)), (2, (640, 480)), (3, (960, 720))])
def test_grab_has_the_window_size_and_fuse_colours(xserver, scale, size):
    with Fuse.start(FuseConfig(scale=scale), xserver.display) as fuse:
        grabber = open_grabber(xserver.display, fuse.window_id)
        assert isinstance(grabber, MssGrabber)
        assert wait_for(lambda: tuple(grabber.grab()[5, 5]) == WHITE)
        frame = grabber.grab()
        assert frame.shape == (size[1], size[0], 3) and frame.dtype == np.uint8
        xlib = XlibGrabber(xserver.display, fuse.window_id)

        def same_picture() -> bool:  # the ROM may still be drawing: compare a still screen
            before, other, after = grabber.grab(), xlib.grab(), grabber.grab()
            return np.array_equal(before, after) and np.array_equal(before, other)

        assert wait_for(same_picture)
        grabber.close()


def test_xlib_grabs_a_16_bit_display():
    with (
        XServer.start(screen="640x480x16") as server,
        Fuse.start(FuseConfig(), server.display) as fuse,
    ):
        grabber = open_grabber(server.display, fuse.window_id)
        assert isinstance(grabber, XlibGrabber)
        assert wait_for(lambda: tuple(grabber.grab()[5, 5]) == WHITE)


def test_keys_reach_fuse_and_change_the_screen(xserver):
    with Fuse.start(FuseConfig(), xserver.display) as fuse:
        grabber = open_grabber(xserver.display, fuse.window_id)
        keys = X11Keys(xserver.display, fuse.window_id, XTestDelivery, KeyTiming(40, 40))
        before = wait_booted(grabber)  # the whole boot screen: BASIC waits for keys
        keys.type_text("print 7")
        keys.press("enter")
        assert keys.focused()
        assert wait_for(lambda: changed(grabber, before) > 100), "the keys changed nothing"
        keys.close()


def test_no_key_is_sent_when_another_window_has_focus(xserver, tmp_path):
    with (
        Fuse.start(FuseConfig(), xserver.display) as fuse,
        FocusThief(xserver.display, tmp_path / "keys.jsonl") as spy,
    ):
        grabber = open_grabber(xserver.display, fuse.window_id)
        keys = X11Keys(xserver.display, fuse.window_id, XTestDelivery, take_focus=False)
        before = wait_booted(grabber)  # the whole boot screen: BASIC waits for keys
        spy.steal()
        with pytest.raises(FocusLost, match="does not have the keyboard focus"):
            keys.type_text("print 7")
        # a key sent would show within a frame or two: let Fuse run 25 more
        wait_emulated_frames(xserver.display, fuse.window_id, 25)
        assert np.array_equal(grabber.grab(), before), "Fuse got a key"
        # the spy logs keys in the order X sends them: one the test sends it now comes
        # after any the bot sent, so once it is logged, the spy's log is complete
        marker = keys.keycode("m")
        send_key_to_focus(xserver.display, marker)
        assert wait_for(lambda: spy.keys_received() >= 2), "the spy logs no keys"
        got = [(e["type"], e["keycode"]) for e in spy.events()]
        assert got == [("press", marker), ("release", marker)], "the spy got a key of the bot"
        keys.close()


def test_pyautogui_backend_reaches_fuse_too(xserver):
    from logo_bot.bot.x11.keys_pyautogui import PyAutoGuiDelivery

    with Fuse.start(FuseConfig(), xserver.display) as fuse:
        grabber = open_grabber(xserver.display, fuse.window_id)
        keys = X11Keys(xserver.display, fuse.window_id, PyAutoGuiDelivery, KeyTiming(40, 40))
        before = wait_booted(grabber)  # the whole boot screen: BASIC waits for keys
        keys.type_text("print 7")
        keys.press("enter")
        assert wait_for(lambda: changed(grabber, before) > 100), "the keys changed nothing"
        keys.close()
