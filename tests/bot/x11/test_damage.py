"""Waiting for the picture to change (``bot.x11.damage``), on a plain X window the test
draws into: woken by one DAMAGE report, several reports at once one wake-up with nothing
missed, and polling where the display has no DAMAGE."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator

import numpy as np
import pytest

from logo_bot.bot import interrupts
from logo_bot.bot.x11 import damage
from logo_bot.bot.x11.damage import DamageWatch, watch_picture
from logo_bot.bot.x11.picture_watch import PollWatch
from tests.bot.canvas import BLUE, HEIGHT, LONG_S, RED, WIDTH, Canvas, canvas_on, later
from tests.bot.own_xvfb import own_xvfb


@pytest.fixture
def canvas(xserver) -> Iterator[Canvas]:
    with canvas_on(xserver.display) as canvas:
        yield canvas


def red_at(frame: np.ndarray, x: int, y: int) -> bool:
    return tuple(frame[y, x]) == (255, 0, 0)


def test_a_change_wakes_the_wait_after_one_report_not_a_poll(canvas, xserver):
    armed: list[bool] = []

    def paint_while_waiting() -> None:  # the safe point before the wait sleeps
        if armed and not armed[-1]:
            canvas.paint(RED)
            armed.append(True)

    # a poll an hour long: a wait that ends before LONG_S ended on the report
    with DamageWatch(xserver.display, canvas.id, 3600, paint_while_waiting) as watch:
        assert watch.record()["seen_by"] == "damage"
        watch.look(canvas.grab)
        reports, wakeups = watch.reports, watch.wakeups  # the window's first drawing
        assert not watch.wait(time.monotonic()), "woken with nothing drawn"
        armed.append(False)
        assert watch.wait(later())
        assert armed[-1], "the wait did not sleep"
        assert (watch.reports - reports, watch.wakeups - wakeups) == (1, 1)
        assert red_at(watch.look(canvas.grab), 10, 10)


def test_several_reports_at_once_are_one_wake_up_and_none_is_missed(canvas, xserver):
    with DamageWatch(xserver.display, canvas.id) as watch:
        watch.look(canvas.grab)
        reports = watch.reports
        for i in range(4):  # four areas, drawn before the bot looks
            canvas.paint(RED, x=i * 16, y=i * 12, w=8, h=8)
        assert watch.wait(later())
        frame = watch.look(canvas.grab)
        assert all(red_at(frame, i * 16 + 1, i * 12 + 1) for i in range(4))
        assert watch.reports - reports == 1, "one report until the look cleared the damage"
        assert not watch.wait(time.monotonic()), "a second wake-up for what was seen"
        canvas.paint(BLUE, 40, 0, 8, 8)  # after the look: reported again
        assert watch.wait(later())
        assert tuple(watch.look(canvas.grab)[1, 41]) == (0, 0, 255)


def test_a_drawing_right_after_the_grab_is_not_missed(canvas, xserver):
    """Fuse draws between the look's grab and the next wait: the wait still wakes."""
    with DamageWatch(xserver.display, canvas.id) as watch:

        def grab_then_drawn() -> np.ndarray:
            frame = canvas.grab()
            canvas.paint(RED)
            return frame

        frame = watch.look(grab_then_drawn)
        assert not red_at(frame, 5, 5)
        assert watch.wait(later())
        assert red_at(watch.look(canvas.grab), 5, 5)


def test_changes_with_no_report_turn_the_watch_to_polling(canvas, xserver, monkeypatch):
    """Looks with no report that find another picture: DAMAGE is not to be trusted (from
    the second: the first may be a window popping up over Fuse)."""
    monkeypatch.setattr(damage, "VERIFY_S", 0.0)  # every look with no report is checked
    unreported = iter(np.full((HEIGHT, WIDTH, 3), shade, np.uint8) for shade in (7, 8))
    with DamageWatch(xserver.display, canvas.id, poll_s=0.001) as watch:
        watch.look(canvas.grab)
        watch.look(canvas.grab)  # the same picture, no report: all is well
        watch.look(lambda: next(unreported))  # not drawn in the window: unreported
        assert watch.record()["seen_by"] == "damage" and watch.unreported == 1
        watch.look(lambda: next(unreported))
        record = watch.record()
        assert record["seen_by"] == "polling" and "no DAMAGE report" in record["why"]
        watch.look(canvas.grab)
        assert watch.wait(later()), "polling wakes after its interval"


def test_a_stop_asked_for_ends_a_wait(canvas, xserver, monkeypatch):
    monkeypatch.setattr(interrupts, "SLICE_S", 0.05)
    calls: list[int] = []

    def safe_point() -> None:
        calls.append(1)
        if len(calls) == 3:  # the third slice of the wait
            interrupts.request("stopped by the test")
        interrupts.check()

    with DamageWatch(xserver.display, canvas.id, safe_point=safe_point) as watch:
        watch.look(canvas.grab)
        with pytest.raises(interrupts.Stopped):
            watch.wait(later())
    assert len(calls) == 3


def test_a_stop_asked_from_another_thread_wakes_a_wait_at_once(canvas, xserver, monkeypatch):
    monkeypatch.setattr(interrupts, "SLICE_S", 60.0)  # no safe point but the first
    with DamageWatch(xserver.display, canvas.id) as watch:
        watch.look(canvas.grab)
        threading.Timer(0.05, interrupts.request, ("stopped by the test",)).start()
        started = time.monotonic()
        with pytest.raises(interrupts.Stopped):
            watch.wait(later())
    assert time.monotonic() - started < LONG_S / 3  # woken by the request, not the deadline


def test_a_wait_wakes_for_the_callers_own_events(canvas, xserver):
    """A key driver waits for Fuse to draw or for its focus events, whichever comes."""
    read_fd, write_fd = os.pipe()
    try:
        with DamageWatch(xserver.display, canvas.id) as watch:
            watch.look(canvas.grab)
            os.write(write_fd, b"x")
            assert not watch.wait(later(), (read_fd,))
            assert watch.wakeups == 0
            # woken by its own events still, the wait says when Fuse has drawn meanwhile
            canvas.paint(RED)
            deadline = later()
            while not watch.wait(deadline, (read_fd,)):
                assert time.monotonic() < deadline, "the drawing was never said"
            assert red_at(watch.look(canvas.grab), 10, 10)
    finally:
        os.close(read_fd)
        os.close(write_fd)


@pytest.fixture
def display_without_damage() -> Iterator[str]:
    """An Xvfb started with its DAMAGE extension off."""
    with own_xvfb("-extension", "DAMAGE") as (display, _):
        yield display


@pytest.mark.xserver
def test_without_damage_the_picture_is_polled(display_without_damage):
    with canvas_on(display_without_damage) as canvas:
        assert not canvas.dpy.has_extension("DAMAGE")
        slices: list[int] = []

        def sliced() -> None:
            slices.append(1)

        with watch_picture(display_without_damage, canvas.id, 1.0, sliced) as watch:
            assert isinstance(watch, PollWatch)
            record = watch.record()
            assert record["seen_by"] == "polling" and "no DAMAGE" in record["why"]
            watch.look(canvas.grab)
            assert watch.wait(later()), "a poll is due after its interval"
            assert len(slices) > 2, "the poll did not sleep in slices, stops looked at"
            canvas.paint(RED)
            assert red_at(watch.look(canvas.grab), 3, 3)
