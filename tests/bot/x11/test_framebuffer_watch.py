"""The picture watch that reads the bot's own Xvfb's screen file (``bot.x11.framebuffer``,
``bot.x11.framebuffer_watch``), on a plain X window the test draws into: a look asks the
server nothing, every drawing is reported and none is missed, a report still on its way
is no unreported change, a picture off the screen is the grabber's, and the file's name
is gone as soon as it is mapped."""

from __future__ import annotations

import struct
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from logo_bot.bot.errors import DisplayError, DisplayLost
from logo_bot.bot.x11 import damage, framebuffer_watch
from logo_bot.bot.x11 import display as display_module
from logo_bot.bot.x11.display import XServer, open_display
from logo_bot.bot.x11.framebuffer import Framebuffer, FramebufferUnavailable, Layout
from logo_bot.bot.x11.framebuffer_watch import FramebufferWatch
from logo_bot.bot.x11.grab import MssGrabber
from logo_bot.bot.x11.picture import Box
from logo_bot.bot.x11.reading_watch import ReadingWatch
from logo_bot.bot.x11.watch_choice import watch_window
from logo_bot.bot.x11.window import Region
from tests.bot.canvas import BLUE, HEIGHT, RED, WIDTH, Canvas, canvas_on, colour, later, not_called
from tests.bot.own_xvfb import own_xvfb


@pytest.fixture
def canvas(xserver) -> Iterator[Canvas]:
    with canvas_on(xserver.display) as canvas:
        yield canvas


@pytest.fixture
def watch(canvas, xserver) -> Iterator[FramebufferWatch]:
    with MssGrabber(xserver.display, canvas.id) as grabber:
        made = watch_window(xserver.display, canvas.id, grabber, xserver.framebuffer)
        assert isinstance(made, FramebufferWatch)
        try:
            yield made
        finally:
            made.close()


def header(**fields: int) -> bytes:
    """An XWD header of Xvfb's screen at depth 24, with ``fields`` changed."""
    values = {"size": 100, "version": 7, "pixmap": 2, "depth": 24, "width": 640,
              "height": 480, "bits_per_pixel": 32, "colours": 256} | fields  # fmt: skip
    words = [0] * 25
    words[:6] = [values[k] for k in ("size", "version", "pixmap", "depth", "width", "height")]
    words[11], words[12] = values["bits_per_pixel"], values["width"] * 4
    words[14:17] = [0xFF0000, 0x00FF00, 0x0000FF]
    words[19] = values["colours"]
    return struct.pack(">25I", *words)


def test_the_header_says_where_the_pixels_are():
    layout = Layout.parse(header())
    assert layout == Layout(640, 480, 2560, 100 + 256 * 12)


@pytest.mark.parametrize(
    "fields", [{"depth": 16, "bits_per_pixel": 16}, {"pixmap": 1}, {"version": 6}]
)
def test_a_screen_file_of_another_kind_is_refused(fields):
    with pytest.raises(FramebufferUnavailable):
        Layout.parse(header(**fields))


def test_a_view_has_the_pixels_a_read_copies_and_copies_none():
    """A patch reads the drawn rectangles as views of the screen file (no copy before the
    one into the picture), the same RGB pixels that ``read`` copies out."""
    layout = Layout(8, 4, 32, 0)
    bgrx = np.arange(8 * 4 * 4, dtype=np.uint8).reshape(4, 8, 4)
    framebuffer = Framebuffer(bytearray(bgrx.tobytes()), layout)  # type: ignore[arg-type]
    area = Region(2, 1, 3, 2)
    read, view = framebuffer.read(area), framebuffer.view(area)
    assert read is not None and view is not None
    assert np.array_equal(view, read)
    assert np.array_equal(read[0, 0], bgrx[1, 2, 2::-1])  # R, G, B from B, G, R, X
    assert np.shares_memory(view, framebuffer._pixels) and not np.shares_memory(read, view)
    assert framebuffer.view(Region(6, 0, 3, 1)) is None  # not wholly on the screen


def test_the_screen_file_is_mapped_and_its_name_gone_at_once(xserver):
    assert xserver.framebuffer is not None
    maps = Path(f"/proc/{xserver.process.pid}/maps").read_text()
    screen = [line for line in maps.splitlines() if "logo-bot-screen-" in line]
    assert screen and all(line.endswith("(deleted)") for line in screen), screen


