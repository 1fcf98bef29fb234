"""Noticing that another window covers Fuse's picture (X stacking order and geometry).

Which windows lie over Fuse changes only when a window at the top of the tree (a child
of the root: a program's window, a window manager's frame, a menu, a notification) is
created, mapped, unmapped, moved, resized, restacked, reparented or destroyed, and the X
server reports each of those to a client that selects ``SubstructureNotify`` on the
root. So the watch asks for the stacking and the geometries again only after such a
report (or when the picture's own place changed), and a fresh answer costs one round
trip, which brings in the reports of every change made before it.

The reports come on a connection of their own, written and read by ``raw_link.RawLink``
(a report only says "something changed", and the round trip before a burst costs a
third of python-xlib's there); the stacking and geometries are asked on a python-xlib
connection.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from Xlib import X
from Xlib.error import CatchError, XError
from Xlib.protocol import event

from logo_bot.bot.x11.display import open_display
from logo_bot.bot.x11.pending import quiet
from logo_bot.bot.x11.raw_link import open_link
from logo_bot.bot.x11.window import Region, covering, top_level

# A check this soon after the last one reads no reports (fresh ones always do): the look
# and the press of a key come this close together (a system call a key)
HEARD_S = 0.001


class CoverWatch:
    """Whether mapped windows stacked above Fuse's top-level window overlap the picture
    (``area()``, root coordinates). The answer is read again after the root reports a
    change at the top of the tree, at most every ``every_s`` seconds unless asked
    ``fresh``, so asking before every key press and every grab costs next to nothing."""

    def __init__(
        self, display: str, window_id: int, area: Callable[[], Region], every_s: float = 0.05
    ) -> None:
        self._dpy = open_display(display)
        self._closed = False
        try:
            self._reports = open_link(display, _hear_the_top)
        except BaseException:
            self._dpy.close()
            raise
        self._window = self._dpy.create_resource_object("window", window_id)
        self.area = area
        self.every_s = every_s
        self._checked = 0.0
        self._changed = True  # nothing asked yet
        self._area: Region | None = None
        self._over: list[Region] = []
        self._raised = -1e9
        self.raise_every_s = 0.5
        self.asked = 0  # answers read from the server (the stacking and geometries)
        self._heard_at = -1.0  # when the reports were last read (``time.perf_counter``)

    def over(self, fresh: bool = False) -> list[Region]:
        """The windows over the picture now (empty when it is uncovered). ``fresh`` (before
        a burst's first press): a round trip first, so that every change made before now
        has been reported, and the answer read again at once if one was; unless a wait
        found the reports' connection with nothing to read less than ``QUIET_S`` ago
        (``pending.heard``: the wait before the press watches it), which is as fresh."""
        if fresh and not quiet(self._reports.fileno()):
            self._reports.sync()
        if fresh or time.perf_counter() - self._heard_at >= HEARD_S:
            self._take_reports()
        area = self.area()
        if area is not self._area:
            if area != self._area:
                self._changed = True
            elif not self._changed:  # the same place in a new object: kept, to be
                self._area = area  # compared by identity from now on (twice a key)
        due = fresh or time.monotonic() - self._checked >= self.every_s
        if self._changed and due:
            self._changed = False
            self._area = area
            self.asked += 1
            try:
                self._over = covering(self._dpy, self._window, area)
            except XError:
                self._over = []  # the window is gone: that is noticed elsewhere
            self._checked = time.monotonic()
        return self._over

    def fileno(self) -> int:
        """The connection the root's reports come in on (to wait for one)."""
        return self._reports.fileno()

    def reported(self) -> bool:
        """A report has come in that the last answer does not include."""
        self._take_reports()
        return self._changed

    def _take_reports(self) -> None:
        """Read the root's reports received so far: any of them may change the answer."""
        self._heard_at = time.perf_counter()
        if self._reports.poll() or self._reports.events:
            self._reports.take_events()
            self._changed = True

    def covered(self, fresh: bool = False) -> bool:
        return bool(self.over(fresh))

    def raise_fuse(self) -> bool:
        """Put Fuse on top: ask the window manager to activate it (_NET_ACTIVE_WINDOW, as a
        taskbar does), and restack its top-level window where there is no window manager.
        Windows that no window manager manages (override-redirect notifications, menus)
        may stay on top: then the bot waits until they go. Asked at most every
        ``raise_every_s`` seconds: returns whether it asked this time."""
        if time.monotonic() - self._raised < self.raise_every_s:
            return False
        self._raised = time.monotonic()
        catch = CatchError()
        try:
            root = self._dpy.screen().root
            active = self._dpy.intern_atom("_NET_ACTIVE_WINDOW")
            message = event.ClientMessage(
                window=self._window,
                client_type=active,
                data=(32, [2, X.CurrentTime, 0, 0, 0]),  # 2: from a pager, not an app
            )
            mask = X.SubstructureRedirectMask | X.SubstructureNotifyMask
            root.send_event(message, event_mask=mask, onerror=catch)
            top_level(self._dpy, self._window).configure(stack_mode=X.Above, onerror=catch)
            self._dpy.sync()
        except XError:
            pass
        self._checked, self._changed = 0.0, True
        return True

    def close(self) -> None:
        """Close the display connection (once: a second close does nothing)."""
        if not self._closed:
            self._closed = True
            try:
                self._reports.close()
            finally:
                self._dpy.close()


def _hear_the_top(dpy: Any) -> None:
    """Select every change at the top of the tree on ``dpy`` (the reports' link)."""
    dpy.screen().root.change_attributes(event_mask=X.SubstructureNotifyMask)
