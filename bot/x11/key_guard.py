"""The check around a key event: Fuse's window (or a window inside it) has the focus and
no other client holds the keyboard; and what goes out when the check fails.

One guard per way of delivering a key event, each taking the releases to send first and
at most one press (a rollover: one key goes up as the next goes down, for one check and
one round trip where two of each were needed), and returning whether the press was sent:

- ``send_grabbed``, for XTest events, which go where the focus is: the check and the
  events run with the X server grabbed, so that no other client runs in between (on a
  plain X server nothing then moves the focus; under XWayland the compositor still can).
  Without the focus a press is not sent, and a release is sent under a keyboard grab of
  our own where one can be had, so the window that has the focus receives nothing.
- ``send_to_window``, for events addressed to Fuse's window, which no other window can
  receive: no server grab; the check only pauses the bot (a press is not sent) while a
  person works in another window, and every release goes to Fuse, unchecked. The check
  before a press asks the server only when something may have changed: after a "yes" it
  stands until an event comes in on the connection (``FocusCheck.still_inside``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from Xlib import X
from Xlib import display as xdisplay
from Xlib.error import XError
from Xlib.ext import xtest

from logo_bot.bot.x11.focus_ancestry import FocusAncestry
from logo_bot.bot.x11.keyboard_grab import GrabWatch, server_grabbed
from logo_bot.bot.x11.window import is_within


def focus_id(dpy: xdisplay.Display) -> int | None:
    """The id of the window with the input focus (None for PointerRoot or no focus)."""
    try:
        focus = dpy.get_input_focus().focus
    except XError:
        return None
    return focus.id if hasattr(focus, "id") else None


def focus_within(dpy: xdisplay.Display, window_id: int) -> bool:
    """The input focus is on ``window_id`` or one of its descendants (fuse-gtk's focus is a
    1x1 input-only child of its client window)."""
    focus = focus_id(dpy)
    return focus is not None and (focus == window_id or is_within(dpy, focus, window_id))


@dataclass(frozen=True)
class KeyEvent:
    """One key event for a guard: its keycode, and how it is delivered."""

    code: int
    deliver: Callable[[], None]


@dataclass
class FocusCheck:
    """Whether keys may go to ``window_id`` on connection ``dpy``. ``watch`` follows other
    clients' keyboard grabs; ``ancestry`` (whose events the watch passes on) remembers
    which focus window lies inside ``window_id``. Without them the tree is walked."""

    dpy: xdisplay.Display
    window_id: int
    watch: GrabWatch | None = None
    ancestry: FocusAncestry | None = None
    # the watch's event count when the server last said "inside" (None: ask again)
    _inside_at: int | None = field(default=None, init=False, repr=False)

    def inside(self) -> bool:
        """``window_id`` or a window inside it has the focus: a round trip, which also
        brings in the focus events sent before it (to the watch, which passes them on to
        the ancestry, or to the ancestry itself)."""
        focus = focus_id(self.dpy)
        if self.watch is not None:
            self.watch.drain()
        elif self.ancestry is not None:
            while self.dpy.pending_events():
                self.ancestry.take(self.dpy.next_event())
        if self.ancestry is not None:
            inside = self.ancestry.holds(focus)
        else:
            inside = focus is not None and (
                focus == self.window_id or is_within(self.dpy, focus, self.window_id)
            )
        self._inside_at = self.watch.events if inside and self.watch is not None else None
        return inside

    def still_inside(self) -> bool:
        """``inside``, without a round trip while its last answer was yes and no event has
        come in since. The focus cannot leave Fuse's window, nor another client grab the
        keyboard, without the server sending that window a focus event (``GrabWatch``
        selects them; a focus child's move sends a structure event), so the answer
        stands until one is read; then the server is asked again."""
        if self.watch is not None and self._inside_at is not None:
            self.watch.drain()
            if self.watch.events == self._inside_at:
                return True
        return self.inside()

    def grabbed(self) -> bool:
        """Another client holds the keyboard, as of the events received so far."""
        return self.watch is not None and self.watch.held()

    def may_press(self) -> bool:
        """``still_inside`` and not ``grabbed``, with one read of the events received for
        both (``still_inside`` reads them where there is a watch)."""
        return self.still_inside() and not (self.watch is not None and self.watch.grabbed)


def send_grabbed(
    check: FocusCheck,
    releases: Sequence[KeyEvent],
    press: KeyEvent | None = None,
    sync: bool = True,
) -> bool:
    """XTest events (``releases``, then ``press``) under a server grab, after ``check``.

    Without the focus the press is not sent (False) and the releases go out under a
    keyboard grab of our own (``release_swallowed``). After the server is let go,
    ``sync`` waits for a round trip; without it the requests are only flushed (they are
    sent, and the server runs them in order, either way).
    """
    dpy = check.dpy
    with server_grabbed(dpy, sync):
        if check.inside():
            for event in releases:
                event.deliver()
            if press is None:
                return True
            if check.grabbed():
                return False
            press.deliver()
            return True
        if not releases:
            return False
        release_swallowed(dpy, [event.code for event in releases])
    while dpy.pending_events():  # the swallowed release came to us
        came = dpy.next_event()
        if check.watch is not None:
            check.watch.take(came)
    return press is None


class Outlet(Protocol):
    """Where the events went out: a python-xlib display, or a ``key_link.KeyLink``."""

    def sync(self) -> None: ...

    def flush(self) -> None: ...


def send_to_window(
    check: FocusCheck,
    releases: Sequence[KeyEvent],
    press: KeyEvent | None = None,
    sync: bool = True,
    outlet: Outlet | None = None,
) -> bool:
    """Events addressed to the window (``releases``, then ``press``), after ``check`` and
    with no server grab: each reaches the window whatever has the focus, so the releases
    always go out, unchecked, and the press only while ``check`` passes (asked afresh
    only after an event: ``FocusCheck.still_inside``). Then a round trip (``sync``) or a
    flush on the connection they went out on (``outlet``; by default the check's)."""
    out = check.dpy if outlet is None else outlet
    try:
        allowed = press is None or check.may_press()
        for event in releases:
            event.deliver()
        if press is not None and allowed:
            press.deliver()
        return allowed
    finally:
        out.sync() if sync else out.flush()


def release_swallowed(dpy: xdisplay.Display, codes: list[int]) -> None:
    """XTest releases of ``codes`` while another window has the focus, under a keyboard
    grab of our own where one can be had, so that the window receives nothing."""
    root = dpy.screen().root
    grab = root.grab_keyboard(False, X.GrabModeAsync, X.GrabModeAsync, X.CurrentTime)
    for code in codes:
        xtest.fake_input(dpy, X.KeyRelease, code)
    if grab == X.GrabSuccess:
        dpy.ungrab_keyboard(X.CurrentTime)