def test_a_look_reads_the_screen_file_and_asks_the_server_nothing(canvas, watch):
    first = watch.look(not_called)
    assert first.shape == (HEIGHT, WIDTH, 3) and colour(first, 5, 5) == (0, 0, 0)
    assert not watch.wait(time.monotonic()), "woken with nothing drawn"
    canvas.paint(RED)
    assert watch.wait(later())
    requests = watch._link._serial
    frame = watch.look(not_called)
    assert colour(frame, 5, 5) == (255, 0, 0)
    assert watch._link._serial == requests, "a look sent a request"
    canvas.paint(BLUE)
    assert colour(frame, 5, 5) == (255, 0, 0), "a picture looked at changed afterwards"
    record = watch.record()
    assert record["read_by"] == "framebuffer" and record["seen_by"] == "damage"
    assert watch.reads == 2 and record["refused"] == 0


def test_every_drawing_is_reported_and_none_is_missed(canvas, watch):
    watch.look(not_called)
    reports = watch.reports
    for i in range(4):  # four areas, drawn before the bot looks
        canvas.paint(RED, x=i * 16, y=i * 12, w=8, h=8)
    assert watch.wait(later())
    frame = watch.look(not_called)
    assert all(colour(frame, i * 16 + 1, i * 12 + 1) == (255, 0, 0) for i in range(4))
    assert watch.reports - reports == 4, "a report for every drawing"
    assert not watch.wait(time.monotonic()), "a second wake-up for what was seen"
    canvas.paint(BLUE, 40, 0, 8, 8)  # after the look: reported
    assert watch.wait(later())
    assert colour(watch.look(not_called), 41, 1) == (0, 0, 255)
    assert watch.unreported == 0


def test_with_nothing_reported_a_look_keeps_the_last_picture(canvas, watch, monkeypatch):
    """The whole picture is read again at most every VERIFY_S; in between, nothing."""
    first = watch.look(not_called)
    reads = watch.reads
    assert watch.look(not_called) is first
    assert watch.reads == reads and watch.kept == 1 and watch.record()["kept"] == 1
    canvas.paint(RED)
    assert colour(watch.look(not_called), 5, 5) == (255, 0, 0), "reported: read again"
    monkeypatch.setattr(framebuffer_watch, "VERIFY_S", 0.0)  # the check due at every look
    reads, patched = watch.reads, watch.patched
    watch.look(not_called)
    assert watch.reads == reads + 1 and watch.patched == patched and watch.unreported == 0


def test_a_look_reads_again_only_the_rectangles_drawn_since_the_last(canvas, watch):
    first = watch.look(not_called)
    canvas.paint(RED, 4, 4, 8, 8)
    canvas.paint(BLUE, 30, 20, 10, 6)
    canvas.paint(RED, WIDTH - 3, HEIGHT - 3, 8, 8)  # partly outside the window
    assert watch.wait(later())
    frame = watch.look(not_called)
    assert watch.patched == 1 and watch.record()["patched"] == 1
    np.testing.assert_array_equal(frame, canvas.grab())
    assert colour(first, 5, 5) == (0, 0, 0), "the last picture was changed"
    canvas.paint(BLUE, 0, 0, 2, 2)
    assert watch.wait(later())
    np.testing.assert_array_equal(watch.look(not_called), canvas.grab())
    assert watch.patched == 2


def test_a_picture_no_one_else_holds_is_patched_where_it_lies(canvas, watch):
    """A copy of the last picture is made only while someone still holds it (as the
    previous test's ``first``); else its drawn rectangles are read into it."""
    last = id(watch.look(not_called))  # the watch alone holds the picture now
    canvas.paint(RED, 4, 4, 8, 8)
    assert watch.wait(later())
    frame = watch.look(not_called)
    assert id(frame) == last and watch.in_place == 1 and watch.record()["in_place"] == 1
    np.testing.assert_array_equal(frame, canvas.grab())
    canvas.paint(BLUE, 4, 4, 8, 8)  # ``frame`` is held now: the next look copies
    assert watch.wait(later())
    np.testing.assert_array_equal(watch.look(not_called), canvas.grab())
    assert colour(frame, 5, 5) == (255, 0, 0) and watch.in_place == 1 and watch.patched == 2


def test_a_look_right_after_a_wait_takes_no_reports_again(canvas, watch, monkeypatch):
    """The wait has just read them: the look asks the connection nothing (a few system
    calls a key); a look later than ``FRESH_S`` after it does."""
    monkeypatch.setattr(damage, "FRESH_S", 60.0)  # however slow this machine is
    polls = []
    poll = watch._link.poll
    monkeypatch.setattr(watch._link, "poll", lambda **kw: polls.append(1) or poll(**kw))
    watch.look(not_called)
    canvas.paint(RED, 4, 4, 8, 8)
    assert watch.wait(later())
    polls.clear()
    np.testing.assert_array_equal(watch.look(not_called), canvas.grab())
    assert polls == []
    monkeypatch.setattr(damage, "FRESH_S", 0.0)  # every look is late
    canvas.paint(BLUE, 4, 4, 8, 8)
    assert watch.wait(later())
    polls.clear()
    np.testing.assert_array_equal(watch.look(not_called), canvas.grab())
    assert polls == [1]


