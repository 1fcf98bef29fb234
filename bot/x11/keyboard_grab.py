"""Whether another X client holds the keyboard (an active grab: a screen locker, a password
prompt, a window manager's Alt-Tab), which would get every key whoever has the focus.

Asking the server costs something: a grab of our own is refused with AlreadyGrabbed while
another client holds one, but one that succeeds sends the focused window FocusOut and
FocusIn events (modes NotifyGrab and NotifyUngrab, measured on Xvfb), and a game's
keyboard code may take those for a lost focus. So the server is asked once, when the
watch starts, and from then on the watch listens: every grab that begins or ends while
Fuse has the focus sends Fuse's window FocusOut/FocusIn with mode NotifyGrab or
NotifyUngrab, and a focus moved to Fuse during a grab comes with NotifyWhileGrabbed.
Any client may select those events on Fuse's window; nothing is sent to Fuse.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

from Xlib import X
from Xlib import display as xdisplay
from Xlib.error import XError

from logo_bot.bot.x11.pending import has_events

GRABBED_MODES = (X.NotifyGrab, X.NotifyWhileGrabbed)


@contextlib.contextmanager
def server_grabbed(dpy: xdisplay.Display, sync: bool = True) -> Iterator[None]:
    """No other client's request runs inside the block; afterwards a round trip (``sync``)
    or only a flush: the requests are sent either way, in order."""
    dpy.grab_server()
    try:
        yield
    finally:
        dpy.ungrab_server()
        if sync:
            dpy.sync()
        else:
            dpy.flush()


def grabbed_by_another(dpy: xdisplay.Display) -> bool:
    """Another client holds an active keyboard grab now (ask with the server grabbed).

    A grab of our own on the focused window (the root when there is none) is refused
    with AlreadyGrabbed while another client holds one; one that succeeds is let go at
    once (and sends the focused window focus events: see the module's docstring)."""
    try:
        focus = dpy.get_input_focus().focus
    except XError:
        focus = None
    window = focus if hasattr(focus, "grab_keyboard") else dpy.screen().root
    status = window.grab_keyboard(False, X.GrabModeAsync, X.GrabModeAsync, X.CurrentTime)
    if status == X.GrabNotViewable:
        root = dpy.screen().root
        status = root.grab_keyboard(False, X.GrabModeAsync, X.GrabModeAsync, X.CurrentTime)
    if status == X.GrabSuccess:
        dpy.ungrab_keyboard(X.CurrentTime)
        return False
    return status in (X.AlreadyGrabbed, X.GrabFrozen)


class GrabWatch:
    """Follows, from the focus events of ``window`` on connection ``dpy``, whether
    another client holds the keyboard; ``take`` is given every event read there, and
    passes each on to ``listeners`` (other watches on the same connection)."""

    def __init__(self, dpy: xdisplay.Display, window: Any) -> None:
        self.dpy = dpy
        self.listeners: list[Callable[[Any], None]] = []
        self.events = 0  # events read so far (any kind: each may change what was checked)
        attributes = window.get_attributes()
        window.change_attributes(event_mask=attributes.your_event_mask | X.FocusChangeMask)
        with server_grabbed(dpy):
            self.grabbed = grabbed_by_another(dpy)
        self.drain()  # the focus events of that one question

    def take(self, event: Any) -> None:
        self.events += 1
        if event.type in (X.FocusIn, X.FocusOut):
            self.grabbed = event.mode in GRABBED_MODES
        for listener in self.listeners:
            listener(event)

    def drain(self) -> None:
        """Read the events already received."""
        while has_events(self.dpy):
            self.take(self.dpy.next_event())

    def held(self) -> bool:
        """Another client holds the keyboard, as of the events received so far."""
        self.drain()
        return self.grabbed
