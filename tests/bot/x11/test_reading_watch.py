"""The watch that reads the picture too (``bot.x11.reading_watch``) and the connection it
writes itself (``bot.x11.raw_link``), on a plain X window the test draws into: one round
trip clears the damage and reads the window, a read the server refuses is the grabber's,
nothing drawn is missed, request numbers wrap as the server's do, and a display that
goes away is ``DisplayLost``."""

from __future__ import annotations

import subprocess
import time
from collections.abc import Iterator

import numpy as np
import pytest

from logo_bot.bot.errors import DisplayLost
from logo_bot.bot.x11 import reading_watch
from logo_bot.bot.x11.damage import DamageWatch
from logo_bot.bot.x11.display import open_display
from logo_bot.bot.x11.grab import MssGrabber, XlibGrabber
from logo_bot.bot.x11.packed import GET_INPUT_FOCUS
from logo_bot.bot.x11.picture_watch import PollWatch
from logo_bot.bot.x11.raw_link import RawLink
from logo_bot.bot.x11.reading_watch import ReadingWatch
from logo_bot.bot.x11.shm import ShmUnavailable
from logo_bot.bot.x11.watch_choice import watch_window
from tests.bot.canvas import BLUE, HEIGHT, RED, WIDTH, Canvas, canvas_on, colour, later, not_called
from tests.bot.own_xvfb import own_xvfb

NO_OPERATION = b"\x7f\x00\x01\x00"  # the core protocol's request of one word, no reply


@pytest.fixture
def canvas(xserver) -> Iterator[Canvas]:
    with canvas_on(xserver.display) as canvas:
        yield canvas


@pytest.fixture
def reading(canvas, xserver) -> Iterator[ReadingWatch]:
    with MssGrabber(xserver.display, canvas.id) as grabber:
        watch = watch_window(xserver.display, canvas.id, grabber)
        assert isinstance(watch, ReadingWatch)
        try:
            yield watch
        finally:
            watch.close()


def test_a_look_clears_the_damage_and_reads_the_window(canvas, reading):
    first = reading.look(not_called)
    assert first.shape == (HEIGHT, WIDTH, 3) and colour(first, 5, 5) == (0, 0, 0)
    assert not reading.wait(time.monotonic()), "woken with nothing drawn"
    reports = reading.reports
    canvas.paint(RED)
    assert reading.wait(later())
    assert reading.reports - reports == 1
    assert colour(reading.look(not_called), 5, 5) == (255, 0, 0)
    record = reading.record()
    assert record["read_by"] == "watch" and record["refused"] == 0
    assert reading.reads == 2 and record["seen_by"] == "damage"


def test_several_reports_at_once_are_one_wake_up_and_none_is_missed(canvas, reading):
    reading.look(not_called)
    reports = reading.reports
    for i in range(4):  # four areas, drawn before the bot looks
        canvas.paint(RED, x=i * 16, y=i * 12, w=8, h=8)
    assert reading.wait(later())
    frame = reading.look(not_called)
    assert all(colour(frame, i * 16 + 1, i * 12 + 1) == (255, 0, 0) for i in range(4))
    assert reading.reports - reports == 1, "one report until the look cleared the damage"
    assert not reading.wait(time.monotonic()), "a second wake-up for what was seen"
    canvas.paint(BLUE, 40, 0, 8, 8)  # after the look: reported again
    assert reading.wait(later())
    assert colour(reading.look(not_called), 41, 1) == (0, 0, 255)
    assert reading.unreported == 0


def test_a_read_the_server_refuses_is_the_grabbers(canvas, reading):
    """An unmapped window cannot be read (BadMatch): the grabber's picture is taken, with
    the damage cleared before it; mapped again, the watch reads it again."""
    reading.look(not_called)
    canvas.window.unmap()
    canvas.dpy.sync()
    blank = np.zeros((HEIGHT, WIDTH, 3), np.uint8)
    assert reading.look(lambda: blank) is blank
    assert reading.refused == 1
    canvas.window.map()
    canvas.paint(RED)
    assert reading.wait(later())
    assert colour(reading.look(not_called), 3, 3) == (255, 0, 0)
    assert reading.refused == 1 and reading.record()["refused"] == 1


