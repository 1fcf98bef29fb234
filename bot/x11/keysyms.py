"""The X keycode of a key as the profiles name it ("q", "enter", "symbol", ...)."""

from __future__ import annotations

from Xlib import XK
from Xlib import display as xdisplay

from logo_bot.bot.errors import ProfileError

# Names the profiles use for keys that are not single characters.
KEYSYM_NAMES = {
    "space": "space",
    "enter": "Return",
    "return": "Return",
    "shift": "Shift_L",
    "caps": "Shift_L",
    "symbol": "Control_L",
    "delete": "BackSpace",
    "backspace": "BackSpace",
}


def keycode_of(dpy: xdisplay.Display, key: str) -> int:
    """``key``'s keycode on ``dpy``; ``ProfileError`` where the display has none."""
    name = KEYSYM_NAMES.get(key.lower(), key)
    sym = XK.string_to_keysym(name)
    code = dpy.keysym_to_keycode(sym) if sym else 0
    if not code:
        raise ProfileError(f"no keycode for key {key!r} on this X display")
    return code