def test_a_report_read_in_with_a_reply_ends_a_wait_at_once(canvas, watch):
    """No longer on the socket, it wakes no ``select``: the wait takes it first."""
    watch.look(not_called)
    canvas.paint(RED, 4, 4, 8, 8)
    watch._link.sync()  # the report comes in before the reply
    assert watch._link.buffered()
    assert watch.wait(time.monotonic()), "the report read in was not seen"
    np.testing.assert_array_equal(watch.look(not_called), canvas.grab())


def test_many_rectangles_are_one_read_of_the_whole_picture(canvas, watch):
    watch.look(not_called)
    for i in range(framebuffer_watch.MOST_AREAS + 1):
        canvas.paint(RED if i % 2 else BLUE, i % WIDTH, 0, 1, 1)
    assert watch.wait(later())
    np.testing.assert_array_equal(watch.look(not_called), canvas.grab())
    assert watch.patched == 0


def test_a_report_still_on_its_way_is_no_unreported_change(canvas, watch, monkeypatch):
    """The read saw a drawing whose report had not come in yet: the round trip brings it
    in, and the drawing counts as reported (the next wait returns at once)."""
    monkeypatch.setattr(framebuffer_watch, "VERIFY_S", 0.0)  # no look keeps the last
    watch.look(not_called)
    canvas.paint(RED)
    monkeypatch.setattr(watch._link, "poll", lambda: None)  # the report not read yet
    assert colour(watch.look(not_called), 5, 5) == (255, 0, 0)
    assert watch.unreported == 0 and not watch.polling
    assert watch.wait(time.monotonic()), "the report, read late, wakes the next wait"