def test_request_numbers_wrap_as_the_servers_do(canvas, xserver):
    """70,000 requests with no reply, then one with: the link finds its reply by the
    server's 16-bit count."""
    dpy = open_display(xserver.display)
    link = RawLink(dpy)
    try:
        start = link.send(NO_OPERATION)
        for _ in range(70_000):
            link.send(NO_OPERATION)
        serial = link.send(GET_INPUT_FOCUS)
        assert serial == (start + 70_001) % 65_536
        reply = link.reply(serial)
        assert reply[0] == 1 and len(reply) == 32 and link.errors == 0
    finally:
        link.close()


def test_without_shared_memory_the_damage_watch_is_kept(canvas, xserver, monkeypatch):
    def no_segment(*_args: object) -> None:
        raise ShmUnavailable("the X display has no MIT-SHM extension")

    monkeypatch.setattr(reading_watch, "ShmImage", no_segment)
    with MssGrabber(xserver.display, canvas.id) as grabber:
        watch = watch_window(xserver.display, canvas.id, grabber)
        try:
            assert type(watch) is DamageWatch
            assert watch.wait(later()), "the first look is due at once"
        finally:
            watch.close()


def test_other_grabbers_keep_the_damage_watch(canvas, xserver):
    with XlibGrabber(xserver.display, canvas.id) as grabber:
        watch = watch_window(xserver.display, canvas.id, grabber)
        try:
            assert type(watch) is DamageWatch
        finally:
            watch.close()


@pytest.mark.parametrize("reads", [False, True], ids=["damage", "reading"])
def test_a_window_gone_meanwhile_leaves_no_error_behind(canvas, xserver, capfd, reads):
    """Fuse ended: its window and the damage on it are gone; the last look (the grabber's)
    and the close neither raise nor print python-xlib's error report."""
    with MssGrabber(xserver.display, canvas.id) as grabber:
        if reads:
            watch = ReadingWatch(xserver.display, canvas.id, grabber=grabber)
        else:
            watch = DamageWatch(xserver.display, canvas.id)
        watch.look(canvas.grab)
        canvas.window.destroy()
        canvas.dpy.sync()
        blank = np.zeros((HEIGHT, WIDTH, 3), np.uint8)
        assert watch.look(lambda: blank) is blank
        watch.close()
        watch.close()
    assert capfd.readouterr().err == ""


@pytest.fixture
def own_display() -> Iterator[tuple[str, subprocess.Popen]]:
    """An Xvfb of the test's own, to end under the watch."""
    with own_xvfb() as started:
        yield started


@pytest.mark.xserver
def test_a_display_that_goes_away_is_display_lost(own_display):
    display, process = own_display
    dpy = open_display(display)
    window = dpy.screen().root.create_window(0, 0, WIDTH, HEIGHT, 0, 0, background_pixel=0)
    window.map()
    dpy.sync()
    grabber = MssGrabber(display, window.id)
    watch = ReadingWatch(display, window.id, grabber=grabber)
    watch.look(not_called)
    process.terminate()
    process.wait()
    with pytest.raises(DisplayLost):
        watch.look(not_called)
    watch.close()  # the display gone: nothing to tell it, and no error
    grabber.close()


@pytest.mark.xserver
def test_without_damage_the_picture_is_polled_after_one_try(monkeypatch):
    tries: list[int] = []
    create = DamageWatch._create

    def counted(self, window_id):
        tries.append(window_id)
        return create(self, window_id)

    monkeypatch.setattr(DamageWatch, "_create", counted)
    with (
        own_xvfb("-extension", "DAMAGE") as (display, _),
        canvas_on(display) as canvas,
        MssGrabber(display, canvas.id) as grabber,
    ):
        watch = watch_window(display, canvas.id, grabber)
        try:
            assert isinstance(watch, PollWatch) and "no DAMAGE" in watch.record()["why"]
            assert tries == [canvas.id], "DAMAGE was asked for once"
        finally:
            watch.close()
