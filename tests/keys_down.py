"""Keys left down on a test's X server: a press whose release never came stays down for
every later test on that server (the session's Xvfb outlives modules), so a leak is
caught at the test that made it, and the keys are let go for the tests after it."""

from __future__ import annotations

from Xlib import X
from Xlib.ext import xtest

from logo_bot.bot.x11.display import open_display


def keycodes_down(keymap: list[int]) -> list[int]:
    """The keycodes set in a QueryKeymap bit vector (32 bytes, bit k of byte k // 8)."""
    return [8 * i + bit for i, byte in enumerate(keymap) for bit in range(8) if byte >> bit & 1]


def release_keys_down(display: str) -> list[int]:
    """Release every key down on ``display``; the keycodes that were down."""
    dpy = open_display(display)
    try:
        down = keycodes_down(list(dpy.query_keymap()))
        for code in down:
            xtest.fake_input(dpy, X.KeyRelease, code)
        dpy.sync()
        return down
    finally:
        dpy.close()
