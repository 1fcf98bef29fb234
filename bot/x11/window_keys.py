"""Key events addressed to Fuse's window (``XSendEvent``): no other window can receive them.

An XTest event goes where the X server sends real keys: to the window with the focus, or
to a client that grabs the keyboard. The bot checks the focus with the server grabbed and
only then sends it, which is safe on a plain X server, where nothing moves the focus while
the server is grabbed. Under XWayland the compositor moves it anyway (measured on weston
10 and XWayland 22: the focus went to None inside another client's server grab), so a
press checked with Fuse focused could still land in the window that took the focus a
moment later. An event sent to Fuse's window goes to Fuse whatever has the focus and
whoever grabs the keyboard. Fuse takes such events (fuse-sdl and fuse-gtk, measured).

The focus is still checked before every press, as with XTest: a person working in another
window pauses the bot. A release always goes to Fuse, where the key was pressed.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from typing import Any

from Xlib import X
from Xlib import display as xdisplay

from logo_bot.bot.x11.key_delivery import KeyDelivery
from logo_bot.bot.x11.key_guard import FocusCheck, KeyEvent, send_to_window
from logo_bot.bot.x11.key_link import KeyLink
from logo_bot.bot.x11.packed import Packed, key_event

log = logging.getLogger(__name__)

# the modifier masks of the 8 rows of the X modifier mapping (Shift, Lock, Control, Mod1-5)
MODIFIER_MASKS = (
    X.ShiftMask,
    X.LockMask,
    X.ControlMask,
    X.Mod1Mask,
    X.Mod2Mask,
    X.Mod3Mask,
    X.Mod4Mask,
    X.Mod5Mask,
)


def modifier_masks(dpy: xdisplay.Display) -> dict[int, int]:
    """Keycode -> modifier mask, from the server's modifier mapping."""
    masks: dict[int, int] = {}
    for mask, codes in zip(MODIFIER_MASKS, dpy.get_modifier_mapping(), strict=False):
        for code in codes:
            if code:
                masks[code] = masks.get(code, 0) | mask
    return masks


def event_time() -> int:
    """A millisecond timestamp that grows (SDL 1.2 takes a release and a press of one key
    less than 2 ms apart for autorepeat)."""
    return int(time.monotonic() * 1000) & 0xFFFFFFFF


def window_gone(error: object, request: object) -> bool:
    """A key sent to a window that no longer exists (Fuse has just ended): nothing to do,
    the bot finds Fuse gone by its window and process. True: handled (python-xlib would
    print it otherwise)."""
    log.debug("a key event to a window that is gone: %s", error)
    return True


def send_key(
    dpy: xdisplay.Display | KeyLink, window: Any, keycode: int, down: bool, state: int
) -> None:
    """One key event sent to the client that made ``window``, and to no other: no event
    mask, so it goes to the client that made the window, Fuse (fuse-gtk selects no core
    key events there: GTK 3 reads keys through XInput 2). Packed with ``struct``
    (``packed.key_event``): python-xlib's packing cost more CPU than the rest of a key.
    Queued on the driver's ``KeyLink``, or on a python-xlib connection (another
    thread's, a forced end's)."""
    if isinstance(dpy, KeyLink):
        dpy.send(key_event(dpy.root, window.id, keycode, down, state, event_time()))
        return
    root = dpy.screen().root.id
    event = key_event(root, window.id, keycode, down, state, event_time())
    Packed(dpy.display, event, onerror=window_gone)


class WindowDelivery(KeyDelivery):
    """Key events sent to Fuse's window (core protocol events: no XTEST extension needed),
    checked with ``key_guard.send_to_window``: no event can reach another window. They
    go out on a connection of their own (``key_link``); the driver's connection hears of
    the focus."""

    needs_xtest = False

    _masks: dict[int, int] | None = None  # keycode -> modifier mask, asked once

    def __init__(self, dpy: xdisplay.Display, window: Any) -> None:
        super().__init__(dpy, window)
        self.link = KeyLink(dpy.get_display_name())

    def _state(self, code: int, down: bool, held: Sequence[int]) -> int:
        """The modifiers down before this event (a modifier's own release includes it)."""
        if self._masks is None:
            self._masks = modifier_masks(self.dpy)
        state = 0
        for held_code in held:
            if not (down and held_code == code):
                state |= self._masks.get(held_code, 0)
        return state

    def send(self, key: str, code: int, down: bool, held: Sequence[int]) -> None:
        send_key(self.link, self.window, code, down, self._state(code, down, held))

    def guarded(
        self,
        check: FocusCheck,
        releases: Sequence[KeyEvent],
        press: KeyEvent | None = None,
        sync: bool = True,
    ) -> bool:
        return send_to_window(check, releases, press, sync, self.link)

    def close(self) -> None:
        self.link.close()

    def release_on(self, dpy: xdisplay.Display, window_id: int, codes: list[int]) -> None:
        """Release ``codes`` in Fuse's window with no modifier state (a release always
        goes to Fuse, where the key was pressed)."""
        self.release_plain(dpy, window_id, codes)
        dpy.sync()

    def release_plain(self, dpy: xdisplay.Display, window_id: int, codes: list[int]) -> None:
        window = dpy.create_resource_object("window", window_id)
        for code in codes:
            send_key(dpy, window, code, False, 0)
