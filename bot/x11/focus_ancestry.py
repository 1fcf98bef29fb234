"""Whether the focus window lies inside Fuse's window, remembered between key events.

fuse-gtk gives the focus to a 1x1 child of its client window, so a focus check is the
focus query and a walk up the tree (a round trip per level). The answer for one focus
window holds until a window on that walk is reparented or destroyed (an id may then be
used again for another window): the walk selects ``StructureNotify`` on each of them
before asking for its parent, so the server reports any such change, and a report
(or a different focus window) makes the next check walk again. The reports come in on
the same connection before the reply of any later focus query, so a check that reads
its events after the query never trusts a stale walk.
"""

from __future__ import annotations

from typing import Any

from Xlib import X
from Xlib import display as xdisplay
from Xlib.error import CatchError, XError

CHANGED = (X.DestroyNotify, X.ReparentNotify)


class FocusAncestry:
    """``holds(focus)``: ``focus`` is ``window_id`` or inside it; a positive walk is kept
    for that focus window until ``take`` is given an event that changes its ancestry."""

    def __init__(self, dpy: xdisplay.Display, window_id: int) -> None:
        self.dpy = dpy
        self.window_id = window_id
        self.known: int | None = None  # the focus window last found inside
        self._chain: set[int] = set()  # the windows walked for it (below window_id)
        self.walks = 0

    def take(self, event: Any) -> None:
        """An event read on the connection: forget the walk if it changed the chain."""
        window = getattr(event, "window", None)
        if event.type in CHANGED and window is not None and window.id in self._chain:
            self.forget()

    def forget(self) -> None:
        self.known = None
        self._chain = set()

    def holds(self, focus: int | None) -> bool:
        """``focus`` (a window id, None for none) is ``window_id`` or a descendant. Read the
        connection's events (``take``) after the focus query and before this."""
        if focus is None:
            return False
        if focus == self.window_id:
            return True
        if focus == self.known:
            return True
        self.forget()
        return self._walk(focus)

    def _walk(self, focus: int) -> bool:
        self.walks += 1
        root_id = self.dpy.screen().root.id
        chain: list[int] = []
        catch = CatchError()
        current = focus
        while current and current != root_id:
            if current == self.window_id:
                # every selection was made before its window's query: an error for one
                # of them has arrived by now, and then nothing is kept
                if catch.get_error() is None:
                    self.known, self._chain = focus, set(chain)
                return True
            window = self.dpy.create_resource_object("window", current)
            window.change_attributes(event_mask=X.StructureNotifyMask, onerror=catch)
            chain.append(current)
            try:
                parent = window.query_tree().parent
            except XError:
                return False
            current = parent.id if parent else 0
        return False
