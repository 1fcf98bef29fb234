"""A connection of its own for the key events addressed to Fuse's window.

The key driver's python-xlib connection hears of the focus (``keyboard_grab.GrabWatch``,
``focus_ancestry``) and asks about it; the events themselves need none of python-xlib.
Through it, a key event's queueing, flush and round trip cost about 150-250 us of the
bot's CPU (its locks and its send-and-receive step, in Python); written to a socket of
its own (``raw_link.RawLink``) they cost a fraction (``benchmarks/cpu_parts.py``).

The link has the methods of a python-xlib display that the guard calls after the events
(``sync``: a round trip, after which the server has run them; ``flush``), so
``key_guard.send_to_window`` takes either. The server's errors for these events (a
window that has gone: Fuse has just ended) are counted and dropped, as the python-xlib
handler drops them (``window_keys.window_gone``); Fuse's end is found by its window and
process.
"""

from __future__ import annotations

from logo_bot.bot.x11.raw_link import open_link

DRAIN_EVERY = 64  # flushes between reads of what the server sent back (nearly always nothing)


class KeyLink:
    """A connection to X display ``display`` taken over for key events: ``send`` queues
    one (its bytes packed: ``packed.key_event``); ``root`` is the screen's root window."""

    def __init__(self, display: str) -> None:
        self._link = open_link(display)
        self.root = self._link.root
        self._flushes = 0
        self.send = self._link.send  # queues one request (two a key: no call in between)

    def flush(self) -> None:
        """Send what is queued; what came back (errors for a gone window) is read and
        dropped every ``DRAIN_EVERY`` flushes, and at every round trip."""
        self._link.flush()
        self._flushes += 1
        if self._flushes >= DRAIN_EVERY:
            self._flushes = 0
            self._link.poll()
            self._link.take_events()

    def sync(self) -> None:
        """Send what is queued and wait until the server has run it (one round trip)."""
        self._link.sync()
        self._link.take_events()

    @property
    def errors(self) -> int:
        """Errors the server sent for the events (a window gone)."""
        return self._link.errors

    def close(self) -> None:
        """Send what is queued and close the connection (again: nothing happens)."""
        self._link.close()
