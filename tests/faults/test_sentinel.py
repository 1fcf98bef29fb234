"""The sentinel says a theft only when the server gave it the focus, and is ready only once
its window can take it (a window that is not viewable cannot)."""

from __future__ import annotations

import pytest
from Xlib import X

from faults.sentinel import SentinelWindow, stolen
from logo_bot.bot.errors import BotError
from logo_bot.bot.x11.key_guard import focus_id


@pytest.fixture
def sentinel(xserver, tmp_path):
    window = SentinelWindow(xserver.display, tmp_path / "keys.jsonl")
    yield window
    window.close()


def test_ready_means_viewable_and_a_steal_takes_the_focus(sentinel):
    assert sentinel.window.get_attributes().map_state == X.IsViewable
    previous, took = sentinel.steal()
    assert took and focus_id(sentinel.dpy) == sentinel.window.id
    assert stolen(previous, took) == f"stolen {previous}"


def test_a_steal_the_server_refuses_is_a_miss_not_a_theft(sentinel):
    before = focus_id(sentinel.dpy)
    sentinel.window.unmap()
    sentinel.dpy.sync()
    previous, took = sentinel.steal(timeout_s=0.2)
    assert not took and previous == (before or 0)
    assert focus_id(sentinel.dpy) != sentinel.window.id
    assert stolen(previous, took) == f"missed {previous}"


def test_a_window_never_mapped_is_never_ready(sentinel):
    sentinel.window.unmap()
    sentinel.dpy.sync()
    with pytest.raises(BotError, match="not mapped within"):
        sentinel._wait_viewable(timeout_s=0.1)
