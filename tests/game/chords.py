"""Key chords (a key held while other keys are tapped) and long holds, with XTest.

bot.x11.keys presses one key at a time with a short hold; typing BASIC's quote on the
Spectrum needs SYMBOL SHIFT (host Control) held while P is tapped, and the game's
"one press, one move" needs a key held for a long time, so the tests use this.
"""

from __future__ import annotations

import time

from Xlib import XK, X
from Xlib.ext import xtest

from logo_bot.bot.x11.display import open_display


def chord(display: str, window_id: int, modifier: str, keys: list[str], gap_s: float = 0.15):
    """Hold ``modifier`` (a keysym name) while tapping each of ``keys`` in turn, with
    ``gap_s`` between taps (OpenSE BASIC ignores a repeated key sooner than ~100 ms).
    With no ``keys`` the modifier is simply held for ``gap_s``."""
    dpy = open_display(display)
    try:
        window = dpy.create_resource_object("window", window_id)
        window.set_input_focus(X.RevertToParent, X.CurrentTime)
        dpy.sync()

        def send(name: str, down: bool) -> None:
            code = dpy.keysym_to_keycode(XK.string_to_keysym(name))
            xtest.fake_input(dpy, X.KeyPress if down else X.KeyRelease, code)
            dpy.sync()

        send(modifier, True)
        time.sleep(gap_s)
        for key in keys:
            send(key, True)
            time.sleep(0.06)
            send(key, False)
            time.sleep(gap_s)
        send(modifier, False)
        time.sleep(gap_s)
    finally:
        dpy.close()
