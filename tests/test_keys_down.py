"""tests.keys_down: the check that no test leaves a key down on the session's Xvfb."""

from Xlib import XK, X
from Xlib.ext import xtest

from logo_bot.bot.x11.display import open_display
from tests.keys_down import keycodes_down, release_keys_down


def test_keycodes_down_reads_the_keymap_bits():
    keymap = [0] * 32
    keymap[1] = 0b0000_0101  # keycodes 8 and 10
    keymap[31] = 0b1000_0000  # keycode 255
    assert keycodes_down(keymap) == [8, 10, 255]
    assert keycodes_down([0] * 32) == []


def test_a_key_left_down_is_found_and_let_go(xserver):
    dpy = open_display(xserver.display)
    try:
        code = dpy.keysym_to_keycode(XK.string_to_keysym("r"))
        xtest.fake_input(dpy, X.KeyPress, code)
        dpy.sync()
        assert release_keys_down(xserver.display) == [code]
        assert keycodes_down(list(dpy.query_keymap())) == []
    finally:
        dpy.close()
