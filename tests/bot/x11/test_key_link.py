"""The key events' own connection (``bot.x11.key_link``): an event reaches the client
that made the window, a round trip waits until the server has run it, and the errors for
a window that has gone are counted and dropped, however many, with nothing printed."""

from __future__ import annotations

import pytest
from Xlib import X

from logo_bot.bot.x11 import key_link
from logo_bot.bot.x11.display import open_display
from logo_bot.bot.x11.key_link import KeyLink
from logo_bot.bot.x11.packed import key_event

pytestmark = pytest.mark.xserver


def test_an_event_reaches_the_window_and_a_gone_window_costs_nothing(xserver, capfd):
    owner = open_display(xserver.display)
    link = KeyLink(xserver.display)
    try:
        window = owner.screen().root.create_window(0, 0, 20, 20, 0, X.CopyFromParent)
        owner.sync()
        link.send(key_event(link.root, window.id, 38, True, 0, 1))
        link.sync()  # the server has run it: it waits for the owner now
        owner.sync()
        event = owner.next_event()
        assert (event.type, event.detail, event.window.id) == (X.KeyPress, 38, window.id)

        window.destroy()
        owner.sync()
        sent = 3 * key_link.DRAIN_EVERY + 5  # more than one read's worth of errors
        for _ in range(sent):
            link.send(key_event(link.root, window.id, 38, False, 0, 2))
            link.flush()
        link.sync()
        assert link.errors == sent
        assert "BadWindow" not in capfd.readouterr().err
    finally:
        link.close()
        link.close()  # again: nothing happens
        owner.close()
