"""The focus window's place under Fuse's window is remembered until the server reports a
change on its walk (a private Xvfb, plain windows standing for Fuse's)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from Xlib import X

from logo_bot.bot.x11.display import XServer, open_display
from logo_bot.bot.x11.focus_ancestry import FocusAncestry
from logo_bot.bot.x11.keyboard_grab import GrabWatch

pytestmark = pytest.mark.xserver


@pytest.fixture
def ancestry_display() -> Iterator[str]:
    with XServer.start() as server:
        yield server.display


class Windows:
    """A top-level window (Fuse's) with a small child (fuse-gtk's focus child), made by
    another client than the one that checks."""

    def __init__(self, display: str) -> None:
        self.dpy = open_display(display)
        root = self.dpy.screen().root
        self.top = root.create_window(0, 0, 200, 200, 0, X.CopyFromParent)
        self.child = self.top.create_window(0, 0, 1, 1, 0, X.CopyFromParent)
        self.top.map()
        self.child.map()
        self.dpy.sync()

    def new_child(self):
        child = self.top.create_window(0, 0, 1, 1, 0, X.CopyFromParent)
        child.map()
        self.dpy.sync()
        return child


def checker(display: str, top_id: int) -> tuple[FocusAncestry, GrabWatch]:
    dpy = open_display(display)
    ancestry = FocusAncestry(dpy, top_id)
    watch = GrabWatch(dpy, dpy.create_resource_object("window", top_id))
    watch.listeners.append(ancestry.take)
    return ancestry, watch


def check(ancestry: FocusAncestry, watch: GrabWatch, focus: int) -> bool:
    """As the key driver checks: a round trip, the events read, then the answer."""
    watch.dpy.sync()
    watch.drain()
    return ancestry.holds(focus)


def test_a_focus_child_is_walked_once_then_remembered(ancestry_display):
    w = Windows(ancestry_display)
    ancestry, watch = checker(ancestry_display, w.top.id)
    assert check(ancestry, watch, w.child.id)
    assert check(ancestry, watch, w.child.id)
    assert check(ancestry, watch, w.top.id)
    assert ancestry.walks == 1


def test_a_window_elsewhere_is_not_inside_and_not_remembered(ancestry_display):
    w = Windows(ancestry_display)
    other = Windows(ancestry_display)
    ancestry, watch = checker(ancestry_display, w.top.id)
    assert not check(ancestry, watch, other.child.id)
    assert not check(ancestry, watch, other.child.id)
    assert ancestry.walks == 2
    assert not check(ancestry, watch, None)  # type: ignore[arg-type]


def test_a_reparented_focus_child_is_walked_again(ancestry_display):
    w = Windows(ancestry_display)
    ancestry, watch = checker(ancestry_display, w.top.id)
    assert check(ancestry, watch, w.child.id)
    w.child.reparent(w.dpy.screen().root, 0, 0)
    w.dpy.sync()
    assert not check(ancestry, watch, w.child.id)


def test_a_destroyed_focus_child_is_forgotten(ancestry_display):
    w = Windows(ancestry_display)
    ancestry, watch = checker(ancestry_display, w.top.id)
    assert check(ancestry, watch, w.child.id)
    gone = w.child.id
    w.child.destroy()
    w.dpy.sync()
    watch.dpy.sync()
    watch.drain()
    assert ancestry.known is None
    assert not check(ancestry, watch, gone)


def test_another_focus_window_is_walked_afresh(ancestry_display):
    w = Windows(ancestry_display)
    ancestry, watch = checker(ancestry_display, w.top.id)
    second = w.new_child()
    assert check(ancestry, watch, w.child.id)
    assert check(ancestry, watch, second.id)
    assert ancestry.walks == 2
    assert ancestry.known == second.id
