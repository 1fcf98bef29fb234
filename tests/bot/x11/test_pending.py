"""``has_events`` answers as python-xlib's ``pending_events`` does: no on a quiet
connection, yes once an event has come in (read or not yet read), and it still sends
what is queued to send."""

from __future__ import annotations

import pytest
from Xlib import X

from logo_bot.bot.x11.display import open_display
from logo_bot.bot.x11.pending import has_events

pytestmark = pytest.mark.xserver


def test_quiet_then_an_event_then_quiet_again(xserver):
    watcher, other = open_display(xserver.display), open_display(xserver.display)
    try:
        window = other.screen().root.create_window(0, 0, 20, 20, 0, X.CopyFromParent)
        other.sync()
        watched = watcher.create_resource_object("window", window.id)
        watched.change_attributes(event_mask=X.StructureNotifyMask)
        watcher.sync()
        assert not has_events(watcher)
        window.configure(width=30)
        other.sync()
        watcher.sync()  # the event is read into python-xlib's queue
        assert has_events(watcher)
        watcher.next_event()
        assert not has_events(watcher)
        window.configure(width=40)
        other.sync()  # the event waits in the socket, unread
        assert has_events(watcher)
        assert watcher.next_event().type == X.ConfigureNotify
        assert not has_events(watcher)
        window.destroy()
        other.sync()
    finally:
        watcher.close()
        other.close()


def test_a_request_queued_to_send_is_sent(xserver):
    dpy, other = open_display(xserver.display), open_display(xserver.display)
    try:
        window = dpy.screen().root.create_window(0, 0, 20, 20, 0, X.CopyFromParent)
        assert not has_events(dpy)  # and the window's creation has gone out
        other.sync()
        assert other.create_resource_object("window", window.id).get_geometry().width == 20
        window.destroy()
        dpy.sync()
    finally:
        dpy.close()
        other.close()


def test_a_closed_connection_raises_as_python_xlib_does(xserver):
    """``has_events`` on a connection already closed raises python-xlib's own error (the
    watches turn it into a lost display), not an error about the socket."""
    from Xlib.error import ConnectionClosedError

    dpy = open_display(xserver.display)
    dpy.close()
    with pytest.raises(ConnectionClosedError):
        has_events(dpy)


def test_a_connection_heard_quiet_is_not_asked_again_for_a_moment(xserver, monkeypatch):
    """After a ``select`` found nothing on it (``heard``), an event that comes is seen
    only once ``QUIET_S`` has passed, as if it had come then."""
    from logo_bot.bot.x11 import pending

    watcher, other = open_display(xserver.display), open_display(xserver.display)
    try:
        window = other.screen().root.create_window(0, 0, 20, 20, 0, X.CopyFromParent)
        other.sync()
        watcher.create_resource_object("window", window.id).change_attributes(
            event_mask=X.StructureNotifyMask
        )
        watcher.sync()
        monkeypatch.setattr(pending, "QUIET_S", 3600.0)
        pending.heard([watcher.fileno()], ())
        window.configure(width=30)
        other.sync()  # the event waits in the socket, unread
        assert not has_events(watcher), "asked again within QUIET_S"
        monkeypatch.setattr(pending, "QUIET_S", 0.0)
        assert has_events(watcher)
        watcher.next_event()
        monkeypatch.setattr(pending, "QUIET_S", 3600.0)
        pending.heard([watcher.fileno()], [watcher.fileno()])  # found ready: not quiet
        window.configure(width=40)
        other.sync()
        assert has_events(watcher)
        window.destroy()
        other.sync()
    finally:
        watcher.close()
        other.close()
