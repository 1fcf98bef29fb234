"""Noticing a window over Fuse's picture (``bot.x11.cover``) from the root's reports: the
stacking is asked for again only after a window at the top of the tree changed, and
every such change (mapped, moved, restacked, unmapped) is in the next fresh answer. A
plain window on the test's Xvfb stands for Fuse."""

from __future__ import annotations

import select
from collections.abc import Iterator

import pytest
from Xlib import X

from logo_bot.bot.x11 import cover, pending
from logo_bot.bot.x11.cover import CoverWatch
from logo_bot.bot.x11.display import open_display
from logo_bot.bot.x11.window import Region

pytestmark = pytest.mark.xserver


@pytest.fixture
def desk(xserver) -> Iterator[tuple]:
    dpy = open_display(xserver.display)
    root = dpy.screen().root
    fuse = root.create_window(0, 0, 200, 200, 0, X.CopyFromParent)
    other = root.create_window(300, 300, 100, 100, 0, X.CopyFromParent)
    fuse.map()
    dpy.sync()
    watch = CoverWatch(xserver.display, fuse.id, lambda: Region(0, 0, 200, 200), every_s=60)
    try:
        yield dpy, fuse, other, watch
    finally:
        watch.close()
        other.destroy()
        fuse.destroy()
        dpy.close()


def test_nothing_changed_nothing_asked(desk):
    _, _, _, watch = desk
    assert not watch.covered(fresh=True)
    asked = watch.asked
    for _ in range(50):
        assert not watch.covered(fresh=True)
        assert not watch.covered()
    assert watch.asked == asked, "the stacking was asked for with nothing changed"


def test_every_change_at_the_top_of_the_tree_is_in_the_next_fresh_answer(desk):
    dpy, fuse, other, watch = desk
    assert not watch.covered(fresh=True)
    steps = [
        (lambda: other.map(), False),  # mapped beside Fuse
        (lambda: other.configure(x=100, y=50), True),  # moved over it
        (lambda: fuse.configure(stack_mode=X.Above), False),  # Fuse raised over it
        (lambda: other.configure(stack_mode=X.Above), True),  # raised over Fuse again
        (lambda: other.unmap(), False),
    ]
    for change, covered in steps:
        change()
        dpy.sync()
        assert watch.covered(fresh=True) is covered


def test_a_change_is_read_when_due_without_being_asked_fresh(desk, monkeypatch):
    dpy, _, other, watch = desk
    monkeypatch.setattr(cover, "HEARD_S", 0.0)  # the reports read at every check
    assert not watch.covered(fresh=True)
    other.configure(x=100, y=50)
    other.map()
    dpy.sync()
    assert not watch.covered(), "read again before every_s with no fresh question"
    watch.every_s = 0.0
    dpy.sync()
    assert watch.covered()


def test_a_check_right_after_another_reads_no_reports_but_a_fresh_one_does(desk, monkeypatch):
    """A key's look and its press check within ``HEARD_S``: the second reads nothing."""
    dpy, _, other, watch = desk
    monkeypatch.setattr(cover, "HEARD_S", 60.0)  # however slow this machine is
    watch.every_s = 0.0
    assert not watch.covered(fresh=True)
    other.configure(x=100, y=50)
    other.map()
    dpy.sync()
    assert not watch.covered(), "the reports were read again"
    assert watch.covered(fresh=True)


def test_a_fresh_check_right_after_a_wait_found_the_reports_quiet_asks_no_round_trip(
    desk, monkeypatch
):
    """The wait before a burst watches the reports' connection: found empty less than
    ``QUIET_S`` ago, it needs no round trip; later, or once something came, it does."""
    dpy, _, other, watch = desk
    trips = []
    sync = watch._reports.sync
    monkeypatch.setattr(watch._reports, "sync", lambda: (trips.append(1), sync())[1])
    assert not watch.covered(fresh=True)
    assert len(trips) == 1
    monkeypatch.setattr(pending, "QUIET_S", 60.0)  # however slow this machine is
    fd = watch.fileno()
    pending.heard([fd], [])
    assert not watch.covered(fresh=True)
    assert len(trips) == 1, "a round trip though the wait had just found nothing"
    other.configure(x=100, y=50)
    other.map()
    dpy.sync()
    ready = select.select([fd], [], [], 5)[0]
    pending.heard([fd], ready)  # the wait found the report: the check reads it
    assert watch.covered(fresh=True)
    assert len(trips) == 2
    monkeypatch.setattr(pending, "QUIET_S", 0.0)
    pending.heard([fd], [])
    other.unmap()
    dpy.sync()
    assert not watch.covered(fresh=True), "no longer quiet: asked afresh"
    assert len(trips) == 3


def test_the_same_place_in_a_new_object_is_compared_once(desk, monkeypatch):
    """The grabber reads its place again every second (a new, equal object): the watch
    keeps the new one, and the checks after it compare by identity (two a key)."""
    _, _, _, watch = desk
    places = [Region(0, 0, 200, 200)]
    watch.area = lambda: places[-1]
    assert not watch.covered(fresh=True)
    places.append(Region(0, 0, 200, 200))
    compared: list[int] = []
    equal = Region.__eq__
    monkeypatch.setattr(Region, "__eq__", lambda a, b: compared.append(1) or equal(a, b))
    for _ in range(5):
        assert not watch.covered()
    assert len(compared) == 1
    asked = watch.asked
    places.append(Region(10, 0, 200, 200))  # moved: the stacking asked again when due
    watch.every_s = 0.0
    watch.covered()
    assert watch.asked == asked + 1
