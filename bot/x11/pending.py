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

import math
import select
import time
from collections.abc import Collection, Iterable

from Xlib import display as xdisplay

# A connection that a ``select`` found with nothing to read is taken to have nothing for
# this long after (``heard``): an event that comes meanwhile is read a moment later, as
# if it had come then. A wait's ``select`` tells this of the connections it watched, so
# the checks right after a wake ask no system call of them.
QUIET_S = 0.001
_quiet: dict[int, float] = {}  # file descriptor -> when nothing was there (perf_counter)


def heard(fds: Iterable[int], ready: Collection[int]) -> None:
    """A ``select`` has just found every one of ``fds`` not in ``ready`` with nothing to
    read (and those in it with something)."""
    now = time.perf_counter()
    for fd in fds:
        if fd in ready:
            _quiet.pop(fd, None)
        else:
            _quiet[fd] = now


def quiet(fd: int) -> bool:
    """Nothing was there to read on ``fd`` less than ``QUIET_S`` ago (``heard``)."""
    return time.perf_counter() - _quiet.get(fd, -math.inf) < QUIET_S


def has_events(dpy: xdisplay.Display) -> bool:
    """Events are queued on ``dpy`` (read now if they have come in)."""
    link = dpy.display  # a closed connection (socket_error) raises in pending_events
    if link.socket_error is None and not (link.event_queue or link.request_queue or link.data_send):
        socket = link.socket
        if quiet(socket.fileno()) or not select.select([socket], [], [], 0)[0]:
            return False
    return bool(dpy.pending_events())
