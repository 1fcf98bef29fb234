"""Whether events wait on a python-xlib connection, at a tenth of ``pending_events``' cost.

The watches ask this some twenty times a key (has Fuse drawn, has the focus moved, has a
window changed) and the answer is nearly always no. python-xlib's ``pending_events``
takes its locks and runs its whole send-and-receive step to say so; when nothing is
queued to send, no event is queued already and the socket has nothing to read, a
``select`` with no timeout says the same. (python-xlib parses every whole event it
receives into its queue at once, so unread bytes are only ever part of one, and the
rest makes the socket readable again.)
"""

from __future__ import annotations

import select

from Xlib import display as xdisplay


def has_events(dpy: xdisplay.Display) -> bool:
    """Events are queued on ``dpy`` (read now if they have come in)."""
    link = dpy.display  # a closed connection (socket_error) raises in pending_events
    if link.socket_error is None and not (link.event_queue or link.request_queue or link.data_send):
        readable, _, _ = select.select([link.socket], [], [], 0)
        if not readable:
            return False
    return bool(dpy.pending_events())