def test_a_picture_not_wholly_on_the_screen_is_the_grabbers(canvas, watch, xserver):
    watch.look(not_called)
    width = xserver.framebuffer.layout.width
    canvas.window.configure(x=width - WIDTH // 2)
    canvas.dpy.sync()
    blank = np.zeros((HEIGHT, WIDTH, 3), np.uint8)
    assert watch.look(lambda: blank) is blank
    assert watch.refused == 1


@pytest.mark.xserver
def test_without_a_screen_file_the_server_is_read_through_shared_memory(monkeypatch):
    def unavailable(folder: Path) -> Framebuffer:
        raise FramebufferUnavailable("no screen file")

    monkeypatch.setattr(Framebuffer, "open", unavailable)
    with XServer.start() as server, canvas_on(server.display) as canvas:
        assert server.framebuffer is None
        with MssGrabber(server.display, canvas.id) as grabber:
            made = watch_window(server.display, canvas.id, grabber, server.framebuffer)
            try:
                assert type(made) is ReadingWatch
                assert colour(made.look(not_called), 1, 1) == (0, 0, 0)
            finally:
                made.close()


@pytest.mark.xserver
def test_an_xvfb_that_does_not_start_leaves_no_screen_folder(tmp_path, monkeypatch):
    folder = tmp_path / "screen"
    folder.mkdir()
    monkeypatch.setattr(display_module, "screen_folder", lambda: folder)
    with pytest.raises(DisplayError):
        XServer.start(screen="not-a-size")
    assert not folder.exists()


@pytest.mark.xserver
def test_a_display_that_goes_away_is_display_lost_even_for_a_look_that_keeps(tmp_path):
    """A look with nothing reported reads no picture, but it still reads the reports: a
    display gone meanwhile is ``DisplayLost`` there too."""
    folder = tmp_path / "screen"
    folder.mkdir()
    with own_xvfb("-fbdir", str(folder)) as (display, process):
        framebuffer = Framebuffer.open(folder)
        dpy = open_display(display)  # the window's: it goes with the display
        window = dpy.screen().root.create_window(0, 0, WIDTH, HEIGHT, 0, 0, background_pixel=0)
        window.map()
        dpy.sync()
        grabber = MssGrabber(display, window.id)
        watch = FramebufferWatch(display, window.id, grabber=grabber, framebuffer=framebuffer)
        watch.look(not_called)
        process.terminate()
        process.wait()
        with pytest.raises(DisplayLost):
            watch.look(not_called)
        watch.close()
        grabber.close()
        framebuffer.close()


def packed(sighting: framebuffer_watch.Sighting, x: int, y: int) -> int:
    """Pixel (x, y) of a sighting's picture as 0xRRGGBB."""
    return sighting.pixels[(sighting.top + y) * sighting.stride + sighting.left + x] & 0xFFFFFF


def test_a_sighting_gives_the_areas_drawn_since_the_last_and_a_look_still_reads_them(canvas, watch):
    """The screen file's own pixels and the areas drawn since the last sighting; the
    wait that follows waits for a new drawing, and the next look reads the areas too."""
    watch.look(not_called)
    first = watch.sighting()
    assert first is not None and first.areas is None, "the first sighting reads all"
    assert (first.width, first.height) == (WIDTH, HEIGHT) and packed(first, 5, 5) == 0
    canvas.paint(RED, 4, 4, 8, 8)
    canvas.paint(BLUE, 30, 20, 10, 6)
    assert watch.wait(later())
    sighting = watch.sighting()
    assert sighting is not None and sighting.areas == ((4, 4, 8, 8), (30, 20, 10, 6))
    assert packed(sighting, 5, 5) == 0xFF0000 and packed(sighting, 31, 21) == 0x0000FF
    assert not watch.wait(time.monotonic()), "woken again for what was sighted"
    np.testing.assert_array_equal(watch.look(not_called), canvas.grab())
    assert watch.patched == 1 and watch.unreported == 0
    again = watch.sighting()
    assert again is not None and again.areas == ()
    assert watch.record()["sightings"] == 3


def test_a_sightings_areas_are_in_the_pictures_own_pixels_below_a_bar(canvas, watch, monkeypatch):
    """The picture below a bar of the window (fuse-gtk's menu bar): an area drawn in it is
    given from the picture's corner, not the window's."""
    grabber = watch._grabber
    monkeypatch.setattr(grabber, "follow_s", 3600.0)  # the box below stays as set here
    place = grabber._place  # the box as if found there, and never looked for again here
    for name, value in (("box", Box(0, 10, WIDTH, HEIGHT - 10)), ("found", True)):
        monkeypatch.setattr(place, name, value)
    monkeypatch.setattr(place, "ever_found", True)
    watch.look(not_called)
    first = watch.sighting()
    assert first is not None and first.areas is None and first.height == HEIGHT - 10
    canvas.paint(RED, 4, 14, 8, 8)
    assert watch.wait(later())
    sighting = watch.sighting()
    assert sighting is not None and sighting.areas == ((4, 4, 8, 8),)
    assert packed(sighting, 5, 5) == 0xFF0000


def sighted_at(watch: FramebufferWatch, left: int | None) -> framebuffer_watch.Sighting | None:
    """The first sighting at ``left`` (None: none), once the grabber has followed the
    window there (its ConfigureNotify read)."""
    deadline = later()
    while True:
        sighting = watch.sighting()
        if (sighting.left if sighting else None) == left or time.monotonic() > deadline:
            return sighting


def test_a_sighting_after_the_picture_moved_or_left_the_screen_has_every_area(
    canvas, watch, xserver
):
    watch.sighting()
    canvas.window.configure(x=40)
    canvas.dpy.sync()
    moved = sighted_at(watch, 40)
    assert moved is not None and moved.left == 40 and moved.areas is None
    width = xserver.framebuffer.layout.width
    canvas.window.configure(x=width - WIDTH // 2)
    canvas.dpy.sync()
    assert sighted_at(watch, None) is None, "a picture partly off the screen is not sighted"
    canvas.window.configure(x=40)
    canvas.dpy.sync()
    back = sighted_at(watch, 40)
    assert back is not None and back.areas is None


def test_a_wait_listens_to_other_connections_without_waking_for_them(
    canvas, watch, xserver, monkeypatch
):
    """A connection in ``listen`` with an event unread does not end the wait, nor wake
    it again and again; what the wait found there tells the checks after it."""
    from Xlib import X

    from logo_bot.bot.x11 import pending
    from logo_bot.bot.x11.display import open_display

    other = open_display(xserver.display)
    try:
        window = other.screen().root.create_window(
            0, 0, 8, 8, 0, X.CopyFromParent, event_mask=X.StructureNotifyMask
        )
        other.sync()
        quiet = open_display(xserver.display)
        watch.listen = [other.fileno(), quiet.fileno()]
        watch.look(not_called)
        # a ConfigureNotify for ``other``, unread: made by another connection
        canvas.dpy.create_resource_object("window", window.id).configure(width=9)
        canvas.dpy.sync()
        selects = []
        real = damage.select.select
        monkeypatch.setattr(damage.select, "select", lambda *a: selects.append(a[0]) or real(*a))
        assert not watch.wait(time.monotonic() + 0.02)
        assert len(selects) <= 2 and other.fileno() not in selects[-1]
        monkeypatch.setattr(pending, "QUIET_S", 3600.0)
        assert pending.quiet(quiet.fileno()) and not pending.quiet(other.fileno())
        canvas.paint(RED, 4, 4, 8, 8)
        assert watch.wait(later())
        quiet.close()
    finally:
        other.close()
