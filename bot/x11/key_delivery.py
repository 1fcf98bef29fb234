"""How a key event reaches Fuse: what every way of delivering one does, and XTest's.

A delivery sends one event on the key driver's connection (``send``), checks it with the
guard that fits it (``guarded``), and releases keys from another connection: from the
abort key's thread, under the same check (``release_on``), and at a forced end, with no
check (``release_plain``). There are three:

- ``XTestDelivery`` (here): XTest fake events by keycode, which go where the focus is;
  guarded by ``key_guard.send_grabbed`` (a server grab around the check and the event).
- ``window_keys.WindowDelivery`` (the default): events addressed to Fuse's window, which
  no other window can receive; guarded by ``key_guard.send_to_window`` (no server grab).
- ``keys_pyautogui.PyAutoGuiDelivery``: pyautogui's ``keyDown``/``keyUp``, XTest events
  on the driver's own connection, guarded as XTest's.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any, ClassVar

from Xlib import X
from Xlib import display as xdisplay
from Xlib.ext import xtest

from logo_bot.bot.x11.key_guard import FocusCheck, KeyEvent, send_grabbed


class KeyDelivery:
    """One way of delivering key events to Fuse's ``window`` on connection ``dpy``."""

    needs_xtest: ClassVar[bool] = True  # the X server must have the XTEST extension

    def __init__(self, dpy: xdisplay.Display, window: Any) -> None:
        self.dpy = dpy
        self.window = window

    def send(self, key: str, code: int, down: bool, held: Sequence[int]) -> None:
        """One event for ``key`` (``code``); ``held``: the keycodes the driver holds down
        now (a key being pressed is among them, a key being released still is)."""
        raise NotImplementedError

    def guarded(
        self,
        check: FocusCheck,
        releases: Sequence[KeyEvent],
        press: KeyEvent | None = None,
        sync: bool = True,
    ) -> bool:
        """``releases`` then ``press`` under this delivery's guard (``key_guard``):
        whether the press was sent."""
        raise NotImplementedError

    def release_on(self, dpy: xdisplay.Display, window_id: int, codes: list[int]) -> None:
        """Release ``codes`` from another connection (the abort key's thread)."""
        raise NotImplementedError

    def release_plain(self, dpy: xdisplay.Display, window_id: int, codes: list[int]) -> None:
        """Release ``codes`` from another connection with no check (a forced end)."""
        raise NotImplementedError

    def close(self) -> None:
        """Let go of what the delivery holds open (the driver's connection is the
        driver's to close)."""


def xtest_event(dpy: xdisplay.Display, code: int, down: bool) -> None:
    """One XTest key event: it goes where the server sends real keys."""
    xtest.fake_input(dpy, X.KeyPress if down else X.KeyRelease, code)


class XTestDelivery(KeyDelivery):
    """XTest fake key events by keycode, sent only while Fuse has the focus."""

    def send(self, key: str, code: int, down: bool, held: Sequence[int]) -> None:
        xtest_event(self.dpy, code, down)

    def guarded(
        self,
        check: FocusCheck,
        releases: Sequence[KeyEvent],
        press: KeyEvent | None = None,
        sync: bool = True,
    ) -> bool:
        return send_grabbed(check, releases, press, sync)

    def release_on(self, dpy: xdisplay.Display, window_id: int, codes: list[int]) -> None:
        """Each release under the same focus check as any release."""
        check = FocusCheck(dpy, window_id)
        for code in codes:
            send_grabbed(check, [KeyEvent(code, partial(xtest_event, dpy, code, False))])

    def release_plain(self, dpy: xdisplay.Display, window_id: int, codes: list[int]) -> None:
        for code in codes:
            xtest_event(dpy, code, False)
